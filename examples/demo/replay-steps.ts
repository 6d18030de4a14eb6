import type { Observable, Subscription } from 'rxjs';
import { type CallfoldEvent, isDurableEvent, type SessionEvent } from '../../src/events/types.js';
import type { AdapterOptions } from '../../src/providers/adapter-run.js';
import { fromAGUI } from '../../src/providers/ag-ui.js';
import { fromAISDKUIStream } from '../../src/providers/ai-sdk-ui-stream.js';
import { fromAnthropicMessages } from '../../src/providers/anthropic-messages.js';
import { fromGemini } from '../../src/providers/gemini.js';
import { fromOpenAIChatCompletions } from '../../src/providers/openai-chat-completions.js';
import { fromOpenAIResponses } from '../../src/providers/openai-responses.js';
import type { ProviderSource } from '../../src/providers/provider-source.js';
import { createSession, type UnnumberedEvent } from '../../src/providers/session.js';
import { encodeAGUI } from './encoders/ag-ui.js';
import { encodeAISDKUIStream } from './encoders/ai-sdk-ui-stream.js';
import { encodeAnthropicMessages } from './encoders/anthropic-messages.js';
import { encodeGemini } from './encoders/gemini.js';
import { encodeOpenAIChatCompletions } from './encoders/openai-chat-completions.js';
import { encodeOpenAIResponses } from './encoders/openai-responses.js';
import type { Encoder } from './encoders/timed-chunk.js';
import type { Step } from './player.js';
import type { Script } from './session-script.js';
import { TimedBody } from './timed-body.js';

type Adapter = (source: ProviderSource, options: AdapterOptions) => Observable<CallfoldEvent>;

/** The wire formats a recorded session can be replayed through, each with its adapter. */
export const providers = {
  'anthropic-messages': {
    label: 'Anthropic Messages',
    encode: encodeAnthropicMessages,
    adapt: fromAnthropicMessages,
  },
  'openai-chat-completions': {
    label: 'OpenAI Chat Completions',
    encode: encodeOpenAIChatCompletions,
    adapt: fromOpenAIChatCompletions,
  },
  'openai-responses': {
    label: 'OpenAI Responses',
    encode: encodeOpenAIResponses,
    adapt: fromOpenAIResponses,
  },
  gemini: {
    label: 'Gemini (Vertex AI, streamed arguments)',
    encode: encodeGemini,
    adapt: fromGemini,
  },
  'ai-sdk-ui-stream': {
    label: 'AI SDK UI stream',
    encode: encodeAISDKUIStream,
    adapt: fromAISDKUIStream,
    /** Its stream carries the approval requests (`tool-approval-request`): the host records none. */
    streamsApprovals: true,
  },
  'ag-ui': {
    label: 'AG-UI',
    encode: encodeAGUI,
    adapt: fromAGUI,
  },
} as const satisfies Record<
  string,
  { label: string; encode: Encoder; adapt: Adapter; streamsApprovals?: boolean }
>;

export type ProviderName = keyof typeof providers;
/** A provider, or `events`: the recorded CallfoldEvents themselves, with no adapter. */
export type ReplaySource = ProviderName | 'events';

export function isReplaySource(name: string): name is ReplaySource {
  return name === 'events' || Object.hasOwn(providers, name);
}

/**
 * Asks the viewer whether the call `callId` may run; resolves with the answer. A replay given
 * one waits for it where the recording's user answered (the replay's clock stops meanwhile).
 */
export type Answer = (callId: string) => Promise<boolean>;

export interface ReplaySteps {
  readonly steps: Step[];
  /** Cancels the adapters' subscriptions. */
  dispose(): void;
}

/**
 * The steps that replay `script` through `source`, handing every CallfoldEvent to `publish`
 * with its recorded time: for an adapter's event, the time of the chunk it came from.
 *
 * Through a provider, each model response becomes a response body (a `ReadableStream` of
 * UTF-8 bytes) written chunk by chunk at its recorded times and read by that provider's
 * adapter, which numbers its records in one Session with the host's events (turns,
 * results). The response's last step holds later steps until the adapter has finished it,
 * so the numbering follows the recording. The Session stamps `epoch` + the recorded time.
 *
 * Approvals: with `answer`, the step of each recorded `tool/approval` waits for the viewer's
 * answer instead (see `Answer`). Granted, the recording goes on; denied, the step records a
 * denial and the call's recorded result is left out. Without `answer` the recorded answers
 * play.
 */
export function replaySteps(
  script: Script,
  source: ReplaySource,
  publish: (event: CallfoldEvent, at: number) => void,
  epoch = 0,
  answer?: Answer,
): ReplaySteps {
  /** Calls the viewer denied: their recorded results are left out. */
  const denied = new Set<string>();
  /** What the host does for a recorded durable event: `record` it, or the viewer's answer. */
  const hostStep = (
    at: number,
    event: SessionEvent,
    record: (event: SessionEvent | UnnumberedEvent) => void,
  ): Step => {
    if (event.type !== 'tool/approval' || !answer) {
      return {
        at,
        run: () => {
          if (event.type !== 'tool/result' || !denied.has(event.callId)) record(event);
        },
      };
    }
    return {
      at,
      waits: true,
      run: async () => {
        if (await answer(event.callId)) return record(event);
        denied.add(event.callId);
        const { seq, callId } = event;
        record({ type: 'tool/approval', callId, approved: false, seq });
      },
    };
  };
  if (source === 'events') {
    return {
      steps: script.entries.map(({ at, event }) =>
        isDurableEvent(event)
          ? hostStep(at, event, (recorded) => publish(recorded as SessionEvent, at))
          : { at, run: () => publish(event, at) },
      ),
      dispose() {},
    };
  }
  const provider = providers[source];
  const { encode, adapt } = provider;
  /** Approval requests the provider's stream carries: the host does not record them. */
  const streamed = new Set<SessionEvent>();
  if ('streamsApprovals' in provider) {
    for (const item of script.items) {
      if (item.kind === 'attempt')
        for (const { event } of item.attempt.approvals ?? []) streamed.add(event);
    }
  }
  /** The recorded time of what is being handled: a chunk read by an adapter, a host event. */
  let clock = 0;
  const session = createSession({ now: () => epoch + clock });
  const subscriptions = new Set<Subscription>();
  const utf8 = new TextEncoder();
  const steps: Step[] = [];
  for (const item of script.items) {
    if (item.kind === 'host') {
      if (streamed.has(item.event)) continue;
      steps.push(
        hostStep(item.at, item.event, (event) => {
          clock = item.at;
          publish(session.record(unnumbered(event)), item.at);
        }),
      );
      continue;
    }
    const { attempt } = item;
    let body: TimedBody | undefined;
    let finished: Promise<void> = Promise.resolve();
    const open = (): TimedBody => {
      const opened = new TimedBody((at) => void (clock = at));
      finished = new Promise<void>((resolve) => {
        const options = { session, attemptId: attempt.attemptId };
        const subscription = adapt(opened.stream, options).subscribe({
          next: (event) => publish(event, clock),
          error: () => resolve(),
          complete: () => resolve(),
        });
        subscriptions.add(subscription);
      });
      return opened;
    };
    for (const chunk of encode(attempt)) {
      const bytes = utf8.encode(chunk.data);
      steps.push({ at: chunk.at, run: () => (body ??= open()).write(chunk.at, bytes) });
    }
    steps.push({
      at: attempt.end,
      run: () => {
        (body ??= open()).close(attempt.end);
        return finished;
      },
    });
  }
  // Stable: at equal times, a response's steps stay in order and before later host events.
  steps.sort((a, b) => a.at - b.at);
  return {
    steps,
    dispose() {
      for (const subscription of subscriptions) subscription.unsubscribe();
    },
  };
}

/** A recorded durable event as the host hands it to its Session: without `seq` and `at`. */
function unnumbered(event: SessionEvent | UnnumberedEvent): UnnumberedEvent {
  const { seq: _seq, at: _at, ...rest } = event as SessionEvent;
  return rest as UnnumberedEvent;
}
