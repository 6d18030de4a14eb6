/** The JSON types a schema can name (JSON Schema draft 2020-12 and draft 7 agree). */
export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null';

/**
 * The subset of JSON Schema that callfold emits and validates: what the OpenAI, Anthropic
 * and AI SDK tool formats accept. Arrays are mutable in the type (never at run time: emitted
 * schemas are frozen) so that a schema is assignable to `JSONSchema7` from `@types/json-schema`,
 * the type the AI SDK's `jsonSchema()` takes.
 */
export interface JsonSchema {
  type?: JsonType | JsonType[];
  description?: string;
  enum?: (string | null)[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  /** Key order is declaration order: models tend to write arguments in `required` order. */
  properties?: { [name: string]: JsonSchema };
  required?: string[];
  additionalProperties?: boolean;
}

/** The schema of a tool's arguments: always an object that admits no undeclared key. */
export interface ObjectJsonSchema extends JsonSchema {
  type: 'object';
  properties: { [name: string]: JsonSchema };
  required: string[];
  additionalProperties: false;
}
