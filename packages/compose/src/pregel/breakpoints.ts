import type { LoopView } from './loop-hooks.js';
import type { PendingInterrupt, Task } from './task.js';
import type { CompiledNode } from './topology.js';

/** Static breakpoints by node index. */
export interface Breakpoints {
  readonly before: ReadonlySet<number>;
  readonly after: ReadonlySet<number>;
}

/** Which breakpoints to check: before or after the tasks run, and at which node indices. */
export interface BreakpointCheck {
  readonly kind: 'before' | 'after';
  readonly nodes: ReadonlySet<number>;
}

/** The interrupts raised by breakpoints on the given tasks, or undefined when none applies. */
export function breakpointInterrupts(
  loop: LoopView,
  tasks: readonly Task[],
  check: BreakpointCheck,
): PendingInterrupt[] | undefined {
  const { kind, nodes: set } = check;
  let hits: PendingInterrupt[] | undefined;
  for (const task of tasks) {
    if (!set.has(task.node)) continue;
    const node = (loop.topology.nodes[task.node] as CompiledNode).name;
    const hit = {
      id: `${task.id}:${kind}`,
      value: { breakpoint: kind, node },
      path: [...loop.run.path, node],
      taskId: task.id,
    };
    (hits ??= []).push(hit);
    const { run } = loop;
    run.observer.event?.({
      type: 'interrupt',
      runId: run.runId,
      ts: Date.now(),
      path: hit.path,
      step: loop.step,
      node,
      interruptId: hit.id,
      value: hit.value,
    });
  }
  return hits;
}
