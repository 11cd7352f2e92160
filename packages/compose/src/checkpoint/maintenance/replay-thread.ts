import { WeftError } from '../../errors/weft-error.js';
import type { CompiledGraph } from '../../graph/compiled-graph.js';
import type { Checkpointer, CheckpointRecord } from '../checkpointer.js';
import { decodeBody } from '../load.js';
import { MemoryCheckpointer } from '../memory-checkpointer.js';
import { jsonEqual } from '../metadata-filter.js';
import { exportThread, importThread } from './thread-export.js';

/** One recorded step of a thread, as a replay sees it (and hands to a graph factory). */
export interface ReplayStep {
  /** The checkpoint the step wrote. */
  readonly checkpointId: string;
  /** The checkpoint it ran from. */
  readonly parentId: string;
  readonly step: number;
  /** What each node of the step wrote, key by key, as recorded. */
  readonly recorded: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
}

/** Where one node's replayed output differs from the recorded one. */
export interface ReplayDifference {
  /** The state key (channel) written. */
  readonly key: string;
  readonly recorded: unknown;
  readonly replayed: unknown;
}

/** One node of one step, replayed. */
export interface ReplayNode {
  readonly node: string;
  /**
   * `same`: it wrote what it wrote then; `changed`: some key differs (`differences`); `missing`: it did not
   * run again; `added`: it ran and had not; `failed`: it threw (`error`); `interrupted`: it paused again (a
   * step that was answered by a resume is not replayed).
   */
  readonly status: 'same' | 'changed' | 'missing' | 'added' | 'failed' | 'interrupted';
  readonly differences: readonly ReplayDifference[];
  readonly error?: string;
}

/** A replayed step. */
export interface ReplayStepReport {
  readonly checkpointId: string;
  readonly step: number;
  readonly nodes: readonly ReplayNode[];
}

/** What a replay found. */
export interface ReplayReport {
  readonly threadId: string;
  readonly steps: readonly ReplayStepReport[];
  /** Nodes whose status is not `same`, over all steps. */
  readonly changed: number;
}

/** Options of {@link replayThread}. */
export interface ReplayOptions {
  /** The store holding the recorded thread (a production database, say). Only read. */
  readonly checkpointer: Checkpointer;
  /**
   * The current code: a compiled graph, or a function building one per step — e.g. with a model that
   * answers from the step's recorded writes (`@weft/eval`'s `recordedModel(step)`), or a live model.
   */
  readonly graph: CompiledGraph<never, unknown> | ((step: ReplayStep) => CompiledGraph<never, unknown>);
  /** Object keys left out of the comparison at any depth (e.g. `['id']` for generated message ids). */
  readonly ignoreKeys?: readonly string[];
}

/**
 * Replays a recorded thread against the current code, step by step: each step of the head's lineage
 * runs again from its recorded parent state (in a scratch in-memory copy of the thread; the store is
 * only read), so an earlier change never cascades into later steps, and each node's new output is
 * compared, key by key, with what it wrote then. Use it to check a prompt or code change against real
 * past conversations.
 *
 * Each step runs with `maxSteps: 1` from its parent; a node that pauses is reported `interrupted` (the
 * answer a resume gave is not replayed). Model calls answer as the graph's model does: build the graph per
 * step with a model that replays the step's recorded answers to check code, with a live model (or a
 * cassette) to check a prompt.
 *
 * @throws {WeftError} code `NOT_FOUND` when the thread has no checkpoints; `INVALID_ARGUMENT` when the
 * store cannot be maintained.
 * @example
 * ```ts
 * declare const production: MaintainableCheckpointer;
 * declare const supportGraph: CompiledGraph<never, unknown>; // the current code
 * const report = await replayThread('ticket-7', { checkpointer: production, graph: supportGraph });
 * for (const step of report.steps)
 *   for (const node of step.nodes) if (node.status !== 'same') console.log(step.step, node.node, node.differences);
 * ```
 */
export async function replayThread(threadId: string, options: ReplayOptions): Promise<ReplayReport> {
  const build =
    typeof options.graph === 'function'
      ? options.graph
      : () => options.graph as CompiledGraph<never, unknown>;
  const source = options.checkpointer;
  const scratch = new MemoryCheckpointer();
  await importThread(scratch, await exportThread(source, threadId));
  const ignore = new Set(options.ignoreKeys ?? []);
  const steps: ReplayStepReport[] = [];
  for (const record of lineage(await scratch.list(threadId))) {
    if (record.source !== 'loop' || record.parentId === null) continue;
    const recorded = writesOf(record);
    if (recorded.size === 0) continue;
    const step: ReplayStep = {
      checkpointId: record.id,
      parentId: record.parentId,
      step: record.step,
      recorded,
    };
    const graph = build(step).withOptions({ checkpointer: scratch, maxSteps: 1, durability: 'sync' });
    steps.push({
      checkpointId: record.id,
      step: record.step,
      nodes: await replayStep(graph, threadId, step, { scratch, ignore }),
    });
  }
  const changed = steps.reduce(
    (count, step) => count + step.nodes.filter((node) => node.status !== 'same').length,
    0,
  );
  return { threadId, steps, changed };
}

async function replayStep(
  graph: CompiledGraph<never, unknown>,
  threadId: string,
  step: ReplayStep,
  context: { readonly scratch: MemoryCheckpointer; readonly ignore: ReadonlySet<string> },
): Promise<ReplayNode[]> {
  let failure: string | undefined;
  let interrupted = false;
  try {
    const result = await graph.run(null, { threadId, checkpointId: step.parentId });
    interrupted = result.status === 'interrupted';
  } catch (error) {
    if (!(WeftError.isInstance(error) && error.code === 'STEP_LIMIT')) failure = (error as Error).message;
  }
  const head = (await context.scratch.get(threadId))?.checkpoint;
  const replayed =
    head !== undefined && head.id !== step.parentId && head.parentId !== null ? writesOf(head) : new Map();
  const nodes: ReplayNode[] = [];
  for (const [node, before] of step.recorded) {
    const after = replayed.get(node);
    if (after === undefined) {
      const status = failure !== undefined ? 'failed' : interrupted ? 'interrupted' : 'missing';
      nodes.push({ node, status, differences: [], ...(failure === undefined ? {} : { error: failure }) });
      continue;
    }
    const differences = differencesOf(before, after, context.ignore);
    nodes.push({ node, status: differences.length === 0 ? 'same' : 'changed', differences });
  }
  for (const [node, after] of replayed) {
    if (step.recorded.has(node)) continue;
    nodes.push({ node, status: 'added', differences: differencesOf({}, after, context.ignore) });
  }
  return nodes;
}

/** The head's lineage, oldest first, from records listed newest first. */
function lineage(records: readonly CheckpointRecord[]): CheckpointRecord[] {
  const byId = new Map(records.map((record) => [record.id, record]));
  const chain: CheckpointRecord[] = [];
  for (
    let record = records[0];
    record !== undefined;
    record = record.parentId === null ? undefined : byId.get(record.parentId)
  ) {
    chain.push(record);
    if (chain.length > records.length) break;
  }
  return chain.reverse();
}

/** What each node wrote in a checkpoint's step, key by key (later writes of a key win). */
function writesOf(record: CheckpointRecord): Map<string, Record<string, unknown>> {
  const writes = new Map<string, Record<string, unknown>>();
  for (const [node, entries] of decodeBody(record).writes) {
    const keys = writes.get(node) ?? {};
    for (const [key, value] of entries) keys[key] = value;
    writes.set(node, keys);
  }
  return writes;
}

function differencesOf(
  recorded: Readonly<Record<string, unknown>>,
  replayed: Readonly<Record<string, unknown>>,
  ignore: ReadonlySet<string>,
): ReplayDifference[] {
  const keys = new Set([...Object.keys(recorded), ...Object.keys(replayed)]);
  const differences: ReplayDifference[] = [];
  for (const key of keys) {
    const before = comparable(recorded[key], ignore);
    const after = comparable(replayed[key], ignore);
    if (!jsonEqual(before as never, after as never))
      differences.push({ key, recorded: recorded[key], replayed: replayed[key] });
  }
  return differences;
}

/** A value as JSON data without the ignored keys (Dates and other tagged values compare by their JSON). */
function comparable(value: unknown, ignore: ReadonlySet<string>): unknown {
  const data = value === undefined ? null : (JSON.parse(JSON.stringify(value) ?? 'null') as unknown);
  if (ignore.size === 0) return data;
  const strip = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(strip);
    if (item === null || typeof item !== 'object') return item;
    return Object.fromEntries(
      Object.entries(item)
        .filter(([key]) => !ignore.has(key))
        .map(([key, inner]) => [key, strip(inner)]),
    );
  };
  return strip(data);
}
