import { expect } from 'chai';
import { defineTool, type ToolArguments } from '../../src/schema/define-tool.js';
import {
  type AISDKValidation,
  toAISDKTool,
  toAnthropicTool,
  toOpenAIChatTool,
  toOpenAIResponsesTool,
} from '../../src/schema/formats.js';
import { param } from '../../src/schema/parameters.js';
import { validateArguments } from '../../src/schema/validate.js';
import { describe, it } from '../harness.js';

const edit = defineTool({
  name: 'edit',
  description: 'Replace text.',
  parameters: {
    file_path: param.string('Path.'),
    old_string: param.string(),
    new_string: param.string(),
    replace_all: param.boolean().optional(),
    mode: param.enum(['exact', 'fuzzy']).optional(),
  },
});

const schemaText =
  '{"type":"object","properties":{"file_path":{"type":"string","description":"Path."},"old_string":{"type":"string"},"new_string":{"type":"string"},"replace_all":{"type":"boolean"},"mode":{"type":"string","enum":["exact","fuzzy"]}},"required":["file_path","old_string","new_string"],"additionalProperties":false}';

describe('provider formats', () => {
  it('OpenAI Chat Completions: { type: "function", function: { name, description, parameters } }', () => {
    expect(JSON.stringify(toOpenAIChatTool(edit))).to.equal(
      `{"type":"function","function":{"name":"edit","description":"Replace text.","parameters":${schemaText}}}`,
    );
  });

  it('OpenAI Responses: flat, with strict sent as false (the API defaults it to true)', () => {
    expect(JSON.stringify(toOpenAIResponsesTool(edit))).to.equal(
      `{"type":"function","name":"edit","description":"Replace text.","parameters":${schemaText},"strict":false}`,
    );
  });

  it('Anthropic: { name, description, input_schema }', () => {
    expect(JSON.stringify(toAnthropicTool(edit))).to.equal(
      `{"name":"edit","description":"Replace text.","input_schema":${schemaText}}`,
    );
  });

  it('share the frozen schema instead of copying it', () => {
    expect(toAnthropicTool(edit).input_schema).to.equal(edit.jsonSchema);
    expect(toOpenAIChatTool(edit).function.parameters).to.equal(edit.jsonSchema);
  });

  it('OpenAI strict mode: every parameter required in declaration order, optional ones nullable', () => {
    const strict = toOpenAIChatTool(edit, { strict: true });
    expect(strict.function.strict).to.equal(true);
    expect(JSON.stringify(strict.function.parameters)).to.equal(
      '{"type":"object","properties":{"file_path":{"type":"string","description":"Path."},"old_string":{"type":"string"},"new_string":{"type":"string"},"replace_all":{"type":["boolean","null"]},"mode":{"type":["string","null"],"enum":["exact","fuzzy",null]}},"required":["file_path","old_string","new_string","replace_all","mode"],"additionalProperties":false}',
    );
    const responses = toOpenAIResponsesTool(edit, { strict: true });
    expect(responses.strict).to.equal(true);
    expect(responses.parameters).to.equal(strict.function.parameters);
    expect(Object.isFrozen(responses.parameters.properties)).to.equal(true);
    expect(edit.jsonSchema.required).to.deep.equal(['file_path', 'old_string', 'new_string']);
  });

  it('strict mode rewrites nested objects too, and its nulls validate with nullAsAbsent', () => {
    const plan = defineTool({
      name: 'plan',
      description: '',
      parameters: {
        steps: param.array(
          param.object({ title: param.string(), owner: param.string().optional() }),
        ),
      },
    });
    const strict = toOpenAIChatTool(plan, { strict: true }).function.parameters;
    expect(JSON.stringify(strict.properties.steps)).to.equal(
      '{"type":"array","items":{"type":"object","properties":{"title":{"type":"string"},"owner":{"type":["string","null"]}},"required":["title","owner"],"additionalProperties":false}}',
    );
    const sent = { steps: [{ title: 'a', owner: null }] };
    const result = validateArguments(plan, sent, { nullAsAbsent: true });
    expect(result.ok && JSON.stringify(result.value)).to.equal('{"steps":[{"title":"a"}]}');
  });
});

// The shape of `jsonSchema` from the `ai` package and of JSONSchema7 (@types/json-schema),
// reduced to what matters for assignability: mutable arrays, a generic validated type.
type JSONSchema7TypeName =
  | 'string'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'object'
  | 'array'
  | 'null';
type JSONSchema7Definition = JSONSchema7 | boolean;
interface JSONSchema7 {
  type?: JSONSchema7TypeName | JSONSchema7TypeName[];
  enum?: (string | number | boolean | null)[];
  description?: string;
  properties?: { [key: string]: JSONSchema7Definition };
  required?: string[];
  additionalProperties?: JSONSchema7Definition;
  items?: JSONSchema7Definition | JSONSchema7Definition[];
}
type ValidationResult<T> = { success: true; value: T } | { success: false; error: Error };
interface Schema<T> {
  readonly jsonSchema: JSONSchema7;
  readonly validate?: (value: unknown) => ValidationResult<T> | PromiseLike<ValidationResult<T>>;
  readonly _type?: T;
}
function jsonSchema<OBJECT = unknown>(
  schema: JSONSchema7,
  options?: {
    validate?: (value: unknown) => ValidationResult<OBJECT> | PromiseLike<ValidationResult<OBJECT>>;
  },
): Schema<OBJECT> {
  return options?.validate === undefined
    ? { jsonSchema: schema }
    : { jsonSchema: schema, validate: options.validate };
}

describe('toAISDKTool', () => {
  it('makes { description, inputSchema } with the AI SDK jsonSchema(), validating with callfold', () => {
    const tool = toAISDKTool(edit, jsonSchema);
    expect(tool.description).to.equal('Replace text.');
    expect(tool.inputSchema.jsonSchema).to.equal(edit.jsonSchema);
    const typed: Schema<ToolArguments<typeof edit>> = tool.inputSchema;
    const good = typed.validate?.({
      file_path: '/a',
      old_string: 'x',
      new_string: 'y',
    }) as AISDKValidation<unknown>;
    expect(good.success).to.equal(true);
    const bad = typed.validate?.({ file_path: 1, old_string: 'x' }) as AISDKValidation<unknown>;
    expect(bad.success).to.equal(false);
    if (!bad.success) {
      expect(bad.error.message).to.equal(
        'invalid arguments for edit: file_path: expected a string, got 1; new_string: is required',
      );
    }
  });
});
