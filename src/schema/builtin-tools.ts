import { defineTool, type ToolSchema } from './define-tool.js';
import { type Parameter, param } from './parameters.js';

/**
 * The sentence that asks a model to write one argument before others, for a parameter
 * description: `orderingSentence('description', 'command')` is "Provide description before
 * command in the arguments." Declaring the parameter first (which orders `required`) is not
 * always enough; decision record 0002 (`docs/decisions/0002-lazy-arguments-and-argument-order.md`)
 * measured V4 Flash's free bash calls going from
 * 0/10 to 19/20 description-first with this sentence.
 */
export function orderingSentence(first: string, ...later: [string, ...string[]]): string {
  const rest =
    later.length === 1 ? later[0] : `${later.slice(0, -1).join(', ')} and ${later.at(-1)}`;
  return `Provide ${first} before ${rest} in the arguments.`;
}

type Required<T> = Parameter<T, false>;
type Optional<T> = Parameter<T, true>;

// Explicit parameter types: the published API names them (`builtinTools`'s type), and JSR
// publishes only explicitly typed declarations ("no slow types").
/** The parameters of `builtinTools.bash` and `.pwsh`. */
export type ShellToolParameters = {
  readonly description: Required<string>;
  readonly command: Required<string>;
  readonly timeout: Optional<number>;
};
/** The parameters of `builtinTools.run_code`. */
export type RunCodeToolParameters = {
  readonly description: Required<string>;
  readonly language: Required<'typescript' | 'python'>;
  readonly code: Required<string>;
};
/** The parameters of `runCodeTool(language)`. */
export type SingleLanguageRunCodeToolParameters = {
  readonly description: Required<string>;
  readonly code: Required<string>;
};
/** The parameters of `builtinTools.write`. */
export type WriteToolParameters = {
  readonly file_path: Required<string>;
  readonly content: Required<string>;
};
/** The parameters of `builtinTools.edit`. */
export type EditToolParameters = {
  readonly file_path: Required<string>;
  readonly old_string: Required<string>;
  readonly new_string: Required<string>;
  readonly replace_all: Optional<boolean>;
};
/** The parameters of `builtinTools.read`. */
export type ReadToolParameters = {
  readonly file_path: Required<string>;
  readonly offset: Optional<number>;
  readonly limit: Optional<number>;
};

const labelOf = (what: string) =>
  `A short description of what the ${what} does, in 5–10 words, shown to the user while it runs.`;

const timeout: Optional<number> = param
  .integer({ description: 'Stop the command after this many milliseconds.', minimum: 1 })
  .optional();

const bash: ToolSchema<ShellToolParameters> = defineTool({
  name: 'bash',
  description: 'Run a command in bash and return its output (stdout and stderr) and exit status.',
  parameters: {
    description: param.string(
      `${labelOf('command')} ${orderingSentence('description', 'command')}`,
    ),
    command: param.string('The bash command to run.'),
    timeout,
  },
});

const pwsh: ToolSchema<ShellToolParameters> = defineTool({
  name: 'pwsh',
  description: 'Run a command in PowerShell (pwsh) and return its output and exit status.',
  parameters: {
    description: param.string(
      `${labelOf('command')} ${orderingSentence('description', 'command')}`,
    ),
    command: param.string('The PowerShell command to run.'),
    timeout,
  },
});

const codeLabel: Required<string> = param.string(
  `${labelOf('program')} ${orderingSentence('description', 'code')}`,
);
const code: Required<string> = param.string(
  'The complete program. It runs in a fresh process; print whatever you need to see.',
);
const languageName = { typescript: 'TypeScript', python: 'Python' } as const;

const runCode: ToolSchema<RunCodeToolParameters> = defineTool({
  name: 'run_code',
  description: 'Run a short TypeScript or Python program and return what it prints.',
  parameters: {
    description: codeLabel,
    language: param.enum(['typescript', 'python'], 'The language of the program.'),
    code,
  },
});

const runCodeParameters: SingleLanguageRunCodeToolParameters = { description: codeLabel, code };

/**
 * A `run_code` tool for one language: `description`, `code`, with the same description
 * parameter and ordering sentence as `builtinTools.run_code` (which lets the model choose).
 */
export function runCodeTool(
  language: 'typescript' | 'python',
): ToolSchema<SingleLanguageRunCodeToolParameters> {
  return defineTool({
    name: 'run_code',
    description: `Run a short ${languageName[language]} program and return what it prints.`,
    parameters: runCodeParameters,
  });
}

const write: ToolSchema<WriteToolParameters> = defineTool({
  name: 'write',
  description: 'Write a file: create it, or replace all of its contents.',
  parameters: {
    file_path: param.string(
      `The absolute path of the file to write. ${orderingSentence('file_path', 'content')}`,
    ),
    content: param.string('The complete new contents of the file.'),
  },
});

const edit: ToolSchema<EditToolParameters> = defineTool({
  name: 'edit',
  description: 'Replace exact text in a file.',
  parameters: {
    file_path: param.string(
      `The absolute path of the file to edit. ${orderingSentence('file_path', 'old_string', 'new_string')}`,
    ),
    old_string: param.string(
      'The exact text to replace. It must occur in the file exactly once unless replace_all is true.',
    ),
    new_string: param.string('The text to put in its place.'),
    replace_all: param.boolean('Replace every occurrence of old_string.').optional(),
  },
});

const read: ToolSchema<ReadToolParameters> = defineTool({
  name: 'read',
  description: 'Read a text file, or a range of its lines.',
  parameters: {
    file_path: param.string('The absolute path of the file to read.'),
    offset: param
      .integer({ description: 'The first line to read (1-based).', minimum: 1 })
      .optional(),
    limit: param.integer({ description: 'How many lines to read.', minimum: 1 }).optional(),
  },
});

/**
 * Schemas for the tools whose rows callfold labels while they stream, each declaring its
 * label field first (decision record 0002, `docs/decisions/0002-lazy-arguments-and-argument-order.md`):
 * - bash, pwsh: `description`, `command`, `timeout?`; "Provide description before command in
 *   the arguments."
 * - run_code: `description`, `language`, `code`; "Provide description before code in the
 *   arguments." (`runCodeTool('python')` drops `language`.)
 * - write: `file_path`, `content`; "Provide file_path before content in the arguments."
 * - edit: `file_path`, `old_string`, `new_string`, `replace_all?`; "Provide file_path before
 *   old_string and new_string in the arguments."
 * - read: `file_path`, `offset?`, `limit?` (the path already comes first; no sentence).
 *
 * Each sentence ends the label parameter's description. Order and sentence encourage
 * label-first generation; they do not guarantee it (measure with `callfold probe`).
 */
/** The type of `builtinTools`. */
export interface BuiltinTools {
  readonly bash: ToolSchema<ShellToolParameters>;
  readonly pwsh: ToolSchema<ShellToolParameters>;
  readonly run_code: ToolSchema<RunCodeToolParameters>;
  readonly write: ToolSchema<WriteToolParameters>;
  readonly edit: ToolSchema<EditToolParameters>;
  readonly read: ToolSchema<ReadToolParameters>;
}

export const builtinTools: BuiltinTools = Object.freeze({
  bash,
  pwsh,
  run_code: runCode,
  write,
  edit,
  read,
});

export type BuiltinToolName = keyof typeof builtinTools;
