// Result rows and the one table `pnpm bench` prints (also pasted into README.md).
import type { Engine, Measurement } from './harness.ts';

/** A number in the row's unit, a status word (`pending`, `FAIL`, `none`…), or null for "not measured". */
export type Cell = number | string | null;

/** One line of the table (and one entry of results/latest.json). */
export interface Row {
  readonly workload: string;
  /** Unit of the numeric cells, e.g. `ms`, `µs/step`, `KB`. */
  readonly unit: string;
  readonly weft: Cell;
  readonly langgraph: Cell;
  readonly floor: Cell;
  /** Free text for the heap column (allocation per sample, or retained heap). */
  readonly heap: string;
  /** Whether the Weft/LangGraph and Weft/floor ratios mean anything for this row (default true). */
  readonly ratios?: boolean;
  /** Failed checks or crashed runs; any failure makes the process exit non-zero. */
  readonly failures: readonly string[];
  /** Remarks printed under the table, e.g. `(pending: checkpointer not available)`. */
  readonly notes: readonly string[];
  /** Raw timed samples in ms, for the JSON file. */
  readonly samplesMs?: Partial<Record<Engine, readonly number[]>>;
  /** Median share of a timed sample spent in GC pauses (0–1), per engine. */
  readonly gcShare?: Partial<Record<Engine, number>>;
  /** Median minor page faults per unit of the row (per run without `unitsPerRun`), per engine. */
  readonly pageFaults?: Partial<Record<Engine, number>>;
}

/** How a workload turns its measurements into a row. */
export interface RowSpec {
  readonly workload: string;
  readonly unit: string;
  /** Converts the median ms of one sample into the row's unit (default: identity, unit `ms`). */
  readonly scale?: (ms: number) => number;
  /** Cells that were not measured, e.g. `{ weft: 'pending' }`. */
  readonly fixed?: Partial<Record<Engine, Cell>>;
  readonly notes?: readonly string[];
  /**
   * Units (tasks, steps) in one timed run: given, the heap column adds each engine's minor page faults
   * per unit next to its GC share (the scaling rows, where fresh pages are what grows with size).
   */
  readonly unitsPerRun?: number;
}

const LABELS: Record<Engine, string> = { weft: 'W', langgraph: 'LG', floor: 'floor' };

/** Short engine names for the heap column. */
export function engineLabel(engine: Engine): string {
  return LABELS[engine];
}

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return '?';
  const sign = bytes < 0 ? '-' : '';
  const size = Math.abs(bytes);
  if (size >= 1024 * 1024) return `${sign}${(size / 1024 / 1024).toFixed(1)} MB`;
  if (size >= 1024) return `${sign}${(size / 1024).toFixed(1)} KB`;
  return `${sign}${size.toFixed(0)} B`;
}

/** Builds a row from `compare()` measurements; failed contenders become `FAIL` cells. */
export function measurementRow(spec: RowSpec, measurements: readonly Measurement[]): Row {
  const scale = spec.scale ?? ((ms: number) => ms);
  const cells: Record<Engine, Cell> = { weft: null, langgraph: null, floor: null };
  const failures: string[] = [];
  const heap: string[] = [];
  const samplesMs: Partial<Record<Engine, readonly number[]>> = {};
  const gcShare: Partial<Record<Engine, number>> = {};
  const pageFaults: Partial<Record<Engine, number>> = {};
  for (const m of measurements) {
    if (m.error !== undefined) {
      cells[m.engine] = 'FAIL';
      failures.push(`${spec.workload} [${m.engine}]: ${m.error}`);
      continue;
    }
    cells[m.engine] = scale(m.medianMs);
    samplesMs[m.engine] = m.samplesMs;
    const extras: string[] = [];
    if (m.gcShare !== undefined && Number.isFinite(m.gcShare)) {
      gcShare[m.engine] = m.gcShare;
      extras.push(`GC ${(m.gcShare * 100).toFixed(0)}%`);
    }
    if (m.pageFaultsPerRun !== undefined && Number.isFinite(m.pageFaultsPerRun)) {
      const per = m.pageFaultsPerRun / (spec.unitsPerRun ?? 1);
      pageFaults[m.engine] = per;
      if (spec.unitsPerRun !== undefined) extras.push(`${per.toFixed(3)} PF/${unitNoun(spec.unit)}`);
    }
    const extra = extras.length > 0 ? ` (${extras.join(', ')})` : '';
    heap.push(`${LABELS[m.engine]} ${formatBytes(m.allocatedBytes)}${extra}`);
  }
  return {
    workload: spec.workload,
    unit: spec.unit,
    ...cells,
    ...spec.fixed,
    heap: heap.join(' · '),
    failures,
    notes: spec.notes ?? [],
    samplesMs,
    gcShare,
    pageFaults,
  };
}

/** `task` for `µs/task`: what one unit of a per-unit row is. */
function unitNoun(unit: string): string {
  return unit.slice(unit.lastIndexOf('/') + 1) || 'run';
}

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return '?';
  const size = Math.abs(value);
  if (size >= 100) return value.toFixed(0);
  if (size >= 10) return value.toFixed(1);
  if (size >= 1) return value.toFixed(2);
  return value.toPrecision(2);
}

function formatCell(cell: Cell, unit: string): string {
  if (cell === null) return '–';
  if (typeof cell === 'string') return cell;
  return `${formatNumber(cell)} ${unit}`;
}

function ratio(a: Cell, b: Cell): string {
  if (typeof a !== 'number' || typeof b !== 'number' || b === 0) return '–';
  return `${formatNumber(a / b)}×`;
}

const HEADER = ['workload', 'Weft', 'LangGraph', 'floor', 'Weft/LangGraph', 'Weft/floor', 'heap'] as const;

function rowCells(row: Row): string[] {
  const showRatios = row.ratios ?? true;
  return [
    row.workload,
    formatCell(row.weft, row.unit),
    formatCell(row.langgraph, row.unit),
    formatCell(row.floor, row.unit),
    showRatios ? ratio(row.weft, row.langgraph) : '–',
    showRatios ? ratio(row.weft, row.floor) : '–',
    row.heap || '–',
  ];
}

/** The results as an aligned Markdown table (readable in a terminal and pasteable into README.md). */
export function renderTable(rows: readonly Row[]): string {
  const lines = [[...HEADER], ...rows.map(rowCells)];
  const widths = HEADER.map((_, column) => Math.max(...lines.map((cells) => cells[column]!.length)));
  const render = (cells: readonly string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  const rule = `| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`;
  return [render(lines[0]!), rule, ...lines.slice(1).map(render)].join('\n');
}

/** Notes and failures, one per line, for printing under the table. */
export function renderNotes(rows: readonly Row[]): string[] {
  const lines: string[] = [];
  for (const row of rows) {
    for (const note of row.notes) lines.push(`- ${row.workload}: ${note}`);
    for (const failure of row.failures) lines.push(`- CHECK FAILED ${failure}`);
  }
  return lines;
}

/**
 * Joins the rows each engine's process produced into one row per workload line (matched by name, in
 * first-seen order): each engine's cell comes from its own process; heap texts, notes and failures are
 * joined. A process that produced no rows at all (it crashed) gets a `FAIL` row of its own.
 */
export function mergeRows(byEngine: ReadonlyMap<Engine, readonly Row[] | undefined>): Row[] {
  const merged = new Map<string, Row>();
  for (const [engine, rows] of byEngine) {
    for (const row of rows ?? []) {
      const seen = merged.get(row.workload);
      const base: Row = seen ?? {
        ...row,
        weft: null,
        langgraph: null,
        floor: null,
        heap: '',
        failures: [],
        notes: [],
        samplesMs: {},
        gcShare: {},
        pageFaults: {},
      };
      const own = row.samplesMs?.[engine];
      const ownGc = row.gcShare?.[engine];
      const ownFaults = row.pageFaults?.[engine];
      merged.set(row.workload, {
        ...base,
        [engine]: row[engine],
        heap: [base.heap, row.heap].filter((text) => text && text !== '–').join(' · '),
        failures: [...base.failures, ...row.failures],
        notes: [...base.notes, ...row.notes.filter((note) => !base.notes.includes(note))],
        samplesMs: { ...base.samplesMs, ...(own ? { [engine]: own } : {}) },
        gcShare: { ...base.gcShare, ...(ownGc === undefined ? {} : { [engine]: ownGc }) },
        pageFaults: { ...base.pageFaults, ...(ownFaults === undefined ? {} : { [engine]: ownFaults }) },
      });
    }
  }
  const result = [...merged.values()];
  for (const [engine, rows] of byEngine) if (!rows) result.push(crashRow(engine));
  return result;
}

function crashRow(engine: Engine): Row {
  return {
    workload: `${engine} process`,
    unit: '',
    weft: null,
    langgraph: null,
    floor: null,
    [engine]: 'FAIL',
    heap: '',
    failures: [`the ${engine} process ended without results (see its output above)`],
    notes: [],
  };
}
