import type { Observable } from 'rxjs';
import type { CallfoldEvent } from '../../../src/events/types.js';
import type { AdapterOptions } from '../../../src/providers/adapter-run.js';
import { fromAISDKUIStream } from '../../../src/providers/ai-sdk-ui-stream.js';
import { fromAnthropicMessages } from '../../../src/providers/anthropic-messages.js';
import { fromOpenAIChatCompletions } from '../../../src/providers/openai-chat-completions.js';
import { fromOpenAIResponses } from '../../../src/providers/openai-responses.js';
import type { ProviderSource } from '../../../src/providers/provider-source.js';
import { createSession, type Session } from '../../../src/providers/session.js';
import type { ProviderName } from './fixtures.js';

export type Adapter = (
  source: ProviderSource,
  options?: AdapterOptions,
) => Observable<CallfoldEvent>;

export interface ProviderCase {
  readonly provider: ProviderName;
  readonly adapter: Adapter;
  /** Whether the fixture's parallel calls interleave their argument fragments. */
  readonly interleaved: boolean;
}

export const providerCases: readonly ProviderCase[] = [
  { provider: 'openai-chat-completions', adapter: fromOpenAIChatCompletions, interleaved: true },
  { provider: 'openai-responses', adapter: fromOpenAIResponses, interleaved: true },
  { provider: 'anthropic-messages', adapter: fromAnthropicMessages, interleaved: false },
  { provider: 'ai-sdk-ui-stream', adapter: fromAISDKUIStream, interleaved: true },
];

/** A session whose output depends on nothing but its input: attemptIds a1, a2, …; `at` 0. */
export function fixedSession(): Session {
  let attempts = 0;
  return createSession({ now: () => 0, attemptId: () => `a${++attempts}` });
}
