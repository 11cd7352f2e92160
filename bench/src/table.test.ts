import { describe, expect, it } from 'vitest';
import type { Engine } from './harness.ts';
import { measurementRow, mergeRows, type Row } from './table.ts';

function row(workload: string, engine: Engine, value: number | string, extra: Partial<Row> = {}): Row {
  return {
    workload,
    unit: 'ms',
    weft: null,
    langgraph: null,
    floor: null,
    [engine]: value,
    heap: `${engine} heap`,
    failures: [],
    notes: ['shared note'],
    samplesMs: typeof value === 'number' ? { [engine]: [value] } : {},
    ...extra,
  };
}

describe('mergeRows', () => {
  it('takes each engine’s cell from its own process and joins the rest', () => {
    const merged = mergeRows(
      new Map<Engine, readonly Row[]>([
        ['weft', [row('chain', 'weft', 1), row('loop', 'weft', 2)]],
        [
          'langgraph',
          [row('chain', 'langgraph', 100), row('loop', 'langgraph', 200, { failures: ['lg broke'] })],
        ],
        ['floor', [row('chain', 'floor', 0.5), row('loop', 'floor', 0.25, { notes: ['floor note'] })]],
      ]),
    );
    expect(merged.map((r) => [r.workload, r.weft, r.langgraph, r.floor])).toEqual([
      ['chain', 1, 100, 0.5],
      ['loop', 2, 200, 0.25],
    ]);
    expect(merged[0]?.heap).toBe('weft heap · langgraph heap · floor heap');
    expect(merged[1]?.notes).toEqual(['shared note', 'floor note']);
    expect(merged[1]?.failures).toEqual(['lg broke']);
    expect(merged[0]?.samplesMs).toEqual({ weft: [1], langgraph: [100], floor: [0.5] });
  });

  it('keeps rows only one engine produced, matched by name, in first-seen order', () => {
    const merged = mergeRows(
      new Map<Engine, readonly Row[]>([
        ['weft', [row('a', 'weft', 1), row('sqlite', 'weft', 5), row('b', 'weft', 2)]],
        ['langgraph', [row('a', 'langgraph', 10), row('b', 'langgraph', 20)]],
      ]),
    );
    expect(merged.map((r) => [r.workload, r.weft, r.langgraph])).toEqual([
      ['a', 1, 10],
      ['sqlite', 5, null],
      ['b', 2, 20],
    ]);
  });

  it('adds a failing row for a process that reported nothing', () => {
    const merged = mergeRows(
      new Map<Engine, readonly Row[] | undefined>([
        ['weft', [row('a', 'weft', 1)]],
        ['langgraph', undefined],
      ]),
    );
    expect(merged).toHaveLength(2);
    expect(merged[1]?.langgraph).toBe('FAIL');
    expect(merged[1]?.failures[0]).toMatch(/langgraph process ended without results/);
  });
});

describe('measurementRow', () => {
  const measured = (engine: Engine, pageFaultsPerRun: number) => ({
    engine,
    medianMs: 2,
    samplesMs: [2],
    allocatedBytes: 2048,
    gcShare: 0.5,
    pageFaultsPerRun,
  });

  it('gives page faults per unit next to the GC share when the row says how many units a run has', () => {
    const row = measurementRow({ workload: 'send', unit: 'µs/task', unitsPerRun: 1000 }, [
      measured('weft', 70),
      measured('floor', 50),
    ]);
    expect(row.heap).toBe('W 2.0 KB (GC 50%, 0.070 PF/task) · floor 2.0 KB (GC 50%, 0.050 PF/task)');
    expect(row.pageFaults).toEqual({ weft: 0.07, floor: 0.05 });
  });

  it('keeps page faults out of the heap column of other rows (in the results, per run)', () => {
    const row = measurementRow({ workload: 'chain', unit: 'ms' }, [measured('weft', 3)]);
    expect(row.heap).toBe('W 2.0 KB (GC 50%)');
    expect(row.pageFaults).toEqual({ weft: 3 });
  });
});
