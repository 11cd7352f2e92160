import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatModelAgent, MemorySessionService, messageText, Runner } from '@weft/adk';
import { drain, ScriptedChatModel } from '@weft/adk/testing';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { type McpToolset, type McpToolsetOptions, mcpToolset } from '../src/index.js';
import { childPids, everythingServer, toolMessages } from './servers.js';

const open: McpToolset[] = [];
function toolset(options: McpToolsetOptions): McpToolset {
  const made = mcpToolset(options);
  open.push(made);
  return made;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

/**
 * A process that reads its stdin, says something on stderr and never answers `initialize` (nor exits
 * when its stdin ends): a server stuck at start.
 */
function silentServer(marker: string, saidFile?: string): McpToolsetOptions {
  // With `saidFile`, the file is made once the stderr line is written.
  const tell = saidFile ? `require('node:fs').writeFileSync(${JSON.stringify(saidFile)}, '');` : '';
  const script = `process.stdin.resume(); console.error('${marker} is warming up'); ${tell} setInterval(() => {}, 1e9);`;
  return { command: process.execPath, args: ['-e', script, marker], name: marker };
}

describe('mcpToolset: connecting, crashing and closing', () => {
  test("a server that crashes during a call has its stderr quoted in the tool's error message", async () => {
    const marker = 'server-everything/dist/index.js';
    const everything = toolset({
      ...everythingServer(),
      name: 'everything',
      include: ['trigger-long-running-operation'],
    });
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'trigger-long-running-operation', arguments: { duration: 60, steps: 60 } }] },
      'done',
    ]);
    const agent = new ChatModelAgent({
      name: 'user',
      model,
      tools: await everything.tools(),
      middleware: [
        {
          wrapToolCall: (call, next) => {
            const result = next(call);
            for (const pid of childPids(marker)) process.kill(pid, 'SIGKILL');
            return result;
          },
        },
      ],
    });
    const runner = new Runner({ agent, sessionService: new MemorySessionService(), streaming: false });
    const [broken] = toolMessages(await drain(runner.run({ userId: 'u', sessionId: 's', message: 'go' })));
    expect(broken).toMatchObject({ status: 'error' });
    // what the reference server wrote on stderr when it started
    expect(messageText(broken!)).toMatch(
      /the connection closed during the call .*\(server stderr: Starting default \(STDIO\) server\.\.\.\)/,
    );
  });

  test('connectTimeoutMs ends a connect the server never answers, stops the process and quotes its stderr', async () => {
    const marker = 'weft-silent-a';
    const said = join(mkdtempSync(join(tmpdir(), 'weft-mcp-')), 'said');
    // The connect timer is a fake one, moved on once the server has written its stderr: the message
    // must quote it however slowly the process starts on a loaded machine.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const stuck = toolset({ ...silentServer(marker, said), connectTimeoutMs: 300 });
      const listing = stuck.tools().catch((caught: unknown) => caught);
      await expect.poll(() => existsSync(said), { timeout: 60_000 }).toBe(true);
      vi.advanceTimersByTime(300);
      const error = await listing;
      expect(error).toMatchObject({ code: 'CONNECTION_FAILED' });
      expect((error as Error).message).toMatch(
        /MCP server "weft-silent-a" .* did not answer `initialize` within 300 ms; it wrote: weft-silent-a is warming up/,
      );
    } finally {
      vi.useRealTimers();
    }
    expect(childPids(marker)).toEqual([]);
  });

  test('requestTimeoutMs covers the connect step when no connectTimeoutMs is given', async () => {
    const marker = 'weft-silent-b';
    const stuck = toolset({ ...silentServer(marker), requestTimeoutMs: 300 });
    await expect(stuck.tools()).rejects.toThrow(/did not answer `initialize` within 300 ms/);
    expect(childPids(marker)).toEqual([]);
  });

  test('close() during the first connect ends it and its process at once', async () => {
    const marker = 'weft-silent-c';
    // timeouts far beyond the test's own: only close() can end this connect
    const stuck = toolset({ ...silentServer(marker), connectTimeoutMs: 3_600_000 });
    const listing = stuck.tools().catch((caught: unknown) => caught);
    await expect.poll(() => childPids(marker), { timeout: 60_000 }).toHaveLength(1);
    await stuck.close();
    expect(childPids(marker)).toEqual([]);
    expect(await listing).toMatchObject({ code: 'CLOSED' });
  });

  test('connectTimeoutMs must be a positive number of milliseconds', () => {
    expect(() => mcpToolset({ command: 'x', connectTimeoutMs: 0 })).toThrow(
      /connectTimeoutMs must be a positive number/,
    );
  });
});
