import { deepFreeze } from '../internal/deep-freeze.js';
import { argumentFields } from './argument-fields.js';
import type { ToolCategory } from './categories.js';

/**
 * Where a detail comes from: a string field by name, or a field read another way.
 * - `argv`: an array of strings, once complete, joined by spaces; a shell wrapper
 *   (`["bash", "-lc", script]`) shows its script.
 * - `list`: an array of strings, once complete, joined by spaces.
 * - `commands`: shell commands run one after another (an array of strings), once complete,
 *   joined by `; `.
 * - `patch`: the files a patch names in its headers (`*** Update File: a.ts`, `+++ b/a.ts`),
 *   as they stream (`patchFiles`).
 * - `todos`: a todo list, once complete: the item in progress (its `activeForm` when given),
 *   else the first not completed, else the last.
 * - `questions`: the first question of a list, once complete.
 */
export type DetailSource =
  | string
  | {
      readonly field: string;
      readonly as: 'argv' | 'list' | 'commands' | 'patch' | 'todos' | 'questions';
    };

const readAs = (as: Exclude<DetailSource, string>['as'], fields: readonly string[]) =>
  fields.map((field) => ({ field, as }));

const {
  path,
  paths,
  patch,
  description,
  command,
  commands,
  code,
  url,
  urls,
  query,
  prompt,
  todos,
  question,
  questions,
  label,
} = argumentFields;

const commandSources: readonly DetailSource[] = [
  ...description,
  ...command,
  ...readAs('argv', command),
  ...readAs('commands', commands),
];

/**
 * The fields that describe a tool, by category, first usable wins: a string whose collapsed
 * text is not empty. A field that arrives later but ranks higher takes over the detail.
 * Every name comes from `argumentFields`; `generic` tries its `label` fields. Frozen.
 */
export const detailSources: { readonly [C in ToolCategory]: readonly DetailSource[] } = deepFreeze({
  read: [...path, ...readAs('list', paths)],
  read_image: [...path],
  write: [...path],
  edit: [...path, ...readAs('patch', patch)],
  search: [...query, ...path],
  web: [...url, ...readAs('list', urls), ...query, ...prompt],
  todo: [...readAs('todos', todos), ...todos, ...description],
  question: [...question, ...readAs('questions', questions)],
  bash: commandSources,
  pwsh: commandSources,
  run_code: [...description, ...code],
  generic: [...label],
});
