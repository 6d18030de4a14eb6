import { deepFreeze } from '../internal/deep-freeze.js';
import type { JsonSchema, JsonType, ObjectJsonSchema } from './json-schema.js';

declare const valueType: unique symbol;

export type ParameterKind =
  | 'string'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'enum'
  | 'array'
  | 'object';

/**
 * One declared parameter: its emitted JSON Schema and, at the type level, the TypeScript
 * type of its argument. Made by the `param` builders; immutable (`optional()` returns a new
 * parameter).
 */
export interface Parameter<T = unknown, Optional extends boolean = boolean> {
  readonly kind: ParameterKind;
  /** Whether the argument may be omitted; an optional parameter is left out of `required`. */
  readonly isOptional: Optional;
  /** The parameter's schema, frozen. */
  readonly jsonSchema: JsonSchema;
  /** The same parameter, optional. */
  optional(): Parameter<T, true>;
  /** Type-level only: the argument's type. Never present at run time. */
  readonly [valueType]?: T;
}

/** Parameters by name, in declaration order. */
export type ParameterMap = { readonly [name: string]: Parameter };

/** The TypeScript type of one parameter's argument. */
export type ValueOf<P> = P extends Parameter<infer T, boolean> ? T : never;

type RequiredNames<P extends ParameterMap> = {
  [K in keyof P]: P[K]['isOptional'] extends true ? never : K;
}[keyof P];
type OptionalNames<P extends ParameterMap> = Exclude<keyof P, RequiredNames<P>>;
type Flatten<T> = { [K in keyof T]: T[K] } & {};

/** The TypeScript type of the arguments object that a parameter map describes. */
export type ArgumentsOf<P extends ParameterMap> = Flatten<
  { [K in RequiredNames<P>]: ValueOf<P[K]> } & { [K in OptionalNames<P>]?: ValueOf<P[K]> }
>;

export interface Described {
  /** Shown to the model: say what the argument is for, and when order matters, say so. */
  readonly description?: string;
}
export interface StringOptions extends Described {
  readonly minLength?: number;
  readonly maxLength?: number;
  /** An ECMAScript regular expression the whole string must match somewhere (unanchored). */
  readonly pattern?: string;
}
export interface NumberOptions extends Described {
  readonly minimum?: number;
  readonly maximum?: number;
}
export interface ArrayOptions extends Described {
  readonly minItems?: number;
  readonly maxItems?: number;
}

/** Options, or just the description. */
export type OptionsOrDescription<O> = O | string;

function optionsOf<O extends Described>(options: OptionsOrDescription<O> | undefined): O {
  if (typeof options === 'string') return { description: options } as O;
  return options ?? ({} as O);
}

/** Copies the options that are set, in a fixed key order after `type` and `description`. */
function schemaOf(
  type: JsonType,
  options: Described,
  keys: readonly string[],
  extra?: JsonSchema,
): JsonSchema {
  const schema: JsonSchema = { type };
  if (options.description !== undefined) schema.description = options.description;
  Object.assign(schema, extra);
  const source = options as Record<string, unknown>;
  for (const key of keys) {
    if (source[key] !== undefined) (schema as Record<string, unknown>)[key] = source[key];
  }
  return schema;
}

function make<T>(
  kind: ParameterKind,
  schema: JsonSchema,
  isOptional: boolean,
): Parameter<T, false> {
  const jsonSchema = deepFreeze(schema);
  return Object.freeze({
    kind,
    isOptional,
    jsonSchema,
    optional: () => make<T>(kind, jsonSchema, true),
  }) as unknown as Parameter<T, false>;
}

/** JavaScript enumerates array-index keys before all others, whatever the declaration order. */
const arrayIndex = /^(?:0|[1-9]\d{0,9})$/;

/**
 * The object schema of a parameter map: `properties` and `required` in declaration order
 * (optional parameters left out of `required`) and `additionalProperties: false`.
 *
 * Throws a TypeError for a name that is an array index ("0", "12"): JavaScript would
 * enumerate it first, so its declaration order could not be kept.
 */
export function objectSchema(parameters: ParameterMap, description?: string): ObjectJsonSchema {
  const properties: { [name: string]: JsonSchema } = {};
  const required: string[] = [];
  for (const [name, parameter] of Object.entries(parameters)) {
    if (arrayIndex.test(name) && Number(name) < 2 ** 32 - 1) {
      throw new TypeError(
        `parameter "${name}" is an array index: JavaScript lists such keys first, so its declaration order cannot be kept`,
      );
    }
    Object.defineProperty(properties, name, {
      value: parameter.jsonSchema,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    if (!parameter.isOptional) required.push(name);
  }
  const schema: ObjectJsonSchema =
    description === undefined
      ? { type: 'object', properties, required, additionalProperties: false }
      : { type: 'object', description, properties, required, additionalProperties: false };
  return deepFreeze(schema);
}

/** The type of `param`: one builder per JSON Schema kind. */
export interface ParameterBuilders {
  string(options?: OptionsOrDescription<StringOptions>): Parameter<string, false>;
  number(options?: OptionsOrDescription<NumberOptions>): Parameter<number, false>;
  integer(options?: OptionsOrDescription<NumberOptions>): Parameter<number, false>;
  boolean(options?: OptionsOrDescription<Described>): Parameter<boolean, false>;
  /** One of the given strings, e.g. `param.enum(['typescript', 'python'])`. */
  enum<const V extends readonly [string, ...string[]]>(
    values: V,
    options?: OptionsOrDescription<Described>,
  ): Parameter<V[number], false>;
  /** An array whose items all match `items` (a required parameter: items cannot be absent). */
  array<I extends Parameter<unknown, false>>(
    items: I,
    options?: OptionsOrDescription<ArrayOptions>,
  ): Parameter<ValueOf<I>[], false>;
  /** A nested object, with the same ordering rules as a tool's parameters. */
  object<P extends ParameterMap>(
    properties: P,
    options?: OptionsOrDescription<Described>,
  ): Parameter<ArgumentsOf<P>, false>;
}

/**
 * Parameter builders. Declare a tool's parameters in the order the model should write them;
 * `defineTool` emits `properties` and `required` in that order.
 *
 * @example
 * ```ts
 * const parameters = {
 *   description: param.string('What the command does, in a few words.'),
 *   command: param.string('The command to run.'),
 *   timeout: param.integer({ description: 'Milliseconds.', minimum: 1 }).optional(),
 * };
 * ```
 */
export const param: ParameterBuilders = Object.freeze({
  string(options?: OptionsOrDescription<StringOptions>): Parameter<string, false> {
    const o = optionsOf(options);
    return make('string', schemaOf('string', o, ['minLength', 'maxLength', 'pattern']), false);
  },

  number(options?: OptionsOrDescription<NumberOptions>): Parameter<number, false> {
    return make('number', schemaOf('number', optionsOf(options), ['minimum', 'maximum']), false);
  },

  integer(options?: OptionsOrDescription<NumberOptions>): Parameter<number, false> {
    return make('integer', schemaOf('integer', optionsOf(options), ['minimum', 'maximum']), false);
  },

  boolean(options?: OptionsOrDescription<Described>): Parameter<boolean, false> {
    return make('boolean', schemaOf('boolean', optionsOf(options), []), false);
  },

  /** One of the given strings, e.g. `param.enum(['typescript', 'python'])`. */
  enum<const V extends readonly [string, ...string[]]>(
    values: V,
    options?: OptionsOrDescription<Described>,
  ): Parameter<V[number], false> {
    if (values.length === 0 || new Set(values).size !== values.length) {
      throw new TypeError('an enum needs at least one value and no value twice');
    }
    return make('enum', schemaOf('string', optionsOf(options), [], { enum: [...values] }), false);
  },

  /** An array whose items all match `items` (a required parameter: items cannot be absent). */
  array<I extends Parameter<unknown, false>>(
    items: I,
    options?: OptionsOrDescription<ArrayOptions>,
  ): Parameter<ValueOf<I>[], false> {
    const o = optionsOf(options);
    return make(
      'array',
      schemaOf('array', o, ['minItems', 'maxItems'], { items: items.jsonSchema }),
      false,
    );
  },

  /** A nested object, with the same ordering rules as a tool's parameters. */
  object<P extends ParameterMap>(
    properties: P,
    options?: OptionsOrDescription<Described>,
  ): Parameter<ArgumentsOf<P>, false> {
    return make('object', objectSchema(properties, optionsOf(options).description), false);
  },
});
