import {
  argumentFields,
  type PartialArguments,
  type ToolCategory,
  type ToolNode,
} from '../../src/index.js';
import { clipAt } from './clip.js';
import { firstKey, scalarText } from './field-text.js';
import { httpUrl } from './http-url.js';
import { isRecord } from './is-record.js';
import type { ToolLabels } from './labels.js';
import { resultView } from './tool-output.js';

/** A text that may be long: its preview, and the whole text on demand when the preview is cut. */
export interface LongText {
  readonly head: string;
  /** Undefined when `head` is the whole text. */
  readonly full: (() => string) | undefined;
}

export interface FieldEntry {
  readonly label: string;
  readonly value: string;
  /** Set only for an http(s) URL. */
  readonly href?: string;
}

/** One part of an expanded row: a block of text, a list of fields, or a todo list. */
export type CallSection =
  | {
      readonly type: 'block';
      /** Stable within the row: which blocks show in full is remembered by id. */
      readonly id: string;
      /** The block's label, from the row's labels. */
      readonly label: string;
      readonly text: LongText;
      readonly tone: 'plain' | 'command' | 'removed' | 'added' | 'error';
    }
  | { readonly type: 'fields'; readonly entries: readonly FieldEntry[] }
  | { readonly type: 'todos'; readonly items: readonly { text: string; status: string }[] };

/** A long text already in memory. */
export function longText(text: string): LongText {
  const cut = clipAt(text);
  return cut === undefined
    ? { head: text, full: undefined }
    : { head: text.slice(0, cut), full: () => text };
}

/**
 * A string field as a long text: a bounded prefix decoded first, the whole field only when
 * asked for ("Show more"), so a 500 KiB `content` is never decoded to draw its preview.
 */
function longField(args: PartialArguments, keys: readonly string[]): LongText | undefined {
  const key = firstKey(args, keys);
  if (key === undefined) return undefined;
  const head = args.textPrefix(key, 4001);
  if (head === undefined) return undefined;
  const cut = clipAt(head);
  if (cut === undefined) return { head, full: undefined };
  return { head: head.slice(0, cut), full: () => args.text(key) ?? head };
}

/** The parts of a complete array field as text (strings as they are), joined; else undefined. */
function joinedArray(args: PartialArguments, key: string, separator: string): LongText | undefined {
  const parts = args.value(key);
  if (!Array.isArray(parts)) return undefined;
  return longText(
    parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join(separator),
  );
}

/**
 * A command given as a string, as argv (`["bash", "-lc", "ls"]`, joined by spaces) once
 * complete, or as a list of commands run one after another (`commands`, one a line).
 */
function commandText(args: PartialArguments): LongText | undefined {
  const key = firstKey(args, argumentFields.command);
  if (key !== undefined)
    return args.kind(key) === 'array' ? joinedArray(args, key, ' ') : longField(args, [key]);
  const list = firstKey(args, argumentFields.commands);
  return list === undefined || args.kind(list) !== 'array'
    ? undefined
    : joinedArray(args, list, '\n');
}

function fields(args: PartialArguments, keys: readonly string[]): FieldEntry[] {
  const entries: FieldEntry[] = [];
  for (const key of keys) {
    const value = scalarText(args, key);
    if (value !== undefined && value !== '') entries.push({ label: key, value });
  }
  return entries;
}

function stringIn(record: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = Object.hasOwn(record, key) ? record[key] : undefined;
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

function arrayIn(record: Record<string, unknown>, keys: readonly string[]): readonly unknown[] {
  for (const key of keys) {
    const value = Object.hasOwn(record, key) ? record[key] : undefined;
    if (Array.isArray(value)) return value;
  }
  return [];
}

function todoItems(args: PartialArguments): CallSection | undefined {
  const key = firstKey(args, argumentFields.todos);
  const value = key === undefined ? undefined : args.value(key);
  if (!Array.isArray(value)) return undefined;
  const items = value.filter(isRecord).map((item) => ({
    text: stringIn(item, argumentFields.todoText) ?? '',
    status: (stringIn(item, argumentFields.todoStatus) ?? 'pending')
      .toLowerCase()
      .replace('-', '_'),
  }));
  return { type: 'todos', items };
}

function questionFields(args: PartialArguments): FieldEntry[] {
  const entries = fields(args, argumentFields.question);
  const key = firstKey(args, argumentFields.questions);
  const questions = key !== undefined && args.kind(key) === 'array' ? args.value(key) : undefined;
  if (!Array.isArray(questions)) return entries;
  for (const question of questions.filter(isRecord)) {
    const text = stringIn(question, argumentFields.questionText);
    if (text !== undefined) entries.push({ label: 'question', value: text });
    const options = arrayIn(question, argumentFields.options);
    const labels = options
      .map((option) =>
        typeof option === 'string'
          ? option
          : isRecord(option)
            ? stringIn(option, argumentFields.optionLabel)
            : undefined,
      )
      .filter((label): label is string => label !== undefined);
    if (labels.length > 0) entries.push({ label: 'options', value: labels.join(' · ') });
  }
  return entries;
}

function webFields(args: PartialArguments): FieldEntry[] {
  const entries: FieldEntry[] = [];
  const key = firstKey(args, argumentFields.url);
  const url = key === undefined ? undefined : scalarText(args, key);
  if (url !== undefined) {
    const href = httpUrl(url);
    entries.push(
      href === undefined ? { label: 'url', value: url } : { label: 'url', value: url, href },
    );
  }
  return [...entries, ...fields(args, argumentFields.webOptions)];
}

function block(
  id: string,
  label: string,
  text: LongText | undefined,
  tone: Extract<CallSection, { type: 'block' }>['tone'] = 'plain',
): CallSection[] {
  return text === undefined ? [] : [{ type: 'block', id, label, text, tone }];
}

function fieldSection(entries: FieldEntry[]): CallSection[] {
  return entries.length === 0 ? [] : [{ type: 'fields', entries }];
}

/** The call's own presentation, by category (start and result stages). */
function callSections(node: ToolNode, category: ToolCategory, labels: ToolLabels): CallSection[] {
  const { args } = node;
  const label = labels.block;
  switch (category) {
    case 'read':
    case 'read_image':
      return fieldSection(fields(args, argumentFields.range));
    case 'write':
      return block('content', label.content, longField(args, argumentFields.content));
    case 'edit':
      return [
        ...block('old', label.replace, longField(args, argumentFields.oldText), 'removed'),
        ...block('new', label.with, longField(args, argumentFields.newText), 'added'),
        ...(firstKey(args, argumentFields.oldText) === undefined &&
        firstKey(args, argumentFields.newText) === undefined
          ? block('patch', label.patch, longField(args, argumentFields.patch))
          : []),
      ];
    case 'bash':
    case 'pwsh':
      return block('command', label.command, commandText(args), 'command');
    case 'run_code': {
      const language = firstKey(args, argumentFields.language);
      const code =
        language === undefined ? label.code : labels.codeIn(scalarText(args, language) ?? '');
      return block('code', code, longField(args, argumentFields.code));
    }
    case 'search':
      return fieldSection(fields(args, argumentFields.searchOptions));
    case 'web':
      return fieldSection(webFields(args));
    case 'todo': {
      const todos = todoItems(args);
      return todos ? [todos] : [];
    }
    case 'question':
      return fieldSection(questionFields(args));
    case 'generic':
      // The reader has no key enumeration; the argument text is shown as text, never parsed.
      return block(
        'arguments',
        node.input === 'text' ? label.input : label.arguments,
        node.argsRaw === null ? undefined : longText(node.argsRaw),
      );
    default:
      return category satisfies never;
  }
}

/**
 * What an expanded row shows: the call's own presentation, then the result's output (an
 * error in error tone). Never called for a preparing row, which cannot expand.
 */
export function bodySections(
  node: ToolNode,
  category: ToolCategory,
  labels: ToolLabels,
): CallSection[] {
  const sections = callSections(node, category, labels);
  // A denied call never shows a result, even one a host recorded by mistake.
  if (node.result && node.approval?.state !== 'denied') {
    const { text } = resultView(node.result, labels.outputNotShown);
    const label = node.result.isError ? labels.block.error : labels.block.output;
    sections.push(
      ...block('output', label, longText(text), node.result.isError ? 'error' : 'plain'),
    );
  }
  return sections;
}
