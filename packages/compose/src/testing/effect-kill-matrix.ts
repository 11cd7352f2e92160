import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CountingServer } from './effects/counting-server.js';
import { type EffectKillState, effectKillPoints } from './effects/effect-kill-graph.js';
import type { SharedStoreFixture } from './multi-process-race.js';

/** Options of {@link describeEffectKillMatrix}. */
export interface EffectKillMatrixOptions {
  /** The suite's name (the store's). */
  readonly name: string;
  /** The store's child script: parses its own arguments, then calls `runEffectKillChild` with the rest. */
  readonly childScript: string;
  /** The package folder the child runs in (where `tsx` resolves). */
  readonly cwd: string;
  /** Makes a fresh store shared by the test and its child processes. */
  readonly fixture: () => Promise<SharedStoreFixture>;
  /** Skips the suite (e.g. no server configured). */
  readonly skip?: boolean;
}

interface Exit {
  readonly code: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Requests the charge's key reaches the external system with, per kill point (the email's: always 1). */
const chargeRequests: Record<(typeof effectKillPoints)[number], number> = {
  // Killed before the call: only the second process calls.
  'before-call': 1,
  // Called, killed before the record: the second process calls again with the same key (applied once).
  'after-call': 2,
  // Recorded: the second process gets the record and never calls.
  'after-record': 1,
  'during-checkpoint': 1,
};

/**
 * Registers the effect kill-point matrix (ADR 035) against a store: for each point around an effect —
 * before the external call, after it and before its record, after the record and before the step's
 * checkpoint, during that checkpoint — a child process starts an order (`charge` and `notify` are
 * effects calling a loopback server that counts requests by idempotency key) and kills itself there
 * with SIGKILL; a second process continues the thread with `null`. Asserted per point: the external
 * system applied each effect exactly once (the charge's requests: 2 after the call, else 1, always
 * under one key), and the run finished with the ids the external system gave.
 *
 * @example
 * ```ts
 * // packages/my-store/test/effect-kill-matrix.test.ts — `MyCheckpointer` is your store over a file
 * import { mkdtempSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { fileURLToPath } from 'node:url';
 * import type { Checkpointer } from '@weft/compose';
 * import { describeEffectKillMatrix } from '@weft/compose/testing';
 * declare const MyCheckpointer: new (options: { filename: string }) => Checkpointer;
 *
 * const packageDir = fileURLToPath(new URL('..', import.meta.url));
 * describeEffectKillMatrix({
 *   name: 'MyCheckpointer',
 *   childScript: join(packageDir, 'test', 'crash', 'effect-kill-child.ts'),
 *   cwd: packageDir,
 *   fixture: async () => {
 *     const filename = join(mkdtempSync(join(tmpdir(), 'effects-')), 'weft.db');
 *     return { open: () => new MyCheckpointer({ filename }), childArgs: [filename] };
 *   },
 * });
 * ```
 */
export function describeEffectKillMatrix(options: EffectKillMatrixOptions): void {
  describe.skipIf(options.skip === true)(`${options.name}: effects with SIGKILL at every point`, () => {
    let server: CountingServer;
    let store: SharedStoreFixture;
    const children: ChildProcess[] = [];

    beforeAll(async () => {
      server = await CountingServer.start();
    });
    afterAll(async () => {
      await server?.close();
    });
    beforeEach(async () => {
      store = await options.fixture();
    });
    afterEach(async () => {
      for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
      await store.cleanup?.();
    });

    const run = (args: readonly string[]): Promise<Exit> => {
      const child = spawn(
        'node',
        ['--conditions=@weft/source', '--import', 'tsx', options.childScript, ...store.childArgs, ...args],
        { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      children.push(child);
      let stdout = '';
      let stderr = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      return new Promise<Exit>((resolve) => {
        child.on('exit', (code, signal) => setImmediate(() => resolve({ code, signal, stdout, stderr })));
      });
    };

    for (const point of effectKillPoints) {
      it(`applies each effect once when killed ${point.replace('-', ' ')}`, async () => {
        const threadId = `effects-${point}-${process.pid}-${Date.now().toString(36)}`;
        const killed = await run([server.url, threadId, point]);
        expect({ signal: killed.signal, stderr: killed.stderr }).toEqual({ signal: 'SIGKILL', stderr: '' });
        const resumed = await run([server.url, threadId, 'resume']);
        expect(resumed.stderr).toBe('');
        expect(resumed.code).toBe(0);
        const state = JSON.parse(resumed.stdout) as EffectKillState;
        const mine = (path: string) =>
          [...server.requests].filter(([key]) => key.startsWith(`${path} `) && keyOf(key, server, threadId));
        const charges = mine('/charges');
        const emails = mine('/emails');
        expect(charges.map(([, n]) => n)).toEqual([chargeRequests[point]]);
        expect(emails.map(([, n]) => n)).toEqual([1]);
        expect(state).toEqual({
          order: threadId,
          receipt: server.applied.get(charges[0]?.[0] as string),
          mail: server.applied.get(emails[0]?.[0] as string),
          shipped: true,
        });
      });
    }
  });
}

/** Whether a request key belongs to `threadId`'s run: the server records which thread sent it. */
function keyOf(key: string, server: CountingServer, threadId: string): boolean {
  return server.threads.get(key) === threadId;
}
