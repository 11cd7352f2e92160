import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Durability } from '../checkpoint/checkpoint-session.js';
import type { Checkpointer } from '../checkpoint/checkpointer.js';
import type { PendingInterrupt } from '../pregel/task.js';
import { Command } from '../vocabulary/command.js';
import type { CheckpointerFixture } from './checkpointer-conformance.js';
import { dagMatrixScenarios } from './durability/dag-matrix-scenarios.js';
import {
  answerFor,
  type MatrixApp,
  MatrixProbe,
  type MatrixScenario,
  matrixScenarios,
} from './durability/matrix-scenarios.js';
import { describeSemanticsCases } from './semantics/semantics-cases.js';

/** How the matrix drives a graph: `invoke` (output with `__interrupt__`) or the `values` stream. */
type DriveMode = 'invoke' | 'stream';

interface Outcome {
  readonly state: Record<string, unknown>;
  readonly interrupts: readonly PendingInterrupt[];
}

interface DriveOptions {
  readonly threadId: string;
  readonly durability: Durability;
}

async function drive(
  app: MatrixApp,
  mode: DriveMode,
  input: unknown,
  options: DriveOptions,
): Promise<Outcome> {
  let output: unknown;
  if (mode === 'invoke') output = await app.invoke(input, options);
  else for await (const part of app.stream(input, { ...options, mode: 'values' })) output = part;
  const { __interrupt__, ...state } = output as Record<string, unknown>;
  return { state, interrupts: (__interrupt__ as PendingInterrupt[] | undefined) ?? [] };
}

/** The resume command for the given pauses: a single value, or a map by interrupt id for several. */
function resumeFor(interrupts: readonly PendingInterrupt[]): Command {
  const answers = interrupts.map((i) => [i.id, answerFor((i.value as { ask: string }).ask)] as const);
  if (answers.length === 1) return new Command({ resume: answers[0]?.[1] });
  return new Command({ resume: Object.fromEntries(answers) });
}

async function reference(
  scenario: MatrixScenario,
): Promise<{ state: unknown; runs: Record<string, number> }> {
  const probe = new MatrixProbe(true);
  const state = await scenario.build(probe, undefined).invoke({});
  return { state, runs: probe.runs };
}

async function pauseAndResume(
  scenario: MatrixScenario,
  mode: DriveMode,
  checkpointer: Checkpointer,
  durability: Durability,
): Promise<void> {
  const expected = await reference(scenario);
  const probe = new MatrixProbe(false);
  const options = { threadId: `matrix-${scenario.name}-${mode}-${durability}`, durability };
  const { threadId } = options;
  const paused = await drive(scenario.build(probe, checkpointer), mode, {}, options);
  expect(paused.interrupts.map((i) => (i.value as { ask: string }).ask).sort()).toEqual(
    [...scenario.pausing].sort(),
  );
  expect(new Set(paused.interrupts.map((i) => i.id)).size).toBe(scenario.pausing.length);
  for (const key of scenario.pausing) expect(probe.runs[key], key).toBe(1);
  // A new compiled graph over the same store resumes: nothing is kept in memory between the calls.
  const app = scenario.build(probe, checkpointer);
  const waiting = await app.getState(threadId);
  expect(waiting?.interrupts.length).toBe(scenario.pausing.length);
  const done = await drive(app, mode, resumeFor(paused.interrupts), options);
  expect(done.interrupts).toEqual([]);
  expect(done.state).toEqual(expected.state);
  const runs = { ...expected.runs };
  for (const key of scenario.pausing) runs[key] = (runs[key] ?? 0) + 1;
  expect(probe.runs).toEqual(runs);
  const final = await app.getState(threadId);
  expect(final?.values).toEqual(expected.state);
  expect(final?.next).toEqual([]);
  expect(final?.interrupts).toEqual([]);
}

/** Options of {@link describeDurabilityMatrix}. */
export interface DurabilityMatrixOptions {
  /** Durability modes to run every case in (default `['sync']`). */
  readonly durability?: readonly Durability[];
}

/**
 * Registers the pause/resume matrix against a checkpoint store: every graph shape (a single pause,
 * parallel pauses, pauses one and two subgraphs deep, parallel pauses inside a subgraph, a pause inside a
 * `Send` task; the DAG column: the same pauses in `mode: 'dag'`, one while a sibling still runs) × `invoke` and `stream` (× the durability modes asked for). Each case pauses, resumes from a
 * new compiled graph over the same store, and checks that only the paused nodes ran again and that the
 * final state equals a run whose nodes got their answers inline. It also runs the semantics cases (reducer
 * first writes, `updateState` on top and with `asNode: END`, `Command` input, resume validation, paused
 * steps, replay forks, subgraph outputs) on the store.
 *
 * @example
 * ```ts
 * import { describeDurabilityMatrix } from '@weft/compose/testing';
 *
 * describeDurabilityMatrix('MemoryCheckpointer', async () => ({ checkpointer: new MemoryCheckpointer() })); // or your store
 * ```
 */
export function describeDurabilityMatrix(
  name: string,
  factory: () => Promise<CheckpointerFixture>,
  options: DurabilityMatrixOptions = {},
): void {
  const runs = (options.durability ?? ['sync']).flatMap((durability) =>
    (['invoke', 'stream'] as const).map((mode) => [mode, durability] as const),
  );
  describe(`${name} (pause/resume matrix)`, () => {
    let fixture: CheckpointerFixture | undefined;

    beforeEach(async () => {
      fixture = await factory();
    });

    afterEach(async () => {
      const current = fixture;
      fixture = undefined;
      await current?.checkpointer.close?.();
      await current?.cleanup?.();
    });

    describeSemanticsCases(() => {
      if (!fixture) throw new Error('the matrix factory did not produce a store');
      return fixture.checkpointer;
    });

    const scenarios = [...matrixScenarios, ...dagMatrixScenarios];
    describe.each(scenarios.map((scenario) => [scenario.name, scenario] as const))(
      '%s',
      (_name, scenario) => {
        it.each(runs)('resumes only what paused (%s, %s durability)', async (mode, durability) => {
          if (!fixture) throw new Error('the matrix factory did not produce a store');
          await pauseAndResume(scenario, mode, fixture.checkpointer, durability);
        });
      },
    );
  });
}
