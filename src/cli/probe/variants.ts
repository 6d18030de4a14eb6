import { deepFreeze } from '../../internal/deep-freeze.js';
import { type BuiltinToolName, builtinTools } from '../../schema/builtin-tools.js';
import type { ToolSchema } from '../../schema/define-tool.js';
import type { ToolLike } from '../../schema/formats.js';
import type { JsonSchema, ObjectJsonSchema } from '../../schema/json-schema.js';

/** The schema variants of decision record 0002's experiment, in its table's order (`docs/decisions/0002-lazy-arguments-and-argument-order.md`). */
export const variantNames = ['baseline', 'properties', 'required', 'sentence'] as const;
export type VariantName = (typeof variantNames)[number];

/** Row titles and what each variant changes, as the seed's table words them. */
export const variantRows: Readonly<Record<VariantName, { title: string; change: string }>> = {
  baseline: { title: 'Baseline', change: '—' },
  properties: { title: 'properties order only', change: 'label field moved first in properties' },
  required: { title: 'properties + required', change: 'same, and required reordered with it' },
  sentence: { title: '+ ordering sentence', change: 'appends the ordering sentence to the label' },
};

/** The field a row shows first, per built-in tool: a hit is a call whose first key is it. */
export const labelFields: Readonly<Record<BuiltinToolName, string>> = {
  bash: 'description',
  pwsh: 'description',
  run_code: 'description',
  write: 'file_path',
  edit: 'file_path',
  read: 'file_path',
};

/** A task that makes a coding agent reach for the tool, with a minimal system prompt. */
export const probeSystem =
  'You are a coding agent working in a Linux workspace. Use the tool you are given to do the task.';

export const probePrompts: Readonly<Record<BuiltinToolName, string>> = {
  bash: 'List the five largest files under the current directory, largest first.',
  pwsh: 'Using PowerShell, list the five largest files under the current directory, largest first.',
  run_code: 'Compute the 40th Fibonacci number by running a short program.',
  write:
    'Create the file /tmp/callfold-probe/notes.md with three lines explaining what a tool call is.',
  edit: 'In /tmp/callfold-probe/app.py, rename the function load to load_config; it is defined as `def load(path):` and called once as `load(CONFIG)`.',
  read: 'Show me what is in /tmp/callfold-probe/README.md.',
};

const sentencePattern = /\s*Provide \S+ before [^.]+ in the arguments\.$/;

/**
 * One tool's schema as a variant sends it:
 * - `sentence`: the tool as defined (label first in `properties` and `required`, the
 *   ordering sentence ending the label's description);
 * - `required`: the same without the sentence;
 * - `properties`: label first in `properties` only; `required` as in the baseline;
 * - `baseline`: the label field moved after the last required parameter in both lists.
 * Every other parameter keeps its relative order.
 */
export function variantTool(tool: ToolSchema, label: string, variant: VariantName): ToolLike {
  if (variant === 'sentence') return tool;
  const schema = tool.jsonSchema;
  const labelled = Object.keys(schema.properties);
  const baseline = moveAfterRequired(labelled, schema.required, label);
  const propertyOrder = variant === 'baseline' ? baseline : labelled;
  const properties: { [name: string]: JsonSchema } = {};
  for (const name of propertyOrder) {
    let inner = schema.properties[name] as JsonSchema;
    if (name === label && inner.description !== undefined) {
      inner = { ...inner, description: inner.description.replace(sentencePattern, '') };
    }
    Object.defineProperty(properties, name, { value: inner, enumerable: true, writable: true });
  }
  const required =
    variant === 'required'
      ? [...schema.required]
      : baseline.filter((n) => schema.required.includes(n));
  const jsonSchema: ObjectJsonSchema = { ...schema, properties, required };
  return { name: tool.name, description: tool.description, jsonSchema: deepFreeze(jsonSchema) };
}

/** `order` with `label` moved to just after the last required name (unchanged if it is last). */
function moveAfterRequired(order: readonly string[], required: readonly string[], label: string) {
  const rest = order.filter((name) => name !== label);
  let at = 0;
  rest.forEach((name, index) => {
    if (required.includes(name)) at = index + 1;
  });
  return [...rest.slice(0, at), label, ...rest.slice(at)];
}

export function builtinVariant(name: BuiltinToolName, variant: VariantName): ToolLike {
  return variantTool(builtinTools[name], labelFields[name], variant);
}
