import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WeftError } from '@weft/compose';
import { describe, expect, it } from 'vitest';
import { loadEvalSet, parseEvalSet } from './eval-set.js';
import { EvaluationError } from './evaluation-error.js';

describe('eval sets', () => {
  it('reads YAML and JSON files into the same validated set', async () => {
    const yaml = await loadEvalSet(new URL('../test/fixtures/calculator.yaml', import.meta.url).pathname);
    expect(yaml.cases.map((c) => c.id)).toEqual(['adds', 'multiplies', 'two-turns']);
    expect(yaml.cases[0]?.tags).toEqual(['smoke']);
    expect(yaml.cases[1]?.tags).toEqual([]);
    const dir = await mkdtemp(join(tmpdir(), 'weft-eval-'));
    const path = join(dir, 'set.json');
    await writeFile(path, JSON.stringify(yaml));
    expect(await loadEvalSet(path)).toEqual(yaml);
  });

  it('lists every problem with its path', () => {
    const bad = {
      name: 'x',
      cases: [
        { id: 'a', turns: [{ user: 'hi', resume: true }] },
        { id: 'a', turns: [] },
      ],
    };
    const error = captureError(() => parseEvalSet(bad));
    expect(error.code).toBe('INVALID_EVAL_SET');
    expect(error.message).toContain('cases.0.turns.0: a turn has exactly one of');
    expect(error.message).toContain('cases.1.turns:');
    expect(error.message).toContain('cases.1.id: duplicate case id "a"');
  });

  it('rejects an expectation with nothing to check, and unknown keys', () => {
    const error = captureError(() =>
      parseEvalSet({
        name: 'x',
        cases: [{ id: 'a', turns: [{ user: 'hi', expect: { response: {}, tool: [] } }] }],
      }),
    );
    expect(error.message).toContain('give at least one of exact, contains, regex, rubric or reference');
    expect(error.message).toContain('Unrecognized key');
  });

  it('names the file when its text is not YAML or the extension is unknown', async () => {
    expect(captureError(() => parseEvalSet('name: [', 'yaml', 'evals/a.yaml')).message).toMatch(
      /^evals\/a.yaml: not valid YAML/,
    );
    await expect(loadEvalSet('evals/a.txt')).rejects.toThrow(/ends in .json, .yaml or .yml/);
  });
});

function captureError(fn: () => unknown): EvaluationError {
  try {
    fn();
  } catch (error) {
    if (EvaluationError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an EvaluationError');
}

it('its errors are Weft errors of the eval family', () => {
  try {
    parseEvalSet({ name: 'x', cases: [] });
  } catch (error) {
    expect(WeftError.isInstance(error)).toBe(true);
    expect((error as WeftError<string>).family).toBe('eval');
    return;
  }
  throw new Error('expected an error');
});
