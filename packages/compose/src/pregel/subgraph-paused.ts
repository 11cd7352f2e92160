import type { PendingInterrupt } from './task.js';

/** Thrown by a nested graph run that paused, so the parent task pauses with the same interrupts. */
export class SubgraphPaused {
  constructor(readonly interrupts: readonly PendingInterrupt[]) {}
}
