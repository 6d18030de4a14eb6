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

/** The category of a tool by its name. */
export function categoryOf(_name: string): ToolCategory {
  return 'generic';
}
