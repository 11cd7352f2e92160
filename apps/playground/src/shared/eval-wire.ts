// The JSON of the playground's eval API (server and web app both import this file; types only).
import type { EvalReport } from '@weft/eval';

/** An eval set the playground serves, with the agents it can run against. */
export interface EvalSetInfo {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
  readonly cases: readonly {
    readonly id: string;
    readonly tags: readonly string[];
    readonly turns: number;
  }[];
  /** Ids of the agents it can run against (every agent of the app). */
  readonly agents: readonly string[];
  /** Why the set could not be loaded (a missing or invalid file); it cannot run then. */
  readonly problem?: string;
}

/** One run of an eval set against an agent. */
export interface EvalRunInfo {
  readonly id: string;
  readonly setId: string;
  readonly agentId: string;
  readonly status: 'running' | 'done' | 'failed';
  readonly repeats: number;
  /** Milliseconds since the epoch. */
  readonly startedAt: number;
  readonly finishedAt?: number;
  readonly progress: { readonly done: number; readonly total: number };
  /** The report, once done. */
  readonly report?: EvalReport;
  /** Why the run failed (not a failing case: those are in the report). */
  readonly error?: string;
}
