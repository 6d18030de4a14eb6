import { expect } from 'chai';
import { PartialArguments } from '../../src/arguments/partial-arguments.js';
import * as api from '../../src/index.js';
import { argumentFields } from '../../src/tools/argument-fields.js';
import {
  categoryOf,
  type ToolCategory,
  toolCategories,
  toolClassifier,
  toolNames,
  toolNamesOf,
} from '../../src/tools/categories.js';
import { toolDetail } from '../../src/tools/detail.js';
import { detailSources } from '../../src/tools/detail-sources.js';
import { englishPhrase, englishSummary } from '../../src/tools/summary.js';
import { assembler, onlyGroup, toolDelta } from '../groups/support.js';
import { describe, it } from '../harness.js';

const detailOf = (name: string, fields: Record<string, unknown>) =>
  toolDetail({ name, args: PartialArguments.fromText(JSON.stringify(fields)) });

describe('categoryOf', () => {
  it('recognises the tool names of common agents', () => {
    const expected: [string, ToolCategory][] = [
      ['Read', 'read'],
      ['read_file', 'read'],
      ['NotebookRead', 'read'],
      ['view', 'read'],
      ['view_image', 'read_image'],
      ['Write', 'write'],
      ['write_file', 'write'],
      ['write_to_file', 'write'],
      ['create', 'write'],
      ['Edit', 'edit'],
      ['MultiEdit', 'edit'],
      ['NotebookEdit', 'edit'],
      ['apply_patch', 'edit'],
      ['str_replace_editor', 'edit'],
      ['str_replace', 'edit'],
      ['insert', 'edit'],
      ['replace', 'edit'],
      ['Grep', 'search'],
      ['Glob', 'search'],
      ['LS', 'search'],
      ['search_files', 'search'],
      ['list_files', 'search'],
      ['grep_search', 'search'],
      ['codebase_search', 'search'],
      ['WebFetch', 'web'],
      ['WebSearch', 'web'],
      ['web_search', 'web'],
      ['fetch', 'web'],
      ['TodoWrite', 'todo'],
      ['todo_write', 'todo'],
      ['update_plan', 'todo'],
      ['write_todos', 'todo'],
      ['AskUserQuestion', 'question'],
      ['ask_followup_question', 'question'],
      ['Bash', 'bash'],
      ['shell', 'bash'],
      ['run_shell_command', 'bash'],
      ['run_terminal_cmd', 'bash'],
      ['execute_command', 'bash'],
      ['powershell', 'pwsh'],
      ['pwsh', 'pwsh'],
      ['python', 'run_code'],
      ['run_python', 'run_code'],
      ['execute_code', 'run_code'],
      ['run_code', 'run_code'],
      // Provider-run tools (Anthropic server tools, OpenAI hosted tools).
      ['web_fetch', 'web'],
      ['code_execution', 'run_code'],
      ['code_interpreter', 'run_code'],
      ['bash_code_execution', 'bash'],
      ['command_execution', 'bash'],
      ['text_editor_code_execution', 'edit'],
      ['file_search', 'search'],
    ];
    for (const [name, category] of expected) expect(categoryOf(name), name).to.equal(category);
  });

  it('ignores case, underscores, dashes and spaces', () => {
    for (const name of ['READ_FILE', 'readFile', 'read-file', 'Read File', 'ReadFile']) {
      expect(categoryOf(name), name).to.equal('read');
    }
    expect(categoryOf('TODOWRITE')).to.equal('todo');
    expect(categoryOf('Web_Fetch')).to.equal('web');
  });

  it('reads the last part of a namespaced name', () => {
    expect(categoryOf('mcp__filesystem__read_file')).to.equal('read');
    expect(categoryOf('mcp__fetch__fetch')).to.equal('web');
    expect(categoryOf('container.exec')).to.equal('bash');
    expect(categoryOf('github/get_file_contents')).to.equal('read');
    expect(categoryOf('mcp__linear__create_issue')).to.equal('generic');
  });

  it('makes unknown tools generic', () => {
    for (const name of ['', 'frobnicate', 'Task', 'deploy', '__', 'mcp__x__']) {
      expect(categoryOf(name), name).to.equal('generic');
    }
  });

  it('lists every name in exactly one category', () => {
    const seen = new Map<string, ToolCategory>();
    for (const category of toolCategories) {
      for (const name of toolNamesOf(category)) {
        const key = name.toLowerCase().replace(/[\s_-]+/g, '');
        expect(seen.get(key), `${name} in ${category} and ${seen.get(key)}`).to.equal(undefined);
        seen.set(key, category);
        expect(categoryOf(name)).to.equal(category);
      }
    }
    expect(toolNamesOf('generic')).to.deep.equal([]);
  });

  it('takes more names from the embedder, matched the same way and winning', () => {
    const classify = toolClassifier({ deploy_app: 'bash', Read: 'read_image' });
    expect(classify('DeployApp')).to.equal('bash');
    expect(classify('mcp__ops__deploy-app')).to.equal('bash');
    expect(classify('read')).to.equal('read_image');
    expect(classify('Write')).to.equal('write');
    expect(classify('frobnicate')).to.equal('generic');
    expect(() => toolClassifier({ x: 'shell' as ToolCategory })).to.throw(RangeError, /shell/);
  });
});

describe('summary wording', () => {
  const table: [ToolCategory, string, string][] = [
    ['read', 'Read 1 file', 'Read 3 files'],
    ['read_image', 'Viewed 1 image', 'Viewed 3 images'],
    ['write', 'Wrote 1 file', 'Wrote 3 files'],
    ['edit', 'Edited 1 file', 'Edited 3 files'],
    ['search', 'Searched 1 time', 'Searched 3 times'],
    ['web', 'Made 1 web request', 'Made 3 web requests'],
    ['todo', 'Updated todos', 'Updated todos 3 times'],
    ['question', 'Asked 1 question', 'Asked 3 questions'],
    ['bash', 'Ran 1 command', 'Ran 3 commands'],
    ['pwsh', 'Ran 1 PowerShell command', 'Ran 3 PowerShell commands'],
    ['run_code', 'Ran 1 code snippet', 'Ran 3 code snippets'],
    ['generic', 'Used 1 tool', 'Used 3 tools'],
  ];

  it('says each count in singular or plural', () => {
    expect(table.map(([category]) => category)).to.deep.equal(toolCategories);
    for (const [category, one, three] of table) {
      expect(englishPhrase({ category, count: 1 })).to.equal(one);
      expect(englishPhrase({ category, count: 3 })).to.equal(three);
    }
    expect(englishPhrase({ category: 'read', count: 12 })).to.equal('Read 12 files');
  });

  it('joins the counts with " · " in their order', () => {
    const counts = [
      { category: 'read', count: 3 },
      { category: 'edit', count: 1 },
      { category: 'bash', count: 2 },
    ] as const;
    expect(englishSummary(counts)).to.equal('Read 3 files · Edited 1 file · Ran 2 commands');
    expect(englishSummary([])).to.equal('');
  });

  it('heads a group of unknown tools like any other', () => {
    const session = assembler();
    session.push([
      toolDelta('a1', 0, 'c1', '{"title":"Plan the work"}', 'Task'),
      toolDelta('a1', 1, 'c2', '{"title":"Ship it"}', 'deploy'),
    ]);
    const group = onlyGroup(session.publish());
    expect(group.summary).to.equal('Used 2 tools');
    expect(group.detail).to.equal('Ship it');
  });
});

describe('argumentFields: the one table of field names', () => {
  it('is where every field a detail source reads comes from', () => {
    const names = new Set<string>(Object.values(argumentFields).flat());
    for (const category of toolCategories) {
      for (const source of detailSources[category]) {
        const field = typeof source === 'string' ? source : source.field;
        expect(names.has(field), `${category}: ${field}`).to.equal(true);
      }
    }
  });

  it('is frozen, as are the tool names and the detail sources', () => {
    expect(Object.isFrozen(argumentFields) && Object.isFrozen(argumentFields.path)).to.equal(true);
    expect(Object.isFrozen(toolNames) && Object.isFrozen(toolNames.read)).to.equal(true);
    expect(Object.isFrozen(detailSources.bash[detailSources.bash.length - 1])).to.equal(true);
    expect(() => (argumentFields.path as unknown as string[]).push('x')).to.throw(TypeError);
  });

  it('is what the public API exports, with normalizeToolName', () => {
    expect(api.argumentFields).to.equal(argumentFields);
    expect(api.toolNames).to.equal(toolNames);
    expect(api.detailSources).to.equal(detailSources);
    expect(api.normalizeToolName('Todo-Write')).to.equal(api.normalizeToolName('todo_write'));
  });
});

describe('detail field aliases', () => {
  it('shows the path of file tools under any of its names', () => {
    expect(detailOf('Read', { file_path: 'a.ts', limit: 10 })).to.equal('a.ts');
    expect(detailOf('read_file', { path: 'b.ts' })).to.equal('b.ts');
    expect(detailOf('read', { filePath: 'c.ts' })).to.equal('c.ts');
    expect(detailOf('read_file', { absolute_path: '/d.ts' })).to.equal('/d.ts');
    expect(detailOf('read_file', { target_file: 'e.ts' })).to.equal('e.ts');
    expect(detailOf('Write', { content: 'x', file_path: 'f.ts' })).to.equal('f.ts');
    expect(detailOf('Edit', { old_string: 'a', new_string: 'b', path: 'g.ts' })).to.equal('g.ts');
    expect(detailOf('NotebookEdit', { notebook_path: 'h.ipynb' })).to.equal('h.ipynb');
    expect(detailOf('view_image', { path: 'i.png' })).to.equal('i.png');
    expect(detailOf('read_many_files', { paths: ['a.ts', 'b.ts'] })).to.equal('a.ts b.ts');
  });

  it('prefers the first field of the priority list', () => {
    expect(detailOf('Read', { path: 'second', file_path: 'first' })).to.equal('first');
    expect(detailOf('Bash', { command: 'ls', description: 'List' })).to.equal('List');
    expect(detailOf('Bash', { command: 'ls', description: ' \n ' })).to.equal('ls');
    expect(detailOf('run_terminal_cmd', { command: 'ls', explanation: 'Look' })).to.equal('Look');
    expect(detailOf('exec_command', { cmd: 'make' })).to.equal('make');
    expect(detailOf('pwsh', { command: 'Get-ChildItem' })).to.equal('Get-ChildItem');
    expect(detailOf('python', { code: 'print(1)' })).to.equal('print(1)');
    expect(detailOf('run_code', { code: 'x', description: 'Sum' })).to.equal('Sum');
  });

  it('shows the script of a shell argv and any other argv joined', () => {
    expect(detailOf('shell', { command: ['bash', '-lc', 'cd src && ls'] })).to.equal(
      'cd src && ls',
    );
    expect(detailOf('shell', { command: ['/bin/zsh', '-c', 'make'] })).to.equal('make');
    expect(detailOf('shell', { command: ['git', 'status', '--short'] })).to.equal(
      'git status --short',
    );
    expect(detailOf('shell', { command: ['ls', 3] })).to.equal('shell');
  });

  // Failed before: the tool's name.
  it("shows shell commands run one after another (OpenAI's shell `commands`) joined by '; '", () => {
    expect(detailOf('shell', { commands: ['npm ci', 'npm test'], timeout_ms: 1000 })).to.equal(
      'npm ci; npm test',
    );
    expect(detailOf('shell', { commands: ['make'] })).to.equal('make');
    expect(detailOf('shell', { commands: ['ls', 3] })).to.equal('shell');
    expect(detailOf('shell', { command: 'ls', commands: ['make'] })).to.equal('ls');
    expect(argumentFields.commands).to.deep.equal(['commands']);
  });

  it('shows the pattern or query of a search, then its path', () => {
    expect(detailOf('Grep', { pattern: 'TODO', path: 'src' })).to.equal('TODO');
    expect(detailOf('codebase_search', { query: 'auth flow' })).to.equal('auth flow');
    expect(detailOf('search_files', { path: 'src', regex: 'fixme' })).to.equal('fixme');
    expect(detailOf('LS', { path: 'src/lib' })).to.equal('src/lib');
  });

  it('shows the url or query of a web request', () => {
    expect(detailOf('WebFetch', { prompt: 'Sum up', url: 'https://a.example' })).to.equal(
      'https://a.example',
    );
    expect(detailOf('WebSearch', { query: 'lit 3 release' })).to.equal('lit 3 release');
  });

  it('shows the file a patch names', () => {
    const patch = '*** Begin Patch\n*** Update File: src/app.ts\n@@\n-a\n+b\n*** End Patch';
    expect(detailOf('apply_patch', { input: patch })).to.equal('src/app.ts');
    expect(detailOf('apply_patch', { input: '--- a/x.ts\n+++ b/x.ts\n@@' })).to.equal('x.ts');
    expect(detailOf('apply_patch', { input: 'garbage' })).to.equal('apply_patch');
  });

  it('shows the todo in progress, else the first open one', () => {
    const todos = [
      { content: 'Write tests', status: 'completed', activeForm: 'Writing tests' },
      { content: 'Fix the bug', status: 'in_progress', activeForm: 'Fixing the bug' },
      { content: 'Ship', status: 'pending', activeForm: 'Shipping' },
    ];
    expect(detailOf('TodoWrite', { todos })).to.equal('Fixing the bug');
    const plan = [
      { step: 'Read', status: 'completed' },
      { step: 'Patch', status: 'pending' },
    ];
    expect(detailOf('update_plan', { plan })).to.equal('Patch');
    const list = [{ title: 'Done', description: 'x', status: 'completed' }];
    expect(detailOf('manage_todo_list', { todoList: list })).to.equal('Done');
    expect(detailOf('update_todo_list', { todos: '[x] one\n[-] two' })).to.equal('[x] one [-] two');
  });

  it('shows the question asked', () => {
    expect(detailOf('ask_followup_question', { question: 'Which port?' })).to.equal('Which port?');
    const questions = [{ question: 'Which DB?', header: 'DB', options: [] }];
    expect(detailOf('AskUserQuestion', { questions })).to.equal('Which DB?');
  });

  it('describes unknown tools by their usual label fields', () => {
    expect(detailOf('Task', { prompt: 'long', description: 'Find the bug' })).to.equal(
      'Find the bug',
    );
    expect(detailOf('frobnicate', { url: 'https://x.example' })).to.equal('https://x.example');
    expect(detailOf('frobnicate', { n: 1 })).to.equal('frobnicate');
  });

  it('waits for an array field to complete', () => {
    const args = PartialArguments.streaming();
    args.append('{"command":["bash","-lc","ls');
    expect(toolDetail({ name: 'shell', args })).to.equal('');
    args.append('"]');
    expect(toolDetail({ name: 'shell', args })).to.equal('ls');
  });
});
