// One process per engine, taking turns: the coordinator forks a child per engine (same script, same
// node flags, `--engine <name>`) and hands a single token around. A child runs only while it holds the
// token and gives it back before each timed sample, so samples alternate across engines in rounds whose
// order rotates (A B C, B C A, C A B, …: no engine always runs right after the same one, so a load
// pattern cannot favour one), and no two processes ever run at once on the machine's cores.
//
// Why separate processes: LangGraph's first run switches on AsyncLocalStorage for the whole process,
// which makes every later promise slower — Weft's streams and the plain-async floor included (the floor
// chain measured 0.11 µs/step before a LangGraph run and 0.27 after, in one process).
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type Engine, rotated } from './harness.ts';
import type { Row } from './table.ts';

/** Coordinator → child. */
interface Go {
  readonly type: 'go';
}

/** Child → coordinator. */
type ChildMessage = { readonly type: 'yield' } | { readonly type: 'rows'; readonly rows: readonly Row[] };

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));

/** True in a child forked by {@link runEngineProcesses}. */
export function isEngineProcess(): boolean {
  return typeof process.send === 'function';
}

/** A child's turn: give the token back and wait until it comes round again (no-op when standalone). */
export async function takeTurn(): Promise<void> {
  const send = process.send?.bind(process);
  if (!send) return;
  await new Promise<void>((resolve) => {
    const onMessage = (message: Go) => {
      if (message?.type !== 'go') return;
      process.off('message', onMessage);
      resolve();
    };
    process.on('message', onMessage);
    send({ type: 'yield' } satisfies ChildMessage);
  });
}

/** Sends a child's rows to the coordinator and lets the child exit. */
export async function reportRows(rows: readonly Row[]): Promise<void> {
  const send = process.send?.bind(process);
  if (!send) throw new Error('reportRows is for engine processes (forked by the coordinator)');
  await new Promise<void>((resolve, reject) =>
    send({ type: 'rows', rows } satisfies ChildMessage, (error: Error | null) =>
      error ? reject(error) : resolve(),
    ),
  );
  process.disconnect();
}

interface Child {
  readonly engine: Engine;
  waiting: boolean;
  alive: boolean;
  rows: readonly Row[] | undefined;
  send(message: Go): void;
}

/**
 * Forks one process per engine with `args` (plus `--engine`) and runs them turn by turn. Resolves with
 * each engine's rows, `undefined` for a process that ended without reporting (it crashed).
 */
export async function runEngineProcesses(
  engines: readonly Engine[],
  args: readonly string[],
): Promise<Map<Engine, readonly Row[] | undefined>> {
  const children: Child[] = [];
  let running: Child | undefined;
  // Rounds: every live child gets one turn per round; each round starts one child later than the last.
  let round = 0;
  let served = new Set<Child>();
  const grant = (): void => {
    if (running) return;
    const live = children.filter((child) => child.alive);
    if (live.length === 0) return;
    if (live.every((child) => served.has(child))) {
      round++;
      served = new Set();
    }
    const order = rotated(live, round);
    const next =
      order.find((child) => child.waiting && !served.has(child)) ?? order.find((child) => child.waiting);
    if (!next) return;
    next.waiting = false;
    running = next;
    served.add(next);
    next.send({ type: 'go' });
  };
  const finished = engines.map(
    (engine) =>
      new Promise<void>((resolve) => {
        const process_ = fork(MAIN, [...args, '--engine', engine], {
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        });
        const child: Child = {
          engine,
          waiting: false,
          alive: true,
          rows: undefined,
          send: (message) => process_.send(message),
        };
        children.push(child);
        process_.on('message', (message: ChildMessage) => {
          if (message.type === 'rows') {
            child.rows = message.rows;
            return;
          }
          child.waiting = true;
          if (running === child) running = undefined;
          grant();
        });
        process_.on('exit', () => {
          child.waiting = false;
          child.alive = false;
          if (running === child) running = undefined;
          grant();
          resolve();
        });
      }),
  );
  await Promise.all(finished);
  return new Map(engines.map((engine) => [engine, children.find((c) => c.engine === engine)?.rows]));
}
