import { expect } from 'chai';
import { builtinTools, orderingSentence, runCodeTool } from '../../src/schema/builtin-tools.js';
import {
  toAnthropicTool,
  toOpenAIChatTool,
  toOpenAIResponsesTool,
} from '../../src/schema/formats.js';
import { validateArguments } from '../../src/schema/validate.js';
import { describe, it } from '../harness.js';
import { builtinSnapshot } from './builtin-tools.snapshot.js';

const orders = {
  bash: ['description', 'command', 'timeout'],
  pwsh: ['description', 'command', 'timeout'],
  run_code: ['description', 'language', 'code'],
  write: ['file_path', 'content'],
  edit: ['file_path', 'old_string', 'new_string', 'replace_all'],
  read: ['file_path', 'offset', 'limit'],
} as const;

const required = {
  bash: ['description', 'command'],
  pwsh: ['description', 'command'],
  run_code: ['description', 'language', 'code'],
  write: ['file_path', 'content'],
  edit: ['file_path', 'old_string', 'new_string'],
  read: ['file_path'],
} as const;

const sentences = {
  bash: ['description', 'Provide description before command in the arguments.'],
  pwsh: ['description', 'Provide description before command in the arguments.'],
  run_code: ['description', 'Provide description before code in the arguments.'],
  write: ['file_path', 'Provide file_path before content in the arguments.'],
  edit: ['file_path', 'Provide file_path before old_string and new_string in the arguments.'],
} as const;

describe('builtinTools', () => {
  it('holds bash, pwsh, run_code, write, edit and read, named as their keys', () => {
    expect(Object.keys(builtinTools)).to.deep.equal([
      'bash',
      'pwsh',
      'run_code',
      'write',
      'edit',
      'read',
    ]);
    for (const [name, tool] of Object.entries(builtinTools)) expect(tool.name).to.equal(name);
  });

  it('declares the label field first, in properties and in required', () => {
    for (const [name, tool] of Object.entries(builtinTools)) {
      const key = name as keyof typeof orders;
      expect(Object.keys(tool.jsonSchema.properties), name).to.deep.equal(orders[key]);
      expect(tool.jsonSchema.required, name).to.deep.equal(required[key]);
      expect(tool.jsonSchema.additionalProperties).to.equal(false);
    }
  });

  it('ends the label parameter description with the ordering sentence', () => {
    for (const [name, [label, sentence]] of Object.entries(sentences)) {
      const tool = builtinTools[name as keyof typeof sentences];
      const description = tool.jsonSchema.properties[label]?.description ?? '';
      expect(description.endsWith(` ${sentence}`), `${name}: ${description}`).to.equal(true);
    }
    const read = builtinTools.read.jsonSchema.properties.file_path?.description ?? '';
    expect(read).not.to.match(/Provide/);
  });

  it('run_code for one language keeps description before code and shares the sentence', () => {
    for (const language of ['typescript', 'python'] as const) {
      const tool = runCodeTool(language);
      expect(tool.name).to.equal('run_code');
      expect(Object.keys(tool.jsonSchema.properties)).to.deep.equal(['description', 'code']);
      expect(tool.jsonSchema.required).to.deep.equal(['description', 'code']);
      expect(tool.jsonSchema.properties.description).to.equal(
        builtinTools.run_code.jsonSchema.properties.description,
      );
    }
    expect(runCodeTool('python').description).to.match(/Python/);
  });

  it('validates calls in the shape they describe', () => {
    const call = { description: 'List files', command: 'ls -la', timeout: 5000 };
    expect(validateArguments(builtinTools.bash, call).ok).to.equal(true);
    expect(
      validateArguments(builtinTools.run_code, { description: 'x', language: 'ruby', code: '' }).ok,
    ).to.equal(false);
  });

  it('emit the snapshot in every provider format', () => {
    const emitted = Object.values(builtinTools).map((tool) => ({
      openaiChat: toOpenAIChatTool(tool),
      openaiResponses: toOpenAIResponsesTool(tool),
      anthropic: toAnthropicTool(tool),
    }));
    expect(JSON.stringify(emitted, null, 2)).to.equal(builtinSnapshot);
  });
});

describe('orderingSentence', () => {
  it('asks for one argument before the others', () => {
    expect(orderingSentence('description', 'command')).to.equal(
      'Provide description before command in the arguments.',
    );
    expect(orderingSentence('file_path', 'old_string', 'new_string')).to.equal(
      'Provide file_path before old_string and new_string in the arguments.',
    );
    expect(orderingSentence('a', 'b', 'c', 'd')).to.equal(
      'Provide a before b, c and d in the arguments.',
    );
  });
});
