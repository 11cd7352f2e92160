import { AsyncQueue } from '../stream/async-queue.js';
import type { ChunkEvent, NodeStartEvent, RunEvent } from './run-event.js';

/** The stream callbacks of {@link Callbacks}, as {@link streamCallbackListener} takes them. */
export interface StreamCallbacks {
  readonly onStartWithStreamInput?: (event: NodeStartEvent, input: AsyncIterable<unknown>) => void;
  readonly onEndWithStreamOutput?: (event: ChunkEvent, output: AsyncIterable<unknown>) => void;
}

/**
 * Builds Eino's stream callbacks from the event stream (ADR 022): a task's output stream is its own
 * `chunk` events, from the first until its `node-end` (a `node-error` fails it; a retry or the run's end
 * closes it); a task whose `node-start` names `streamFrom` reads its producer's `chunk` events as its
 * input stream. The streams buffer without limit, so a callback that reads slowly never slows the run.
 * `call` isolates each callback (one that throws is reported, never fails the run).
 */
export function streamCallbackListener(
  callbacks: StreamCallbacks,
  call: <TEvent>(callback: (event: TEvent) => void, event: TEvent) => void,
): (event: RunEvent) => void {
  const { onStartWithStreamInput, onEndWithStreamOutput } = callbacks;
  /** Output streams by task, and the input streams fed by each producer task. */
  const outputs = new Map<string, AsyncQueue<unknown>>();
  const readers = new Map<string, AsyncQueue<unknown>[]>();
  const inputs = new Map<string, AsyncQueue<unknown>>();
  const end = (key: string, error?: Error): void => {
    const streams = [outputs.get(key), inputs.get(key), ...(readers.get(key) ?? [])];
    for (const stream of streams) {
      if (!stream) continue;
      if (error) stream.fail(error);
      else stream.close();
    }
    outputs.delete(key);
    inputs.delete(key);
    readers.delete(key);
  };
  return (event) => {
    switch (event.type) {
      case 'node-start': {
        if (!onStartWithStreamInput || event.streamFrom === undefined) return;
        const input = new AsyncQueue<unknown>(Number.POSITIVE_INFINITY);
        const from = keyOf(event.scope, event.streamFrom);
        readers.set(from, [...(readers.get(from) ?? []), input]);
        inputs.set(keyOf(event.scope, event.taskId), input);
        call((e: NodeStartEvent) => onStartWithStreamInput(e, input), event);
        return;
      }
      case 'chunk': {
        const key = keyOf(event.scope, event.taskId);
        let output = outputs.get(key);
        if (!output && onEndWithStreamOutput) {
          const created = new AsyncQueue<unknown>(Number.POSITIVE_INFINITY);
          outputs.set(key, created);
          output = created;
          call((e: ChunkEvent) => onEndWithStreamOutput(e, created), event);
        }
        output?.push(event.chunk);
        for (const input of readers.get(key) ?? []) input.push(event.chunk);
        return;
      }
      case 'node-end':
        end(keyOf(event.scope, event.taskId));
        return;
      case 'node-error':
        end(keyOf(event.scope, event.taskId), event.error);
        return;
      case 'node-retry': {
        const key = keyOf(event.scope, event.taskId);
        outputs.get(key)?.fail(event.error);
        outputs.delete(key);
        return;
      }
      case 'run-end':
      case 'run-error':
        if (event.scope !== undefined) return;
        for (const key of [...outputs.keys(), ...inputs.keys(), ...readers.keys()])
          end(key, event.type === 'run-error' ? event.error : undefined);
        return;
      default:
        return;
    }
  };
}

function keyOf(scope: string | undefined, taskId: string): string {
  return scope === undefined ? taskId : `${scope}|${taskId}`;
}
