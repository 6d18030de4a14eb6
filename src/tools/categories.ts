import { deepFreeze } from '../internal/deep-freeze.js';

/**
 * The one table of tool names, by category. No other module names a tool; argument field
 * names live in `argument-fields.ts`.
 */

/** What a tool does, for counting and describing a group. Unknown tools are `generic`. */
export type ToolCategory =
  | 'read'
  | 'read_image'
  | 'write'
  | 'edit'
  | 'search'
  | 'web'
  | 'todo'
  | 'question'
  | 'bash'
  | 'pwsh'
  | 'run_code'
  | 'generic';

/**
 * The built-in tool names by category: the names of common agents (Claude Code, Codex CLI, Gemini CLI, OpenCode, Cline and Roo
 * Code, Cursor, Copilot, Windsurf, Continue, OpenHands and SWE-agent, Anthropic and OpenAI
 * hosted tools, MCP reference servers), by category. Names match as `normalizeToolName`
 * spells them, so `TodoWrite`, `todo_write` and `todo-write` are one name.
 *
 * Decisions for ambiguous names:
 * - Editor tools whose command picks the operation (`str_replace_editor`,
 *   `str_replace_based_edit_tool`) are `edit`, also when they only view: a category comes
 *   from the name alone, since reading an argument to classify would republish nodes.
 * - Split editor commands used as tool names: `view` is `read`, `create` is `write`,
 *   `str_replace` and `insert` are `edit`.
 * - Patch tools (`apply_patch`, `apply_diff`, `patch`) are `edit` even when a patch adds files.
 * - Directory listings (`LS`, `list`, `list_dir`, `list_files`, `directory_tree`) and file
 *   finders (`Glob`, `find_by_name`) are `search`, with the greps.
 * - `fetch` (the MCP fetch server) and `browser_action` are `web`.
 * - `NotebookRead` is `read`, `NotebookEdit` is `edit`; `view_image` and `read_media_file` are
 *   `read_image`; Claude Code's `Read` stays `read` whatever file it opens.
 * - `python`, `execute_ipython_cell` and hosted code interpreters are `run_code`.
 * - Codex's `command_execution` items (`fromCodex`, arguments `{ command }`) are `bash`.
 * - Sub-agents (`Task`), plans (`ExitPlanMode`), shell management (`BashOutput`, `KillShell`)
 *   and MCP tools without a known base name are `generic`.
 *
 * Frozen. Read it to learn what the built-in rows call a `read` tool; classify a name with
 * `categoryOf` or `toolClassifier`, which also match namespaced names.
 */
export const toolNames: { readonly [C in ToolCategory]: readonly string[] } = deepFreeze({
  read: [
    'Read',
    'read_file',
    'read_text_file',
    'read_many_files',
    'read_multiple_files',
    'read_currently_open_file',
    'view_file',
    'view',
    'open_file',
    'cat',
    'fs_read',
    'NotebookRead',
    'get_file_contents',
  ],
  read_image: ['read_image', 'view_image', 'read_media_file', 'image_read'],
  write: [
    'Write',
    'write_file',
    'write_to_file',
    'create',
    'create_file',
    'create_new_file',
    'fs_write',
    'save_file',
  ],
  edit: [
    'Edit',
    'MultiEdit',
    'edit_file',
    'edit_existing_file',
    'str_replace',
    'str_replace_editor',
    'str_replace_based_edit_tool',
    'replace',
    'replace_in_file',
    'replace_file_content',
    'replace_string_in_file',
    'multi_replace_string_in_file',
    'search_replace',
    'search_and_replace',
    'insert',
    'insert_content',
    'insert_edit_into_file',
    'apply_patch',
    'apply_diff',
    'patch',
    'NotebookEdit',
    'edit_notebook',
    'text_editor_code_execution',
  ],
  search: [
    'Grep',
    'Glob',
    'LS',
    'list',
    'list_dir',
    'list_files',
    'list_directory',
    'directory_tree',
    'find',
    'find_by_name',
    'find_files',
    'file_search',
    'file_glob_search',
    'search',
    'search_files',
    'search_file_content',
    'search_code',
    'grep_search',
    'exact_search',
    'codebase_search',
    'semantic_search',
    'list_code_definition_names',
  ],
  web: [
    'WebFetch',
    'WebSearch',
    'web_search_preview',
    'google_web_search',
    'search_web',
    'brave_web_search',
    'tavily_search',
    'fetch',
    'fetch_url',
    'fetch_url_content',
    'fetch_webpage',
    'read_url_content',
    'browser_action',
  ],
  todo: [
    'TodoWrite',
    'TodoRead',
    'write_todos',
    'update_plan',
    'update_todo_list',
    'manage_todo_list',
    'todo',
  ],
  question: ['AskUserQuestion', 'ask_followup_question', 'ask_user', 'ask_question'],
  bash: [
    'Bash',
    'shell',
    'local_shell',
    'run_shell_command',
    'execute_command',
    'execute_bash',
    'exec_command',
    'exec',
    'run_command',
    'run_terminal_cmd',
    'run_terminal_command',
    'run_in_terminal',
    'terminal',
    'bash_code_execution',
    'command_execution',
  ],
  pwsh: ['PowerShell', 'pwsh', 'run_powershell', 'execute_powershell'],
  run_code: [
    'run_code',
    'python',
    'run_python',
    'execute_python',
    'execute_code',
    'code_interpreter',
    'code_execution',
    'execute_ipython_cell',
    'ipython',
    'run_javascript',
  ],
  generic: [],
});

/** Every category, in the order of the type. */
export const toolCategories: readonly ToolCategory[] = Object.freeze(
  Object.keys(toolNames) as ToolCategory[],
);

/**
 * A tool name as the table matches it: lower case, without `_`, `-` or spaces. Also applied to
 * an embedder's names.
 */
export function normalizeToolName(name: string): string {
  return name.toLowerCase().replace(/[\s_-]+/g, '');
}

const BUILT_IN: ReadonlyMap<string, ToolCategory> = new Map(
  toolCategories.flatMap((category) =>
    toolNames[category].map((name) => [normalizeToolName(name), category] as const),
  ),
);

/** Separators of namespaced names: `mcp__server__tool`, `container.exec`, `server/tool`, `ns:tool`. */
const NAMESPACE = /__|[./:]/;

function lookup(name: string, extra: ReadonlyMap<string, ToolCategory>): ToolCategory | undefined {
  const key = normalizeToolName(name);
  return extra.get(key) ?? BUILT_IN.get(key);
}

function classify(name: string, extra: ReadonlyMap<string, ToolCategory>): ToolCategory {
  const found = lookup(name, extra);
  if (found !== undefined) return found;
  const parts = name.split(NAMESPACE);
  return parts.length < 2
    ? 'generic'
    : (lookup(parts[parts.length - 1] as string, extra) ?? 'generic');
}

const NONE: ReadonlyMap<string, ToolCategory> = new Map();

/**
 * The category of a tool by its name in the built-in table: the whole name first, then, for
 * a namespaced name (`mcp__filesystem__read_file`, `container.exec`), its last part. Unknown
 * names are `generic`.
 */
export function categoryOf(name: string): ToolCategory {
  return classify(name, NONE);
}

/**
 * `categoryOf` with more names: `extra` maps tool names (matched like the built-in ones) to
 * categories and wins over the table. Answers are memoized per name. Throws a RangeError
 * when `extra` names an unknown category.
 */
export function toolClassifier(
  extra: Readonly<Record<string, ToolCategory>> = {},
): (name: string) => ToolCategory {
  const known = new Set<string>(toolCategories);
  const map = new Map<string, ToolCategory>();
  for (const [name, category] of Object.entries(extra)) {
    if (!known.has(category)) {
      throw new RangeError(`callfold: tool "${name}" mapped to unknown category "${category}"`);
    }
    map.set(normalizeToolName(name), category);
  }
  const memo = new Map<string, ToolCategory>();
  return (name) => {
    let category = memo.get(name);
    if (category === undefined) {
      category = classify(name, map);
      memo.set(name, category);
    }
    return category;
  };
}

/** The built-in names of one category, as spelled in the table (for documentation and tests). */
export function toolNamesOf(category: ToolCategory): readonly string[] {
  return toolNames[category];
}
