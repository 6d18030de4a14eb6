import { deepFreeze } from '../internal/deep-freeze.js';

/**
 * The one table of argument field names: for each role a field plays, the names agents'
 * tools give it (`file_path`, `path`, `filePath`…), most common first. Field names only;
 * which tool is which lives in `categories.ts`.
 *
 * The group detail (`detailSources`) and the built-in rows of the elements read fields
 * through this table, so a `renderTool` author who reads e.g. `argumentFields.path` finds
 * the path the built-in row would show. Frozen.
 *
 * @example
 * ```ts
 * import { argumentFields, type ToolNode } from 'callfold';
 *
 * function pathOf(node: ToolNode): string | undefined {
 *   const key = argumentFields.path.find((name) => node.args.has(name));
 *   return key === undefined || !node.args.complete(key) ? undefined : node.args.text(key);
 * }
 * ```
 */
export const argumentFields: { readonly [R in ArgumentRole]: readonly string[] } = deepFreeze({
  /** A file or directory a tool reads, writes, edits or lists. */
  path: [
    'file_path',
    'path',
    'filePath',
    'filepath',
    'absolute_path',
    'AbsolutePath',
    'target_file',
    'TargetFile',
    'notebook_path',
    'dir_path',
    'dirPath',
    'relative_workspace_path',
  ],
  /** Several paths at once (an array of strings). */
  paths: ['paths'],
  /** The whole text a write tool writes. */
  content: ['content', 'file_text', 'contents', 'CodeContent', 'code_edit', 'text'],
  /** The text an edit replaces. */
  oldText: ['old_string', 'old_str', 'oldString', 'old_text'],
  /** The text an edit puts in its place. */
  newText: ['new_string', 'new_str', 'newString', 'new_text'],
  /** A patch (`*** Begin Patch`, a unified diff) naming the files it changes. */
  patch: ['input', 'patch', 'diff'],
  /** A tool's own one-line account of the call, preferred over the raw command or code. */
  description: ['description', 'explanation'],
  /** A shell command: a string, or argv (`["bash", "-lc", "ls"]`). */
  command: ['command', 'cmd', 'CommandLine', 'script'],
  /** Shell commands run one after another: an array of strings (OpenAI's `shell` tool). */
  commands: ['commands'],
  /** Code a code-running tool runs. */
  code: ['code', 'source', 'script'],
  /** The language of `code`. */
  language: ['language', 'lang'],
  /** A URL a web tool fetches. */
  url: ['url', 'Url', 'uri'],
  /** Several URLs (an array of strings). */
  urls: ['urls'],
  /** What a search or web search looks for, most specific first. */
  query: ['pattern', 'query', 'regex', 'search_term', 'Query', 'Pattern', 'glob'],
  /** Which part of a file a read tool reads. */
  range: ['offset', 'limit', 'start_line', 'end_line', 'line', 'pages'],
  /** What to do with a fetched page, or the task of a tool that takes one instruction. */
  prompt: ['prompt'],
  /** The fields a search call lists when expanded. */
  searchOptions: ['pattern', 'query', 'regex', 'glob', 'include', 'path', 'output_mode'],
  /** The fields a web call lists when expanded, beside its URL. */
  webOptions: ['query', 'prompt', 'allowed_domains', 'blocked_domains'],
  /** A todo list: an array of items (see `todoText`, `todoStatus`). */
  todos: ['todos', 'plan', 'todoList'],
  /** A todo item's text. */
  todoText: ['content', 'step', 'text', 'title', 'description'],
  /** A todo item's text while it is in progress, preferred over `todoText` (Claude Code). */
  todoActiveText: ['activeForm'],
  /** A todo item's status: `pending`, `in_progress` (or `in-progress`), `completed`… */
  todoStatus: ['status'],
  /** A question put to the user, as one string. */
  question: ['question', 'prompt', 'message'],
  /** Several questions: an array of items (see `questionText`, `optionLabel`). */
  questions: ['questions'],
  /** A question item's text. */
  questionText: ['question', 'text', 'header'],
  /** An item's options (strings, or objects with an `optionLabel` field). */
  options: ['options'],
  /** An option's label. */
  optionLabel: ['label'],
  /** The fields a tool of no known category is most often labelled by. */
  label: [
    'description',
    'title',
    'file_path',
    'path',
    'filePath',
    'url',
    'query',
    'pattern',
    'command',
    'prompt',
    'message',
  ],
});

/** A role of `argumentFields`, e.g. `path` or `oldText`. */
export type ArgumentRole =
  | 'path'
  | 'paths'
  | 'content'
  | 'oldText'
  | 'newText'
  | 'patch'
  | 'description'
  | 'command'
  | 'commands'
  | 'code'
  | 'language'
  | 'url'
  | 'urls'
  | 'query'
  | 'range'
  | 'prompt'
  | 'searchOptions'
  | 'webOptions'
  | 'todos'
  | 'todoText'
  | 'todoActiveText'
  | 'todoStatus'
  | 'question'
  | 'questions'
  | 'questionText'
  | 'options'
  | 'optionLabel'
  | 'label';
