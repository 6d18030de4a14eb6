import {
  argumentFields,
  normalizeToolName,
  PartialArguments,
  patchFiles,
  type ToolCategory,
  type ToolNode,
  toolDetail,
} from '../../src/index.js';
import { patchFileList } from '../../src/internal-api.js';
import { closedText, decodedLength, firstKey, formatKiB } from './field-text.js';
import { httpUrl } from './http-url.js';
import { englishLabels } from './labels.js';
import { visibleOptional, visibleText } from './visible-text.js';

/** The one string field a free-form (`input: 'text'`) call's reader shows. */
const TEXT_INPUT = 'input';

/**
 * What a row's header line shows. Every field is plain text, rendered through text bindings,
 * with invisible and bidi characters made visible (`visibleText`), `path` excepted.
 */
export interface RowView {
  /** The category's title; a generic tool's own name. */
  readonly title: string;
  /** The tool's name when the title does not already say it ("Grep" under "Search"). */
  readonly name: string | undefined;
  /** A closed path argument: openable. The real text, for the `tool-open-path` event. */
  readonly path: string | undefined;
  /** The path as shown: invisible and bidi characters made visible (see `visibleText`). */
  readonly pathText: string | undefined;
  /** One line about the call: a description prefix, a pattern, a query. */
  readonly summary: string | undefined;
  /** The other files a patch names, after `path` ("+ b.ts, c.ts"). */
  readonly morePaths: string | undefined;
  /** A complete http(s) URL argument, to link. */
  readonly href: string | undefined;
  /** The decoded size of the content being written, e.g. "3 KiB". */
  readonly size: string | undefined;
}

/** Titles by category (the English labels). A generic tool is titled by its name. */
export const CATEGORY_TITLES: { readonly [C in ToolCategory]: string } = englishLabels.category;

/** Units of description or command a header reads: one line's worth, fixed once reached. */
export const SUMMARY_UNITS = 200;
/** Content sizes count in KiB while streaming: the node is republished once per KiB. */
export const SIZE_STEP = 1024;

function titleOf(node: ToolNode, category: ToolCategory): Pick<RowView, 'title' | 'name'> {
  if (category === 'generic')
    return { title: node.name || CATEGORY_TITLES.generic, name: undefined };
  const title = CATEGORY_TITLES[category];
  const same = node.name === '' || normalizeToolName(node.name) === normalizeToolName(title);
  return { title, name: same ? undefined : node.name };
}

/** The first line of a prefix, trimmed; undefined when empty. */
function firstLine(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const line = text.trimStart().split('\n', 1)[0]?.trimEnd() ?? '';
  return line === '' ? undefined : line;
}

function prefixOf(node: ToolNode, keys: readonly string[]): string | undefined {
  const key = firstKey(node.args, keys);
  return key === undefined ? undefined : node.args.textPrefix(key, SUMMARY_UNITS);
}

/**
 * A patch's files, from its header lines as they stream (`patchFiles`: only new text is
 * read): the first file as the path, the others as the summary ("2 more: b.ts, c.ts").
 */
function patchHeader(node: ToolNode): Pick<RowView, 'path' | 'morePaths'> {
  const key = firstKey(node.args, argumentFields.patch);
  const patch = key === undefined ? undefined : patchFiles(node.args, key);
  const [first, ...others] = patch?.files ?? [];
  if (!patch || !first) return { path: undefined, morePaths: undefined };
  const more = patch.count - 1;
  return {
    path: first.to ?? first.path,
    morePaths: more === 0 ? undefined : `+ ${patchFileList({ files: others, count: more })}`,
  };
}

function sizeOf(node: ToolNode, lists: readonly (readonly string[])[]): string | undefined {
  const exact = node.args.closed();
  const view = node.incomplete && node.input !== 'text' ? cutArguments(node) : node.args;
  const units = decodedLength(view, lists, exact ? 1 : SIZE_STEP);
  return units === undefined ? undefined : formatKiB(units, exact);
}

/** Cut calls' arguments read as a still open stream, by node. */
const cutViews = new WeakMap<ToolNode, PartialArguments>();

/**
 * A cut call's arguments read as they stood when the response stopped: as a stream that is
 * still open, so a string the cut fell inside reads what arrived of it (its sealed view
 * reads it as undefined: the value never closed). A cut node is final, so this reads its
 * text once.
 */
function cutArguments(node: ToolNode): PartialArguments {
  let view = cutViews.get(node);
  if (view === undefined) {
    view = PartialArguments.streaming();
    if (node.argsRaw !== null) view.append(node.argsRaw);
    cutViews.set(node, view);
  }
  return view;
}

/**
 * The header of a tool row at any stage, read through `node.args` only, each field at the
 * granularity the row shows it: a path once it closes (`complete`, then `text`), sizes in
 * steps of 1024 units while open, descriptions and commands through a bounded prefix.
 *
 * - preparing: identity and what has streamed in: file tools their closed path, write and
 *   edit their content size (edit: old + new, each counted in KiB steps); bash, pwsh and
 *   run_code their description prefix; search, web, todo and question their main field
 *   (the group detail's field priority); a generic tool only its name.
 * - edit with a patch (`input`, `patch`, `diff`; Codex or unified format) and no path field:
 *   the files its header lines name, as they stream: the first as the path, the others
 *   after it.
 * - a free-form (`input: 'text'`) call without a category: the size of its text, and at
 *   start its first line.
 * - start and result: the same, plus a command's or code's first line when there is no
 *   description (a command given as an array, argv or `commands`, as the group detail shows
 *   it: argv joined or a shell wrapper's script, commands joined by `; `), a generic tool's
 *   labelling field, and exact sizes.
 */
export function rowView(node: ToolNode, category: ToolCategory): RowView {
  const { args } = node;
  const preparing = node.stage === 'preparing';
  let path: string | undefined;
  let morePaths: string | undefined;
  let summary: string | undefined;
  let href: string | undefined;
  let size: string | undefined;
  switch (category) {
    case 'read':
    case 'read_image':
      path = closedText(args, argumentFields.path);
      break;
    case 'write':
      path = closedText(args, argumentFields.path);
      size = sizeOf(node, [argumentFields.content]);
      break;
    case 'edit':
      path = closedText(args, argumentFields.path);
      if (
        firstKey(args, argumentFields.oldText) !== undefined ||
        firstKey(args, argumentFields.newText) !== undefined
      ) {
        size = sizeOf(node, [argumentFields.oldText, argumentFields.newText]);
      } else {
        size = sizeOf(node, [argumentFields.patch]);
        if (path === undefined) ({ path, morePaths } = patchHeader(node));
      }
      break;
    case 'bash':
    case 'pwsh':
      summary = prefixOf(node, argumentFields.description);
      // A command given as an array (argv, `commands`) reads as the group detail shows it.
      if (!preparing)
        summary ??= firstLine(prefixOf(node, argumentFields.command)) ?? toolDetail(node, category);
      break;
    case 'run_code':
      summary = prefixOf(node, argumentFields.description);
      if (!preparing) summary ??= firstLine(prefixOf(node, argumentFields.code));
      break;
    case 'web':
      href = httpUrl(closedText(args, argumentFields.url));
      if (href === undefined) summary = toolDetail(node, category);
      break;
    case 'search':
    case 'todo':
    case 'question':
      summary = toolDetail(node, category);
      break;
    case 'generic':
      if (node.input === 'text') {
        size = sizeOf(node, [[TEXT_INPUT]]);
        if (!preparing) summary = firstLine(prefixOf(node, [TEXT_INPUT]));
      } else if (!preparing) summary = toolDetail(node, category);
      break;
    default:
      return category satisfies never;
  }
  const identity = titleOf(node, category);
  if (summary === '' || summary === node.name) summary = undefined;
  return {
    title: visibleText(identity.title),
    name: visibleOptional(identity.name),
    path,
    pathText: visibleOptional(path),
    morePaths: visibleOptional(morePaths),
    summary: visibleOptional(summary),
    href,
    size,
  };
}
