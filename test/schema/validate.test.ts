import { expect } from 'chai';
import { defineTool } from '../../src/schema/define-tool.js';
import { param } from '../../src/schema/parameters.js';
import {
  ArgumentsError,
  formatPath,
  parseArguments,
  validateArguments,
} from '../../src/schema/validate.js';
import { describe, it } from '../harness.js';

const todo = defineTool({
  name: 'todo_write',
  description: 'Replace the todo list.',
  parameters: {
    summary: param.string({ minLength: 1, maxLength: 10 }),
    todos: param.array(
      param.object({
        status: param.enum(['pending', 'in_progress', 'done']),
        content: param.string(),
        priority: param.integer({ minimum: 1, maximum: 3 }).optional(),
      }),
      { maxItems: 3 },
    ),
    dry_run: param.boolean().optional(),
  },
});

const issuesOf = (value: unknown) => {
  const result = validateArguments(todo, value);
  return result.ok ? [] : result.issues.map((issue) => `${issue.at}: ${issue.message}`);
};

describe('validateArguments', () => {
  it('accepts valid arguments and returns the same object, typed', () => {
    const value = { summary: 'plan', todos: [{ status: 'done', content: 'x', priority: 2 }] };
    const result = validateArguments(todo, value);
    expect(result.ok).to.equal(true);
    if (result.ok) {
      expect(result.value).to.equal(value);
      const status: 'pending' | 'in_progress' | 'done' | undefined = result.value.todos[0]?.status;
      expect(status).to.equal('done');
    }
  });

  it('reports every problem with its path', () => {
    expect(
      issuesOf({
        summary: '',
        todos: [
          { status: 'done', content: 'a' },
          { status: 'blocked', content: 7, priority: 1.5 },
          { content: 'c', priority: 9, extra: true },
          { status: 'done', content: 'd' },
        ],
        dry_run: 'yes',
        force: 1,
      }),
    ).to.deep.equal([
      'summary: expected at least 1 character, got 0',
      'todos: expected at most 3 items, got 4',
      'todos[1].status: expected one of "pending", "in_progress", "done", got "blocked"',
      'todos[1].content: expected a string, got 7',
      'todos[1].priority: expected an integer, got 1.5',
      'todos[2].status: is required',
      'todos[2].priority: expected at most 3, got 9',
      'todos[2].extra: is not a declared parameter',
      'dry_run: expected a boolean, got "yes"',
      'force: is not a declared parameter',
    ]);
  });

  it('names a missing required argument and a wrong root', () => {
    expect(issuesOf({ summary: 'x' })).to.deep.equal(['todos: is required']);
    expect(issuesOf([])).to.deep.equal(['(arguments): expected an object, got an array']);
    expect(issuesOf(null)).to.deep.equal(['(arguments): expected an object, got null']);
  });

  it('counts characters by code point for length limits', () => {
    expect(issuesOf({ summary: '😀'.repeat(10), todos: [] })).to.deep.equal([]);
    expect(issuesOf({ summary: '😀'.repeat(11), todos: [] })).to.deep.equal([
      'summary: expected at most 10 characters, got 11',
    ]);
  });

  it('only counts own keys: inherited names are not parameters, and __proto__ is a key', () => {
    expect(
      issuesOf(JSON.parse('{"summary":"x","todos":[],"constructor":1,"__proto__":{}}')),
    ).to.deep.equal([
      'constructor: is not a declared parameter',
      '__proto__: is not a declared parameter',
    ]);
    const tricky = defineTool({
      name: 't',
      description: '',
      parameters: { toString: param.string() },
    });
    expect(validateArguments(tricky, {}).ok).to.equal(false);
    expect(validateArguments(tricky, { toString: 'x' }).ok).to.equal(true);
  });

  it('rejects numbers JSON cannot carry', () => {
    const n = defineTool({ name: 'n', description: '', parameters: { x: param.number() } });
    expect(validateArguments(n, { x: Number.NaN }).ok).to.equal(false);
    expect(validateArguments(n, { x: Number.POSITIVE_INFINITY }).ok).to.equal(false);
    expect(validateArguments(n, { x: -0.5 }).ok).to.equal(true);
  });

  it('checks patterns as unanchored ECMAScript regular expressions', () => {
    const p = defineTool({
      name: 'p',
      description: '',
      parameters: { path: param.string({ pattern: '^/' }) },
    });
    expect(validateArguments(p, { path: '/a' }).ok).to.equal(true);
    const result = validateArguments(p, { path: 'a' });
    expect(result.ok ? [] : result.issues.map((issue) => issue.message)).to.deep.equal([
      'expected text matching /^//',
    ]);
  });

  it('reads null as absent for optional parameters with nullAsAbsent, and copies only then', () => {
    const value = {
      summary: 's',
      todos: [{ status: 'done', content: 'c', priority: null }],
      dry_run: null,
    };
    expect(validateArguments(todo, value).ok).to.equal(false);
    const result = validateArguments(todo, value, { nullAsAbsent: true });
    expect(result.ok).to.equal(true);
    if (result.ok) {
      expect(JSON.stringify(result.value)).to.equal(
        '{"summary":"s","todos":[{"status":"done","content":"c"}]}',
      );
      expect(value.dry_run).to.equal(null);
    }
    const required = validateArguments(todo, { summary: null, todos: [] }, { nullAsAbsent: true });
    expect(required.ok).to.equal(false);
  });

  it('stops collecting after 100 issues', () => {
    const many = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i]));
    const result = validateArguments(todo, many);
    expect(result.ok ? 0 : result.issues.length).to.equal(100);
  });
});

describe('parseArguments', () => {
  it('parses and validates argument text', () => {
    const value = parseArguments(todo, '{"summary":"a","todos":[]}');
    expect(value.todos).to.deep.equal([]);
  });

  it('throws an ArgumentsError naming the tool and the paths', () => {
    let error: unknown;
    try {
      parseArguments(todo, '{"summary":"a","todos":[{"status":"x","content":"c"}]}');
    } catch (caught) {
      error = caught;
    }
    expect(error).to.be.instanceOf(ArgumentsError);
    expect((error as ArgumentsError).message).to.equal(
      'invalid arguments for todo_write: todos[0].status: expected one of "pending", "in_progress", "done", got "x"',
    );
    expect((error as ArgumentsError).issues[0]?.path).to.deep.equal(['todos', 0, 'status']);
    expect((error as ArgumentsError).tool).to.equal('todo_write');
  });

  it('reports text that is not JSON as an issue of the whole', () => {
    expect(() => parseArguments(todo, '{"summary":')).to.throw(
      ArgumentsError,
      /^invalid arguments for todo_write: \(arguments\): is not valid JSON/,
    );
  });
});

describe('formatPath', () => {
  it('writes identifiers with dots, indexes and other keys in brackets', () => {
    expect(formatPath([])).to.equal('(arguments)');
    expect(formatPath(['a', 0, 'b_c'])).to.equal('a[0].b_c');
    expect(formatPath(['odd key', 'x'])).to.equal('["odd key"].x');
    expect(formatPath([2])).to.equal('[2]');
  });
});
