import { expect } from 'chai';
import { defineTool, type ToolArguments } from '../../src/schema/define-tool.js';
import { type ArgumentsOf, param } from '../../src/schema/parameters.js';
import { describe, it } from '../harness.js';

/** True when A and B are the same type (a compile-time check; the assignment fails otherwise). */
type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** JSON text keeps key order, which chai's deep equality ignores. */
const json = (value: unknown) => JSON.stringify(value);

describe('param builders', () => {
  it('emit type, then description, then constraints that are set', () => {
    expect(json(param.string().jsonSchema)).to.equal('{"type":"string"}');
    expect(json(param.string('The command.').jsonSchema)).to.equal(
      '{"type":"string","description":"The command."}',
    );
    expect(
      json(
        param.string({ pattern: '^/', maxLength: 9, description: 'A path.', minLength: 1 })
          .jsonSchema,
      ),
    ).to.equal(
      '{"type":"string","description":"A path.","minLength":1,"maxLength":9,"pattern":"^/"}',
    );
    expect(json(param.number({ minimum: 0, maximum: 1 }).jsonSchema)).to.equal(
      '{"type":"number","minimum":0,"maximum":1}',
    );
    expect(json(param.integer({ description: 'Lines.', minimum: 1 }).jsonSchema)).to.equal(
      '{"type":"integer","description":"Lines.","minimum":1}',
    );
    expect(json(param.boolean('Replace all.').jsonSchema)).to.equal(
      '{"type":"boolean","description":"Replace all."}',
    );
    expect(json(param.enum(['typescript', 'python'], 'Language.').jsonSchema)).to.equal(
      '{"type":"string","description":"Language.","enum":["typescript","python"]}',
    );
    expect(
      json(param.array(param.string(), { description: 'Paths.', minItems: 1 }).jsonSchema),
    ).to.equal('{"type":"array","description":"Paths.","items":{"type":"string"},"minItems":1}');
  });

  it('nest objects with the same ordering rules', () => {
    const todo = param.object(
      {
        status: param.enum(['pending', 'done']),
        content: param.string(),
        note: param.string().optional(),
      },
      'One item.',
    );
    expect(json(todo.jsonSchema)).to.equal(
      '{"type":"object","description":"One item.","properties":{"status":{"type":"string","enum":["pending","done"]},"content":{"type":"string"},"note":{"type":"string"}},"required":["status","content"],"additionalProperties":false}',
    );
  });

  it('are immutable: optional() returns a new parameter and schemas are frozen', () => {
    const text = param.string('x');
    const maybe = text.optional();
    expect(text.isOptional).to.equal(false);
    expect(maybe.isOptional).to.equal(true);
    expect(maybe.jsonSchema).to.equal(text.jsonSchema);
    expect(Object.isFrozen(text)).to.equal(true);
    expect(Object.isFrozen(text.jsonSchema)).to.equal(true);
    expect(Object.isFrozen(param.enum(['a']).jsonSchema.enum)).to.equal(true);
  });

  it('reject an empty enum or a repeated value', () => {
    expect(() => param.enum([] as unknown as [string])).to.throw(TypeError);
    expect(() => param.enum(['a', 'a'])).to.throw(TypeError, /no value twice/);
  });
});

describe('defineTool', () => {
  const bash = defineTool({
    name: 'bash',
    description: 'Run a command.',
    parameters: {
      description: param.string('What it does.'),
      command: param.string('The command.'),
      timeout: param.integer().optional(),
      cwd: param.string().optional(),
      env: param.array(param.string()),
    },
  });

  it('emits properties and required in declaration order, optional ones left out of required', () => {
    expect(Object.keys(bash.jsonSchema.properties)).to.deep.equal([
      'description',
      'command',
      'timeout',
      'cwd',
      'env',
    ]);
    expect(bash.jsonSchema.required).to.deep.equal(['description', 'command', 'env']);
    expect(json(bash.jsonSchema)).to.equal(
      '{"type":"object","properties":{"description":{"type":"string","description":"What it does."},"command":{"type":"string","description":"The command."},"timeout":{"type":"integer"},"cwd":{"type":"string"},"env":{"type":"array","items":{"type":"string"}}},"required":["description","command","env"],"additionalProperties":false}',
    );
  });

  it('keeps required in declaration order for every order of the same parameters', () => {
    const names = ['a', 'b', 'c', 'd'];
    const orders: string[][] = [];
    const permute = (prefix: string[], rest: string[]) => {
      if (rest.length === 0) orders.push(prefix);
      rest.forEach((name, i) => {
        permute(
          [...prefix, name],
          rest.filter((_, j) => j !== i),
        );
      });
    };
    permute([], names);
    for (const order of orders) {
      const parameters = Object.fromEntries(
        order.map((name) => [name, name === 'c' ? param.string().optional() : param.string()]),
      );
      const tool = defineTool({ name: 't', description: '', parameters });
      expect(Object.keys(tool.jsonSchema.properties)).to.deep.equal(order);
      expect(tool.jsonSchema.required).to.deep.equal(order.filter((name) => name !== 'c'));
    }
  });

  it('freezes the tool and its schema', () => {
    expect(Object.isFrozen(bash)).to.equal(true);
    expect(Object.isFrozen(bash.parameters)).to.equal(true);
    expect(Object.isFrozen(bash.jsonSchema)).to.equal(true);
    expect(Object.isFrozen(bash.jsonSchema.required)).to.equal(true);
    expect(Object.isFrozen(bash.jsonSchema.properties)).to.equal(true);
  });

  it('rejects names providers reject, and parameter names JavaScript would reorder', () => {
    expect(() => defineTool({ name: 'run code', description: '', parameters: {} })).to.throw(
      TypeError,
    );
    expect(() => defineTool({ name: 'x'.repeat(65), description: '', parameters: {} })).to.throw(
      TypeError,
    );
    expect(() => defineTool({ name: '', description: '', parameters: {} })).to.throw(TypeError);
    expect(() =>
      defineTool({
        name: 'ok',
        description: '',
        parameters: { b: param.string(), 1: param.string() },
      }),
    ).to.throw(TypeError, /array index/);
    const fine = defineTool({
      name: 'ok-2_b',
      description: '',
      parameters: { b: param.string(), '01': param.string(), '-1': param.string() },
    });
    expect(Object.keys(fine.jsonSchema.properties)).to.deep.equal(['b', '01', '-1']);
  });

  it('types the arguments: required keys, optional keys, enums, arrays and nested objects', () => {
    const tool = defineTool({
      name: 'todo',
      description: '',
      parameters: {
        title: param.string(),
        done: param.boolean().optional(),
        kind: param.enum(['bug', 'feature']),
        tags: param.array(param.string()),
        owner: param.object({ name: param.string(), age: param.integer().optional() }),
      },
    });
    const ok: Equal<
      ToolArguments<typeof tool>,
      {
        title: string;
        kind: 'bug' | 'feature';
        tags: string[];
        owner: { name: string; age?: number };
        done?: boolean;
      }
    > = true;
    const same: Equal<ArgumentsOf<typeof tool.parameters>, ToolArguments<typeof tool>> = true;
    expect(ok && same).to.equal(true);
  });
});
