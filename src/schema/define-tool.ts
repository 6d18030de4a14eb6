import type { ObjectJsonSchema } from './json-schema.js';
import { type ArgumentsOf, objectSchema, type ParameterMap } from './parameters.js';

declare const argumentsType: unique symbol;

/**
 * A tool's name, description and parameters, with the JSON Schema of its arguments.
 *
 * Invariants:
 * 1. `jsonSchema.properties` and `jsonSchema.required` follow the declaration order of
 *    `parameters`; optional parameters are left out of `required`. Models tend to write
 *    arguments in `required` order, so the field a UI shows first (a description, a path)
 *    is declared first.
 * 2. Every object, the arguments and any nested one, has `additionalProperties: false`.
 * 3. The tool and its schema are frozen.
 */
export interface ToolSchema<P extends ParameterMap = ParameterMap> {
  readonly name: string;
  readonly description: string;
  readonly parameters: P;
  readonly jsonSchema: ObjectJsonSchema;
  /** Type-level only: the arguments' type (see `ToolArguments`). Never present at run time. */
  readonly [argumentsType]?: ArgumentsOf<P>;
}

/** The TypeScript type of a tool's arguments: `ToolArguments<typeof bash>`. */
export type ToolArguments<T extends ToolSchema> =
  T extends ToolSchema<infer P> ? ArgumentsOf<P> : never;

/** What every provider accepts: OpenAI and Anthropic both allow `^[a-zA-Z0-9_-]{1,64}$`. */
const toolName = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Defines a tool. Declare parameters in the order the model should write them.
 *
 * Throws a TypeError for a name providers would reject (letters, digits, `_` and `-`, at most
 * 64), or for a parameter named like an array index (its order could not be kept).
 *
 * @example
 * ```ts
 * const bash = defineTool({
 *   name: 'bash',
 *   description: 'Run a command in bash.',
 *   parameters: {
 *     description: param.string('What the command does. Provide description before command in the arguments.'),
 *     command: param.string('The command to run.'),
 *   },
 * });
 * bash.jsonSchema.required; // ['description', 'command']
 * type BashArguments = ToolArguments<typeof bash>; // { description: string; command: string }
 * ```
 */
export function defineTool<P extends ParameterMap>(definition: {
  readonly name: string;
  readonly description: string;
  readonly parameters: P;
}): ToolSchema<P> {
  const { name, description, parameters } = definition;
  if (!toolName.test(name)) {
    throw new TypeError(
      `tool name ${JSON.stringify(name)} is not 1–64 letters, digits, "_" or "-" (what providers accept)`,
    );
  }
  return Object.freeze({
    name,
    description,
    parameters: Object.freeze({ ...parameters }),
    jsonSchema: objectSchema(parameters),
  });
}
