import type { Conversation } from '../../src/conversation/conversation.js';
import type { MessageBlock, SessionEvent, StreamEvent } from '../../src/events/types.js';
import { pick, prng } from '../../test/support/prng.js';

/**
 * A long agent session's durable log, for the sessions benchmark: turns, each with an
 * assistant message whose tool-use blocks become a group of 1–6 calls (read, bash, write,
 * edit, search) and their results, text between groups. Seeded: byte-identical in every
 * worker.
 */
export function sessionLog(events: number, seed = 0x10c): SessionEvent[] {
  const random = prng(seed);
  const log: SessionEvent[] = [];
  let seq = 1;
  let turn = 0;
  let call = 0;
  while (log.length < events) {
    const turnId = `t${turn++}`;
    log.push({ type: 'turn/start', seq: seq++, turnId });
    const rounds = 1 + Math.floor(random() * 3);
    for (let r = 0; r < rounds && log.length < events; r++) {
      const calls = 1 + Math.floor(random() * 6);
      const attemptId = `${turnId}-a${r}`;
      const ids = Array.from({ length: calls }, () => `call_${call++}`);
      const argsOf = ids.map((id) => toolArgs(random, id));
      const blocks: MessageBlock[] = [
        { type: 'text', text: `Step ${r} of ${turnId}: looking at the next files.` },
        ...ids.map((callId, i) => ({
          type: 'tool-use' as const,
          callId,
          name: (argsOf[i] as ToolArgs).name,
          argsText: (argsOf[i] as ToolArgs).text,
        })),
      ];
      log.push({
        type: 'assistant/message',
        seq: seq++,
        messageId: `m-${attemptId}`,
        attemptId,
        blocks,
      });
      for (const [i, callId] of ids.entries()) {
        const { name, text } = argsOf[i] as ToolArgs;
        log.push({ type: 'tool/call', seq: seq++, callId, name, args: text });
      }
      for (const callId of ids) {
        log.push({ type: 'tool/result', seq: seq++, callId, output: `done ${callId}` });
      }
    }
    log.push({ type: 'turn/end', seq: seq++, turnId });
  }
  return log.slice(0, events);
}

interface ToolArgs {
  readonly name: string;
  readonly text: string;
}

const NAMES = ['Read', 'Bash', 'Write', 'Edit', 'Grep'] as const;

function toolArgs(random: () => number, id: string): ToolArgs {
  const name = pick(random, NAMES);
  const path = `/src/module-${Math.floor(random() * 500)}/${id}.ts`;
  switch (name) {
    case 'Bash':
      return {
        name,
        text: JSON.stringify({ description: `Run the tests of ${id}`, command: 'npm test' }),
      };
    case 'Write':
      return {
        name,
        text: JSON.stringify({ file_path: path, content: `export const ${id} = 1;\n` }),
      };
    case 'Edit':
      return { name, text: JSON.stringify({ file_path: path, old_string: 'a', new_string: 'b' }) };
    case 'Grep':
      return { name, text: JSON.stringify({ pattern: id, path: '/src' }) };
    default:
      return { name, text: JSON.stringify({ file_path: path }) };
  }
}

/** The events of one streamed `write` call: its deltas, block end, records and settle. */
export function streamedWrite(
  attemptId: string,
  callId: string,
  fragments: readonly string[],
  text: string,
  seq: number,
): { stream: StreamEvent[]; durable: SessionEvent[]; settle: StreamEvent } {
  const stream: StreamEvent[] = fragments.map((args, i) => ({
    type: 'stream/tool-call-delta',
    attemptId,
    block: 0,
    callId,
    ...(i === 0 ? { name: 'Write' } : {}),
    args,
  }));
  stream.push({ type: 'stream/block-end', attemptId, block: 0, callId, text });
  const durable: SessionEvent[] = [
    {
      type: 'assistant/message',
      seq,
      messageId: `m-${attemptId}`,
      attemptId,
      blocks: [{ type: 'tool-use', callId, name: 'Write', argsText: text }],
    },
    { type: 'tool/call', seq: seq + 1, callId, name: 'Write', args: text },
  ];
  return { stream, durable, settle: { type: 'stream/settle', attemptId } };
}

/** What must converge: items in order, each tool's stage, arguments and result. */
export function projection(conversation: Conversation): string {
  const items = conversation.items.map((item) =>
    item.kind === 'group'
      ? `g:${item.tools.map((t) => `${t.callId}/${t.stage}/${t.argsRaw?.length ?? -1}/${String(t.result?.output)}`).join(',')}|${item.summary}|${item.detail}`
      : `a:${item.id}`,
  );
  return `${items.join('\n')}\n#${conversation.tools.size}`;
}
