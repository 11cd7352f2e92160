import { describe, expect, it } from 'vitest';
import { ratio, share } from './interleaved.ts';
import type { Row } from './table.ts';

const row = (weft: Row['weft']): Row => ({
  workload: 'w',
  unit: 'ms',
  weft,
  langgraph: null,
  floor: null,
  heap: '',
  failures: [],
  notes: [],
});

describe('ratios of interleaved rows', () => {
  it('divide the Weft cells', () => {
    expect(share(row(3), row(2))).toBe(1.5);
    expect(ratio(row(3), row(2))).toBe('1.50×');
  });

  it('have none when either Weft cell is not a number', () => {
    expect(share(row('FAIL'), row(2))).toBeUndefined();
    expect(share(row(3), row(null))).toBeUndefined();
    expect(ratio(row(null), row(2))).toBe('?');
  });
});
