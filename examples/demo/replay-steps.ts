import type { Observable, Subscription } from 'rxjs';
import type { CallfoldEvent, SessionEvent } from '../../src/events/types.js';
import type { AdapterOptions } from '../../src/providers/adapter-run.js';
import { fromAISDKUIStream } from '../../src/providers/ai-sdk-ui-stream.js';
import { fromAnthropicMessages } from '../../src/providers/anthropic-messages.js';
import { fromOpenAIChatCompletions } from '../../src/providers/openai-chat-completions.js';
import { fromOpenAIResponses } from '../../src/providers/openai-responses.js';
import type { ProviderSource } from '../../src/providers/provider-source.js';
import { createSession, type UnnumberedEvent } from '../../src/providers/session.js';
import { encodeAISDKUIStream } from './encoders/ai-sdk-ui-stream.js';
import { encodeAnthropicMessages } from './encoders/anthropic-messages.js';
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
  'ai-sdk-ui-stream': {
    label: 'AI SDK UI stream',
    encode: encodeAISDKUIStream,
    adapt: fromAISDKUIStream,
  },
} as const satisfies Record<string, { label: string; encode: Encoder; adapt: Adapter }>;

export type ProviderName = keyof typeof providers;
/** A provider, or `events`: the recorded CallfoldEvents themselves, with no adapter. */
export type ReplaySource = ProviderName | 'events';

export function isReplaySource(name: string): name is ReplaySource {
  return name === 'events' || Object.hasOwn(providers, name);
}

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
 */
export function replaySteps(
  script: Script,
  source: ReplaySource,
  publish: (event: CallfoldEvent, at: number) => void,
  epoch = 0,
): ReplaySteps {
  if (source === 'events') {
    return {
      steps: script.entries.map(({ at, event }) => ({ at, run: () => publish(event, at) })),
      dispose() {},
    };
  }
  const { encode, adapt } = providers[source];
  /** The recorded time of what is being handled: a chunk read by an adapter, a host event. */
  let clock = 0;
  const session = createSession({ now: () => epoch + clock });
  const subscriptions = new Set<Subscription>();
  const utf8 = new TextEncoder();
  const steps: Step[] = [];
  for (const item of script.items) {
    if (item.kind === 'host') {
      const event = unnumbered(item.event);
      steps.push({
        at: item.at,
        run: () => {
          clock = item.at;
          publish(session.record(event), item.at);
        },
      });
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
function unnumbered(event: SessionEvent): UnnumberedEvent {
  const { seq: _seq, at: _at, ...rest } = event;
  return rest as UnnumberedEvent;
}
