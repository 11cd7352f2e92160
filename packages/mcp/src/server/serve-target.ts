import type { JsonSchema } from '@weft/adk';

/** How a run started or continued through MCP ended. */
export type ServeOutcome =
  | { readonly status: 'done'; readonly threadId: string; readonly output: unknown; readonly text: string }
  | {
      readonly status: 'interrupted';
      readonly threadId: string;
      readonly interrupts: ReadonlyArray<{ readonly id: string; readonly value: unknown }>;
    };

/** One agent or graph served as an MCP tool. */
export interface ServeTarget {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  /** Starts a run (or, for an agent given a `thread_id`, the next turn of its conversation). */
  start(args: Record<string, unknown>, signal: AbortSignal): Promise<ServeOutcome>;
  /** Answers the interrupts of a paused run and continues it. */
  resume(threadId: string, answer: unknown, signal: AbortSignal): Promise<ServeOutcome>;
}

/** The tool that answers interrupts. */
export const RESUME_TOOL = 'weft_resume';

/** Thread ids name their target, so `weft_resume` knows what to continue (`<target>:<id>`). */
export function threadIdFor(target: string, id: string): string {
  return `${target}:${id}`;
}

/** The target a thread id belongs to, or `undefined` for a malformed id. */
export function targetOfThread(threadId: string): string | undefined {
  const at = threadId.indexOf(':');
  return at > 0 ? threadId.slice(0, at) : undefined;
}
