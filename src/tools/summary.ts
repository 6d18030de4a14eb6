import type { ToolCategory } from './categories.js';

/** How many tools of one category a group holds. */
export interface CategoryCount {
  readonly category: ToolCategory;
  readonly count: number;
}

/**
 * Turns a group's counts (first-seen order, each count at least 1) into its header. Replace
 * it through `BuilderOptions.summary` to translate; it is called only when the counts change.
 */
export type SummaryFormatter = (counts: readonly CategoryCount[]) => string;

/** Singular and plural; `#` stands for the count. */
const PHRASES: { readonly [C in ToolCategory]: readonly [one: string, many: string] } = {
  read: ['Read 1 file', 'Read # files'],
  read_image: ['Viewed 1 image', 'Viewed # images'],
  write: ['Wrote 1 file', 'Wrote # files'],
  edit: ['Edited 1 file', 'Edited # files'],
  search: ['Searched 1 time', 'Searched # times'],
  web: ['Made 1 web request', 'Made # web requests'],
  todo: ['Updated todos', 'Updated todos # times'],
  question: ['Asked 1 question', 'Asked # questions'],
  bash: ['Ran 1 command', 'Ran # commands'],
  pwsh: ['Ran 1 PowerShell command', 'Ran # PowerShell commands'],
  run_code: ['Ran 1 code snippet', 'Ran # code snippets'],
  generic: ['Used 1 tool', 'Used # tools'],
};

/**
 * The English phrase for one count: "Read 1 file", "Ran 3 commands". Counts are tool calls:
 * a MultiEdit or a patch touching several files is one edit, an AskUserQuestion with several
 * questions one question.
 */
export function englishPhrase({ category, count }: CategoryCount): string {
  const [one, many] = PHRASES[category];
  return count === 1 ? one : many.replace('#', String(count));
}

/** The default header: each count's English phrase, joined by " · ". */
export const englishSummary: SummaryFormatter = (counts) => counts.map(englishPhrase).join(' · ');
