// What a run record asks of the engine: its input (or Command) and its run options.
import { Command, type JsonValue, type RunOptions } from '@weft/compose';
import type { AssistantRecord, RunRecord, ThreadRecord } from '../records/record-types.js';
import type { ServedGraph } from './server-context.js';

/** The input a run passes to the graph: a `Command` for `command`, `null` to continue, else `input`. */
export function runInput(run: RunRecord, resumeOnly: boolean): unknown {
  const { command, input } = run.kwargs;
  if (resumeOnly) return null;
  if (command) {
    const { resume, update, goto } = command as { resume?: JsonValue; update?: JsonValue; goto?: JsonValue };
    return new Command({
      ...(resume === undefined ? {} : { resume }),
      ...(update === undefined || update === null ? {} : { update }),
      ...(goto === undefined || goto === null ? {} : { goto: goto as string | string[] }),
    });
  }
  return input ?? null;
}

/**
 * The run options: thread and run ids, the assistant's and the run's `configurable` and `context` as
 * `ctx.config` (the run's win), `recursion_limit` as `maxSteps`, breakpoints and the checkpoint to start at.
 */
export function runOptions(parts: {
  readonly run: RunRecord;
  readonly assistant: AssistantRecord;
  readonly thread: ThreadRecord;
  readonly graph: ServedGraph;
  readonly signal: AbortSignal;
}): RunOptions {
  const { run, assistant, thread, graph, signal } = parts;
  const { kwargs } = run;
  const nodes = Object.keys(graph.nodes);
  const breakpoints = (value: readonly string[] | '*' | null) =>
    value === '*' ? nodes : (value ?? undefined);
  const before = breakpoints(kwargs.interrupt_before);
  const after = breakpoints(kwargs.interrupt_after);
  const limit = kwargs.config.recursion_limit ?? assistant.config.recursion_limit;
  const checkpointId = kwargs.checkpoint_id ?? thread.rollback_to;
  return {
    threadId: run.thread_id,
    runId: run.run_id,
    signal,
    config: {
      ...assistant.config.configurable,
      ...assistant.context,
      ...kwargs.config.configurable,
      ...kwargs.context,
      thread_id: run.thread_id,
      run_id: run.run_id,
      assistant_id: assistant.assistant_id,
      graph_id: assistant.graph_id,
    },
    ...(limit === undefined ? {} : { maxSteps: limit }),
    ...(before ? { interruptBefore: before } : {}),
    ...(after ? { interruptAfter: after } : {}),
    ...(checkpointId ? { checkpointId } : {}),
  };
}
