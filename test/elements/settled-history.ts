/**
 * Long sessions for the timeline's tests: settled calls folded by a real Assembler.
 */
import { Assembler } from '../../src/conversation/assembler.js';
import type { Conversation } from '../../src/conversation/conversation.js';
import type { MessageBlock, SessionEvent } from '../../src/events/types.js';

/** `calls` settled calls: responses of one line of text and 1–4 tool uses, calls, results. */
export function history(calls: number): SessionEvent[] {
  const log: SessionEvent[] = [];
  let seq = 1;
  for (let call = 0, round = 0; call < calls; round++) {
    const n = Math.min(calls - call, 1 + (round % 4));
    const ids = Array.from({ length: n }, () => `c${call++}`);
    const blocks: MessageBlock[] = [
      { type: 'text', text: `Step ${round}` },
      ...ids.map((callId) => ({
        type: 'tool-use' as const,
        callId,
        name: 'Read',
        argsText: `{"file_path":"/src/${callId}.ts"}`,
      })),
    ];
    log.push({
      type: 'assistant/message',
      seq: seq++,
      messageId: `m${round}`,
      attemptId: `a${round}`,
      blocks,
    });
    for (const callId of ids) {
      log.push({
        type: 'tool/call',
        seq: seq++,
        callId,
        name: 'Read',
        args: `{"file_path":"/src/${callId}.ts"}`,
      });
      log.push({ type: 'tool/result', seq: seq++, callId, output: `read ${callId}` });
    }
  }
  return log;
}

export function settled(calls: number): { assembler: Assembler; conversation: Conversation } {
  const assembler = new Assembler({ now: () => 1_000 });
  assembler.push(history(calls));
  return { assembler, conversation: assembler.publish() };
}
