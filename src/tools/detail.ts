import type { PartialArguments } from '../arguments/partial-arguments.js';
import type { ToolNode } from '../definitions/tool-definition.js';
import { DEV_MODE } from '../internal/dev-mode.js';
import { isRecord } from '../internal/is-record.js';
import { argumentFields } from './argument-fields.js';
import { categoryOf, type ToolCategory } from './categories.js';
import { type DetailSource, detailSources } from './detail-sources.js';
import { detailOfPrefixes, detailText, prefixesOf } from './detail-text.js';
import { patchFileList, patchFiles } from './patch-files.js';
import { groupProbe } from './probe.js';

function firstString(item: unknown, keys: readonly string[]): string | undefined {
  if (typeof item === 'string') return item;
  if (!isRecord(item)) return undefined;
  for (const key of keys) {
    const value = item[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}

const SHELL =
  /(?:^|[/\\])(?:ba|z|da|k|fi)?sh(?:\.exe)?$|(?:^|[/\\])(?:pwsh|powershell)(?:\.exe)?$/i;
const SHELL_SCRIPT_FLAG = /^(?:-\w*c|-command|\/c)$/i;

/** An array of strings joined by `separator`; a shell wrapper's script when `unwrapShell`. */
function joinStrings(value: unknown, separator: string, unwrapShell = false): string | undefined {
  if (!Array.isArray(value) || !value.every((part) => typeof part === 'string')) return undefined;
  const argv = value as string[];
  const [shell, flag, script] = argv;
  if (
    unwrapShell &&
    argv.length === 3 &&
    SHELL.test(shell as string) &&
    SHELL_SCRIPT_FLAG.test(flag as string)
  ) {
    return script;
  }
  return argv.join(separator);
}

const { todoText: TODO_TEXT, todoActiveText, todoStatus, questionText } = argumentFields;
const ACTIVE_TODO_TEXT = [...todoActiveText, ...TODO_TEXT];

function todoText(value: unknown): string | undefined {
  if (!Array.isArray(value)) return undefined;
  const items = value.filter(isRecord);
  const status = (item: Record<string, unknown>) =>
    firstString(item, todoStatus)?.toLowerCase().replace('-', '_') ?? '';
  const active = items.find((item) => status(item) === 'in_progress');
  if (active) return firstString(active, ACTIVE_TODO_TEXT);
  const open = items.find((item) => !['completed', 'done', 'cancelled'].includes(status(item)));
  return firstString(open ?? items[items.length - 1], TODO_TEXT);
}

/** The detail one source gives, or undefined when it has nothing usable (yet). */
function sourceDetail(args: PartialArguments, source: DetailSource): string | undefined {
  if (typeof source === 'string')
    return detailOfPrefixes((units) => args.textPrefix(source, units));
  const { field } = source;
  if (source.as === 'patch') {
    const patch = patchFiles(args, field);
    return patch === undefined || patch.count === 0
      ? undefined
      : detailOfPrefixes(prefixesOf(patchFileList(patch)));
  }
  // Checked first so that a long string under the same key is never parsed whole.
  if (args.kind(field) !== 'array') return undefined;
  const value = args.value(field);
  let text: string | undefined;
  switch (source.as) {
    case 'argv':
      text = joinStrings(value, ' ', true);
      break;
    case 'list':
      text = joinStrings(value, ' ');
      break;
    case 'commands':
      text = joinStrings(value, '; ');
      break;
    case 'todos':
      text = todoText(value);
      break;
    case 'questions':
      text = Array.isArray(value) ? firstString(value[0], questionText) : undefined;
      break;
    default:
      return source.as satisfies never;
  }
  return text === undefined ? undefined : detailOfPrefixes(prefixesOf(text));
}

/**
 * The one-line detail of a tool call, as its group shows it while the call is the group's
 * latest: the first usable field of the category's priority list (`detailSources`), in the
 * form of `detailText`. With no usable field it is '' while fields can still arrive, then the
 * tool's name once `args.closed()`.
 *
 * Every read goes through the reader, so the Tool Definition republishes the node exactly when
 * the detail may have changed; and the reads are chosen so that a settled detail stops
 * changing them: a `textPrefix(field, 512)` answer is fixed once 512 units exist, so once a
 * description's first 160 clusters are decided, more text never republishes the node.
 */
export function toolDetail(
  tool: Pick<ToolNode, 'name' | 'args'>,
  category: ToolCategory = categoryOf(tool.name),
): string {
  if (DEV_MODE) groupProbe.details++;
  for (const source of detailSources[category]) {
    const detail = sourceDetail(tool.args, source);
    if (detail !== undefined) return detail;
  }
  return tool.args.closed() ? detailText(tool.name) : '';
}
