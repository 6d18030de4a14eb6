import { PartialArguments } from '../../src/arguments/partial-arguments.js';
import type { CallfoldEvent } from '../../src/events/types.js';

/** When each stage of one tool call became visible, in ms of the replay's own clock. */
export interface CallTiming {
  readonly callId: string;
  readonly name: string;
  /** The attempt that streamed it; undefined for a call known only from its dispatch. */
  readonly attemptId: string | undefined;
  /** The first named delta: a row can show the tool (its icon, title) from here. */
  readonly identity: number;
  /** The first argument field (in the model's order) complete: the row can show it. */
  readonly firstField: number | undefined;
  /** That field's value, shortened, when it is a string. */
  readonly firstFieldText: string | undefined;
  /** The `tool/call`: a UI that waits for dispatch shows the call only from here. */
  readonly dispatch: number | undefined;
  readonly result: number | undefined;
  readonly isError: boolean;
  /** Its attempt settled without dispatching it: the row was withdrawn, at this time. */
  readonly withdrawn: number | undefined;
}

interface Watch {
  timing: { -readonly [K in keyof CallTiming]: CallTiming[K] };
  /** Reads the streamed arguments until the first field is complete, then is dropped. */
  reader: PartialArguments | undefined;
  /** The argument text before the first key is known (a few characters). */
  head: string;
  key: string | undefined;
}

const FIRST_KEY = /^\s*\{\s*"((?:[^"\\]|\\.)*)"\s*:/;

/**
 * Watches a session's events and records, per tool call, when its identity, its first field,
 * its dispatch and its result became visible. It reads only until the first field is
 * complete; a 512 KiB argument costs it one short read.
 */
export class StageTimings {
  readonly #calls = new Map<string, Watch>();
  #version = 0;

  /** Bumped on every change, so a renderer can skip unchanged frames. */
  get version(): number {
    return this.#version;
  }

  get calls(): CallTiming[] {
    return [...this.#calls.values()].map((watch) => watch.timing);
  }

  observe(event: CallfoldEvent, at: number): void {
    switch (event.type) {
      case 'stream/tool-call-delta': {
        let watch = this.#calls.get(event.callId);
        if (!watch) {
          if (event.name === undefined) return;
          watch = this.#watch(event.callId, event.name, at, event.attemptId);
        }
        if (watch.reader) this.#read(watch, event.args, at);
        return;
      }
      case 'tool/call': {
        const watch =
          this.#calls.get(event.callId) ?? this.#watch(event.callId, event.name, at, undefined);
        watch.timing.dispatch ??= at;
        watch.timing.firstField ??= at;
        watch.reader = undefined;
        this.#version++;
        return;
      }
      case 'tool/result': {
        const watch = this.#calls.get(event.callId);
        if (!watch) return;
        watch.timing.result ??= at;
        watch.timing.isError = event.isError === true;
        this.#version++;
        return;
      }
      case 'stream/settle':
        for (const watch of this.#calls.values()) {
          if (watch.timing.attemptId === event.attemptId && watch.timing.dispatch === undefined) {
            watch.timing.withdrawn ??= at;
            watch.reader = undefined;
            this.#version++;
          }
        }
        return;
      default:
        return;
    }
  }

  #watch(callId: string, name: string, at: number, attemptId: string | undefined): Watch {
    const watch: Watch = {
      timing: {
        callId,
        name,
        attemptId,
        identity: at,
        firstField: undefined,
        firstFieldText: undefined,
        dispatch: undefined,
        result: undefined,
        isError: false,
        withdrawn: undefined,
      },
      reader: PartialArguments.streaming(),
      head: '',
      key: undefined,
    };
    this.#calls.set(callId, watch);
    this.#version++;
    return watch;
  }

  #read(watch: Watch, fragment: string, at: number): void {
    const reader = watch.reader as PartialArguments;
    reader.append(fragment);
    if (watch.key === undefined) {
      watch.head += fragment;
      const match = FIRST_KEY.exec(watch.head);
      if (!match) {
        if (watch.head.length > 512) watch.reader = undefined; // not an object of fields
        return;
      }
      watch.key = JSON.parse(`"${match[1]}"`) as string;
      watch.head = '';
    }
    const key = watch.key;
    if (!reader.complete(key)) return;
    watch.timing.firstField = at;
    const text = reader.textPrefix(key, 240);
    watch.timing.firstFieldText = text === undefined ? undefined : text.replace(/\s+/g, ' ');
    watch.reader = undefined;
    this.#version++;
  }
}
