import { deepFreeze } from '../internal/deep-freeze.js';
import type { ToolArguments, ToolSchema } from './define-tool.js';
import type { JsonSchema, JsonType, ObjectJsonSchema } from './json-schema.js';
import { validateArguments } from './validate.js';

/** What the provider formats read from a tool: a `ToolSchema`, or any tool written by hand. */
export type ToolLike = Pick<ToolSchema, 'name' | 'description' | 'jsonSchema'>;

/** A tool in the OpenAI Chat Completions `tools` array. */
export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: ObjectJsonSchema; strict?: boolean };
}

/** A function tool in the OpenAI Responses API `tools` array. */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description: string;
  parameters: ObjectJsonSchema;
  strict: boolean;
}

/** A client tool in the Anthropic Messages API `tools` array. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: ObjectJsonSchema;
}

export interface OpenAIToolOptions {
  /**
   * Structured Outputs: the schema is rewritten the way OpenAI strict mode requires: every
   * parameter required (still in declaration order), an optional one nullable. Strict
   * decoding writes keys in schema order, so the label field comes first by construction.
   * Validate the arguments with `{ nullAsAbsent: true }`.
   */
  readonly strict?: boolean;
}

/** `{ type: 'function', function: { name, description, parameters } }`. */
export function toOpenAIChatTool(tool: ToolLike, options: OpenAIToolOptions = {}): OpenAIChatTool {
  const fn: OpenAIChatTool['function'] = {
    name: tool.name,
    description: tool.description,
    parameters: options.strict ? strictSchema(tool.jsonSchema) : tool.jsonSchema,
  };
  if (options.strict) fn.strict = true;
  return { type: 'function', function: fn };
}

/**
 * `{ type: 'function', name, description, parameters, strict }`. The Responses API makes
 * `strict` default to true, which rejects optional parameters, so it is always sent:
 * `false` unless `{ strict: true }`.
 */
export function toOpenAIResponsesTool(
  tool: ToolLike,
  options: OpenAIToolOptions = {},
): OpenAIResponsesTool {
  const strict = options.strict === true;
  return {
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: strict ? strictSchema(tool.jsonSchema) : tool.jsonSchema,
    strict,
  };
}

/** `{ name, description, input_schema }`. */
export function toAnthropicTool(tool: ToolLike): AnthropicTool {
  return { name: tool.name, description: tool.description, input_schema: tool.jsonSchema };
}

/** What the AI SDK's `jsonSchema(schema, { validate })` expects from `validate`. */
export type AISDKValidation<T> = { success: true; value: T } | { success: false; error: Error };

/**
 * A tool for the Vercel AI SDK (v5 and later): `{ description, inputSchema }`, where
 * `inputSchema` is made by the `jsonSchema` function you pass from the `ai` package (callfold
 * does not depend on it) and validates with `validateArguments`.
 *
 * @example
 * ```ts
 * import { jsonSchema, tool } from 'ai';
 * const tools = { bash: tool({ ...toAISDKTool(builtinTools.bash, jsonSchema), execute }) };
 * ```
 */
export function toAISDKTool<T extends ToolSchema, S>(
  tool: T,
  jsonSchema: (
    schema: ObjectJsonSchema,
    options: { validate: (value: unknown) => AISDKValidation<ToolArguments<T>> },
  ) => S,
): { description: string; inputSchema: S } {
  const validate = (value: unknown): AISDKValidation<ToolArguments<T>> => {
    const result = validateArguments(tool, value);
    if (result.ok) return { success: true, value: result.value };
    const detail = result.issues.map((issue) => `${issue.at}: ${issue.message}`).join('; ');
    return {
      success: false,
      error: new TypeError(`invalid arguments for ${tool.name}: ${detail}`),
    };
  };
  return { description: tool.description, inputSchema: jsonSchema(tool.jsonSchema, { validate }) };
}

const strictCache = new WeakMap<JsonSchema, ObjectJsonSchema>();

/** Every property required (declaration order kept); the optional ones also accept null. */
function strictSchema(schema: ObjectJsonSchema): ObjectJsonSchema {
  let strict = strictCache.get(schema);
  if (strict === undefined) {
    strict = deepFreeze(rewrite(schema) as ObjectJsonSchema);
    strictCache.set(schema, strict);
  }
  return strict;
}

function rewrite(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...schema };
  if (schema.items !== undefined) out.items = rewrite(schema.items);
  if (schema.properties !== undefined) {
    const required = new Set(schema.required);
    const properties: { [name: string]: JsonSchema } = {};
    for (const [name, inner] of Object.entries(schema.properties)) {
      const rewritten = rewrite(inner);
      Object.defineProperty(properties, name, {
        value: required.has(name) ? rewritten : nullable(rewritten),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    out.properties = properties;
    out.required = Object.keys(properties);
  }
  return out;
}

function nullable(schema: JsonSchema): JsonSchema {
  const types: JsonType[] = Array.isArray(schema.type)
    ? schema.type
    : schema.type === undefined
      ? []
      : [schema.type];
  const out: JsonSchema = { ...schema };
  if (types.length > 0 && !types.includes('null')) out.type = [...types, 'null'];
  if (schema.enum !== undefined && !schema.enum.includes(null)) out.enum = [...schema.enum, null];
  return out;
}
