import type { Checkpointer } from '../../checkpoint/checkpointer.js';

/** Gives the semantics cases the store under test. */
export type StoreOf = () => Checkpointer;

let counter = 0;

/** A thread id unique to this process and case (stores are shared by the cases of one test). */
export function newThread(name: string): string {
  counter += 1;
  return `sem-${name}-${process.pid.toString(36)}-${counter}`;
}
