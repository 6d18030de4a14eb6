/**
 * The `definitions` option (AssemblerOptions) takes the library's own Definitions and custom
 * ones, and folds like the default.
 *
 * This file is also a type test: it must compile without casts.
 */
import { expect } from 'chai';
import { Assembler } from '../../src/conversation/assembler.js';
import { assistantDefinition } from '../../src/definitions/assistant-definition.js';
import { toolDefinition } from '../../src/definitions/tool-definition.js';
import { describe, it } from '../harness.js';
import { project } from './support/driver.js';
import { call, message, NOW, outline, result, textDelta, toolDelta } from './support/events.js';
import { observer } from './support/recording.js';

describe('the definitions option', () => {
  it('accepts the built-in Definitions and a custom one without casts, and folds like the default', () => {
    const events = [
      textDelta('a1', 0, 'Hi.'),
      toolDelta('a1', 1, 'c1', '{"x":1}', 'read'),
      message(1, 'a1', [{ type: 'text', text: 'Hi.' }]),
      call(2, 'c1', 'read', '{"x":1}'),
      result(3, 'c1', 'ok'),
    ];
    const custom = new Assembler({
      definitions: [assistantDefinition, toolDefinition, observer],
      now: () => NOW,
    });
    const plain = new Assembler({ now: () => NOW });
    custom.push(events);
    plain.push(events);
    expect(project(custom.publish())).to.deep.equal(project(plain.publish()));
  });

  it('when two Contexts open on the same event, the earlier Definition in the option comes first', () => {
    const events = [toolDelta('a1', 0, 'c1', '{}', 'read'), textDelta('a1', 1, 'Text after.')];
    const toolFirst = new Assembler({
      definitions: [toolDefinition, assistantDefinition],
      now: () => NOW,
    });
    const byDefault = new Assembler({ now: () => NOW });
    toolFirst.push(events);
    byDefault.push(events);
    expect(outline(byDefault.publish())).to.deep.equal(['assistant:a1', 'group:c1']);
    expect(outline(toolFirst.publish())).to.deep.equal(['group:c1', 'assistant:a1']);
  });
});
