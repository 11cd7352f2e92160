import type { NodeEvent } from '../events/node-events.js';
import type { RunContext } from './run-context.js';

/**
 * Hands a node's own event (`ctx.report`) to the run's listener, counting a `model-call` toward the
 * run's usage first, and returns the listener's pace (a promise when the consumer is behind).
 *
 * @example
 * ```ts
 * const seen: string[] = [];
 * const run = { observer: { event: (e: RunEvent) => void seen.push(e.type) } };
 * reportNodeEvent(run as Parameters<typeof reportNodeEvent>[0], { type: 'tool-start', runId: 'r', ts: 0, path: ['a'], step: 0, node: 'a', taskId: '0:a:0', tool: 'search', toolCallId: 'c1', arguments: '{}' });
 * seen; // ['tool-start']
 * ```
 */
export function reportNodeEvent(run: RunContext, event: NodeEvent): Promise<void> | undefined {
  const { observer } = run;
  if (event.type === 'model-call') run.usage?.add(event);
  observer.event?.(event);
  return observer.pace?.();
}
