// Turns the parts of a Weft graph stream into the LangGraph API's SSE events (`values`, `updates`,
// `messages` as tuples, `messages/partial|complete|metadata`, `custom`, `events`, `debug`).
import type { JsonValue, PendingInterrupt, RunEvent, StreamMode } from '@weft/compose';
import { toJson } from './json-value.js';
import { toLcChunk, toLcMessage, withLcMessages } from './lc-messages.js';

/** One SSE event before it is stored: its name and its data. */
export interface OutEvent {
  readonly event: string;
  readonly data: JsonValue;
}

/** What the metadata of a `messages` tuple names besides the node. */
export interface RunIdentity {
  readonly runId: string;
  readonly threadId: string;
  readonly graphId: string;
  readonly assistantId: string;
}

/** The stream modes the LangGraph API accepts. */
export const API_STREAM_MODES = [
  'values',
  'updates',
  'messages',
  'messages-tuple',
  'custom',
  'events',
  'debug',
  'tasks',
  'checkpoints',
] as const;

/** Interrupts as the reference shows them: `{ id, value }` (plus the Weft path as `ns`). */
export function apiInterrupts(interrupts: readonly PendingInterrupt[]): JsonValue {
  return interrupts.map((pause) => ({ id: pause.id, value: toJson(pause.value), ns: [...pause.path] }));
}

/** Maps one run's Weft stream parts to API events, keeping what the `messages` mode accumulates. */
export class StreamMapping {
  readonly #modes: ReadonlySet<string>;
  readonly #subgraphs: boolean;
  readonly #identity: RunIdentity;
  readonly #partial = new Map<string, { text: string; message: Record<string, JsonValue> }>();
  readonly #completed = new Set<string>();

  constructor(modes: readonly string[], subgraphs: boolean, identity: RunIdentity) {
    this.#modes = new Set(modes);
    this.#subgraphs = subgraphs;
    this.#identity = identity;
  }

  /** The Weft modes the run is streamed with. */
  weftModes(): StreamMode[] {
    const modes = new Set<StreamMode>();
    const has = (mode: string) => this.#modes.has(mode);
    if (has('values') || has('messages')) modes.add('values');
    if (has('updates')) modes.add('updates');
    if (has('custom')) modes.add('custom');
    if (has('messages') || has('messages-tuple')) modes.add('messages');
    if (has('events') || has('debug') || has('tasks') || has('checkpoints')) modes.add('events');
    if (modes.size === 0) modes.add('values');
    return [...modes];
  }

  /** Whether subgraphs' parts are streamed (not with `values`, whose nested parts carry no path). */
  streamsSubgraphs(): boolean {
    return this.#subgraphs && !this.weftModes().includes('values');
  }

  #name(mode: string, path: readonly string[]): string {
    return this.#subgraphs && path.length > 0 ? `${mode}|${path.join('|')}` : mode;
  }

  /** The API events of one Weft part. */
  map(mode: StreamMode, payload: unknown): OutEvent[] {
    switch (mode) {
      case 'values':
        return this.#values(payload);
      case 'updates': {
        const part = payload as { node: string; update: unknown; path: readonly string[] };
        const update =
          part.node === '__interrupt__'
            ? apiInterrupts(part.update as PendingInterrupt[])
            : toJson(part.update);
        return [{ event: this.#name('updates', part.path), data: { [part.node]: update } }];
      }
      case 'custom': {
        const part = payload as { data: unknown; path: readonly string[] };
        return [{ event: this.#name('custom', part.path), data: toJson(part.data) }];
      }
      case 'messages':
        return this.#messages(
          payload as { node: string; chunk: unknown; agent?: string; path: readonly string[] },
        );
      case 'events':
        return this.#events(payload as RunEvent);
      default:
        return [];
    }
  }

  #values(payload: unknown): OutEvent[] {
    const out: OutEvent[] = [];
    let values = toJson(payload);
    const raw = payload as { __interrupt__?: PendingInterrupt[] } | null;
    if (raw && typeof raw === 'object' && Array.isArray(raw.__interrupt__))
      values = { ...(values as Record<string, JsonValue>), __interrupt__: apiInterrupts(raw.__interrupt__) };
    values = withLcMessages(values);
    if (this.#modes.has('values')) out.push({ event: 'values', data: values });
    if (this.#modes.has('messages')) out.push(...this.#complete(values));
    return out;
  }

  #complete(values: JsonValue): OutEvent[] {
    const messages = (values as { messages?: unknown } | null)?.messages;
    if (!Array.isArray(messages)) return [];
    const fresh = (messages as Array<{ id?: unknown }>).filter(
      (message) => typeof message?.id === 'string' && !this.#completed.has(message.id),
    );
    for (const message of fresh) this.#completed.add(message.id as string);
    return fresh.length > 0 ? [{ event: 'messages/complete', data: fresh as JsonValue }] : [];
  }

  #messages(part: { node: string; chunk: unknown; agent?: string; path: readonly string[] }): OutEvent[] {
    const chunk = toLcChunk(
      part.chunk,
      `run-${this.#identity.runId}-${part.path.concat(part.node).join('-')}`,
    );
    const metadata = {
      langgraph_node: part.node,
      langgraph_checkpoint_ns: part.path.join('|'),
      run_id: this.#identity.runId,
      thread_id: this.#identity.threadId,
      graph_id: this.#identity.graphId,
      assistant_id: this.#identity.assistantId,
      ...(part.agent === undefined ? {} : { weft_agent: part.agent }),
    };
    const out: OutEvent[] = [];
    if (this.#modes.has('messages-tuple'))
      out.push({ event: this.#name('messages', part.path), data: [chunk, metadata] });
    if (this.#modes.has('messages') && chunk && typeof chunk === 'object' && !Array.isArray(chunk)) {
      const id = String((chunk as { id?: unknown }).id);
      const seen = this.#partial.get(id);
      const text = (seen?.text ?? '') + String((chunk as { content?: unknown }).content ?? '');
      const message = { ...(seen?.message ?? {}), ...(chunk as Record<string, JsonValue>), content: text };
      this.#partial.set(id, { text, message });
      if (!seen) out.push({ event: 'messages/metadata', data: { [id]: { metadata } } });
      out.push({ event: 'messages/partial', data: [message] });
    }
    return out;
  }

  #events(event: RunEvent): OutEvent[] {
    const out: OutEvent[] = [];
    if (this.#modes.has('events')) out.push({ event: 'events', data: langChainEvent(event) });
    if (this.#modes.has('debug') || this.#modes.has('tasks') || this.#modes.has('checkpoints')) {
      const debug = debugChunk(event, this.#identity.threadId);
      if (debug) {
        if (this.#modes.has('debug')) out.push({ event: this.#name('debug', event.path), data: debug });
        const kind = (debug as { type: string }).type;
        const payload = (debug as { payload: JsonValue }).payload;
        if (this.#modes.has('tasks') && kind !== 'checkpoint') out.push({ event: 'tasks', data: payload });
        if (this.#modes.has('checkpoints') && kind === 'checkpoint')
          out.push({ event: 'checkpoints', data: payload });
      }
    }
    return out;
  }
}

/** A Weft run event in the shape of LangChain's `streamEvents` v2 (what the reference sends as `events`). */
function langChainEvent(event: RunEvent): JsonValue {
  const metadata =
    'node' in event
      ? { langgraph_node: event.node, langgraph_step: 'step' in event ? event.step : null }
      : {};
  const base = {
    run_id: 'taskId' in event ? event.taskId : event.runId,
    tags: [],
    metadata,
    weft: event.type,
  };
  switch (event.type) {
    case 'run-start':
      return toJson({ ...base, event: 'on_chain_start', name: event.graph, data: { input: event.input } });
    case 'run-end':
      return toJson({ ...base, event: 'on_chain_end', name: event.graph, data: { output: event.output } });
    case 'node-start':
      return toJson({ ...base, event: 'on_chain_start', name: event.node, data: { input: event.input } });
    case 'node-end':
      return toJson({ ...base, event: 'on_chain_end', name: event.node, data: { output: event.output } });
    case 'chunk':
      return toJson({
        ...base,
        event: 'on_chat_model_stream',
        name: event.node,
        data: { chunk: toLcChunk(event.chunk, `run-${event.taskId}`) },
      });
    case 'custom':
      return toJson({ ...base, event: 'on_custom_event', name: event.node, data: event.data });
    default:
      return toJson({
        ...base,
        event: `on_weft_${event.type.replace(/-/g, '_')}`,
        name: event.type,
        data: event,
      });
  }
}

/** A Weft run event as a `debug` chunk (`checkpoint`, `task`, `task_result`); others have none. */
function debugChunk(event: RunEvent, threadId: string): JsonValue | undefined {
  const timestamp = new Date(event.ts).toISOString();
  switch (event.type) {
    case 'checkpoint-save':
      return {
        type: 'checkpoint',
        timestamp,
        step: event.step,
        payload: {
          config: {
            configurable: {
              thread_id: threadId,
              checkpoint_ns: event.path.join('|'),
              checkpoint_id: event.checkpointId,
            },
          },
          checkpoint: {
            thread_id: threadId,
            checkpoint_ns: event.path.join('|'),
            checkpoint_id: event.checkpointId,
            checkpoint_map: null,
          },
          metadata: { step: event.step },
        },
      };
    case 'node-start':
      return toJson({
        type: 'task',
        timestamp,
        step: event.step,
        payload: { id: event.taskId, name: event.node, input: event.input, triggers: [] },
      });
    case 'node-end':
      return toJson({
        type: 'task_result',
        timestamp,
        step: event.step,
        payload: {
          id: event.taskId,
          name: event.node,
          result: writesOf(event.output),
          error: null,
          interrupts: [],
        },
      });
    case 'node-error':
      return toJson({
        type: 'task_result',
        timestamp,
        step: event.step,
        payload: {
          id: event.taskId,
          name: event.node,
          result: [],
          error: event.error.message,
          interrupts: [],
        },
      });
    default:
      return undefined;
  }
}

function writesOf(output: unknown): unknown {
  return output && typeof output === 'object' && !Array.isArray(output)
    ? Object.entries(output)
    : [['__return__', output]];
}

export { toLcMessage };
