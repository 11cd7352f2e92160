import type { PriceTable } from '@weft/adk/prices';
import type { RunInfo, WireEvent, WireEventOf } from '../../../src/shared/wire.ts';
import type { UsageJson } from '../conversation/conversation-model.ts';
import { callUsage } from '../usage/call-usage.ts';
import { callCost, formatCost } from '../usage/cost-model.ts';

/** What a span of the trace stands for. */
export type SpanKind = 'run' | 'node' | 'model';

/** How a span ended (or that it has not). */
export type SpanStatus = 'ok' | 'error' | 'running' | 'paused' | 'cancelled';

/** One bar of the waterfall: a run, a node task (subgraph and agent nodes nest by path), a model call. */
export interface Span {
  readonly id: string;
  readonly kind: SpanKind;
  readonly label: string;
  /** Nesting depth: 0 for the run, a node's path length, one more for a model call inside a node. */
  readonly depth: number;
  /** Milliseconds since the run started. */
  readonly start: number;
  readonly end: number;
  readonly status: SpanStatus;
  /** The event that opens the span in the inspector (its end, error or call event). */
  readonly seq: number;
}

/** The waterfall of a run: its spans in start order, and how long the whole run took (ms). */
export interface Trace {
  readonly spans: readonly Span[];
  readonly durationMs: number;
}

interface Open {
  id: string;
  label: string;
  depth: number;
  start: number;
  seq: number;
  status: SpanStatus;
}

const taskKey = (event: WireEvent) => `${event.path.join('/')}#${'taskId' in event ? event.taskId : ''}`;

/**
 * The tokens of a run's model calls, summed; undefined when no call reported usage.
 *
 * @example
 * ```ts
 * runUsage(events); // { calls: 2, usage: { inputTokens: 40, outputTokens: 12, totalTokens: 52 } }
 * ```
 */
export function runUsage(events: readonly WireEvent[]): { calls: number; usage: UsageJson } | undefined {
  const usages = events.map(callUsage).filter((usage) => usage !== undefined);
  if (usages.length === 0) return undefined;
  const usage = usages.reduce((sum, u) => ({
    inputTokens: sum.inputTokens + u.inputTokens,
    outputTokens: sum.outputTokens + u.outputTokens,
    totalTokens: sum.totalTokens + u.totalTokens,
  }));
  return { calls: usages.length, usage };
}

function modelSpan(event: WireEventOf<'model-call'>, t0: number, prices: PriceTable | undefined): Span {
  const duration = event.durationMs;
  const end = event.ts - t0;
  const usage = callUsage(event);
  const cost = prices ? callCost(event, prices) : undefined;
  const tokens = `${usage ? ` · ${usage.totalTokens} tokens` : ''}${cost ? ` · ${formatCost(cost.total)}` : ''}`;
  return {
    id: `model-${event.seq}`,
    kind: 'model',
    label: `model call${event.path.length > 0 ? ` · ${event.path.join(' › ')}` : ''}${tokens}`,
    depth: event.path.length + 1,
    start: Math.max(0, end - duration),
    end,
    status: event.error === undefined ? 'ok' : 'error',
    seq: event.seq,
  };
}

/**
 * Builds the run's waterfall from its events: a span per node task from `node-start` to `node-end` or
 * `node-error` (fan-out tasks of one node are told apart by task id), nested by path so subgraphs and
 * agent tools sit under their node; a span per `model-call` (its duration ends at the event); the run
 * itself on top; with `prices`, model calls show their cost. Errors are marked, a node paused by an interrupt is `paused`, and spans still open
 * when the run stopped end there as `running` (live) or `cancelled`.
 *
 * @example
 * ```ts
 * const { spans, durationMs } = traceOf(events, run);
 * ```
 */
export function traceOf(events: readonly WireEvent[], run: RunInfo | undefined, prices?: PriceTable): Trace {
  if (events.length === 0) return { spans: [], durationMs: 0 };
  const t0 = events.find((e) => e.type === 'run-start')?.ts ?? events[0]!.ts;
  const last = Math.max(...events.map((e) => e.ts)) - t0;
  const spans: Span[] = [];
  const open = new Map<string, Open[]>();
  let runStatus: SpanStatus = run === undefined || run.status === 'running' ? 'running' : 'ok';
  for (const event of events) {
    const at = event.ts - t0;
    if (event.type === 'node-start') {
      const key = taskKey(event);
      const label = event.path.join(' › ') || String(event.node ?? 'node');
      const entry = {
        id: `node-${event.seq}`,
        label,
        depth: event.path.length,
        start: at,
        seq: event.seq,
        status: 'running' as SpanStatus,
      };
      open.set(key, [...(open.get(key) ?? []), entry]);
      spans.push({ ...entry, kind: 'node', end: at });
    } else if (event.type === 'node-end' || event.type === 'node-error') {
      const queue = open.get(taskKey(event)) ?? [];
      const entry = queue.shift();
      if (entry === undefined) continue;
      const status: SpanStatus =
        event.type === 'node-error' ? 'error' : entry.status === 'paused' ? 'paused' : 'ok';
      const index = spans.findIndex((span) => span.id === entry.id);
      spans[index] = { ...entry, kind: 'node', end: at, status, seq: event.seq };
    } else if (event.type === 'interrupt') {
      for (const entry of open.get(taskKey(event)) ?? []) entry.status = 'paused';
    } else if (event.type === 'model-call') {
      spans.push(modelSpan(event, t0, prices));
    } else if (event.type === 'run-error') {
      runStatus = run?.status === 'cancelled' ? 'cancelled' : 'error';
    }
  }
  const still: SpanStatus = run === undefined || run.status === 'running' ? 'running' : 'cancelled';
  for (const queue of open.values())
    for (const entry of queue) {
      const index = spans.findIndex((span) => span.id === entry.id);
      spans[index] = {
        ...entry,
        kind: 'node',
        end: last,
        status: entry.status === 'paused' ? 'paused' : still,
      };
    }
  if (run?.status === 'interrupted') runStatus = 'paused';
  const runSpan: Span = {
    id: 'run',
    kind: 'run',
    label: `run${run ? ` · ${run.kind}` : ''}`,
    depth: 0,
    start: 0,
    end: last,
    status: runStatus,
    seq: events.find((e) => e.type === 'run-end' || e.type === 'run-error')?.seq ?? events[0]!.seq,
  };
  const ordered = spans.sort((a, b) => a.start - b.start || a.depth - b.depth);
  return { spans: [runSpan, ...ordered], durationMs: last };
}
