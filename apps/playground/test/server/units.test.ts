import { WeftError } from '@weft/compose';
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/cli/parse-args.ts';
import { appFromModule, defineApp, isAgent, isCompiledGraph } from '../../src/server/define-app.ts';
import { buildAssistantAgent } from '../../src/server/demo/assistant-agent.ts';
import { buildMapReduceGraph } from '../../src/server/demo/map-reduce-graph.ts';
import { errorResponse, HttpError } from '../../src/server/http-error.ts';
import { toJson } from '../../src/server/json-safe.ts';

describe('weft CLI arguments', () => {
  it('reads the entry, port, host, database and watch flag', () => {
    expect(parseCommand(['dev'])).toEqual({
      command: 'dev',
      entry: undefined,
      host: '127.0.0.1',
      port: 4317,
      allowedHosts: [],
      token: undefined,
      maxBodyBytes: 10 * 1024 * 1024,
      database: '.weft/weft.db',
      watch: true,
    });
    expect(parseCommand(['dev', 'graphs.ts', '-p', '0', '--db', 'x.db', '--no-watch'])).toMatchObject({
      entry: 'graphs.ts',
      port: 0,
      database: 'x.db',
      watch: false,
    });
    expect(parseCommand([])).toMatchObject({ command: 'dev', workers: undefined });
    expect(
      parseCommand([
        'dev',
        'graphs.ts',
        '--redis',
        'redis://r',
        '--pg',
        'postgres://p',
        '--queue',
        'q',
        '--schema',
        's',
      ]),
    ).toMatchObject({ workers: { redis: 'redis://r', pg: 'postgres://p', queue: 'q', schema: 's' } });
    expect(parseCommand(['--help'])).toBe('help');
  });

  it('takes the port from WEFT_PORT when no --port is given, and names a bad one', () => {
    expect(parseCommand(['dev'], { WEFT_PORT: '0' })).toMatchObject({ port: 0 });
    expect(parseCommand(['dev', '--port', '5000'], { WEFT_PORT: '0' })).toMatchObject({ port: 5000 });
    expect(() => parseCommand(['dev'], { WEFT_PORT: 'x' })).toThrow(/WEFT_PORT "x"/);
  });

  it('reads the guard options: allowed hosts, token (flag or WEFT_TOKEN) and body cap', () => {
    const args = ['dev', '--host', '0.0.0.0', '--allow-host', 'devbox', '--allow-host', 'devbox.lan'];
    expect(parseCommand([...args, '--max-body', '2.5'])).toMatchObject({
      host: '0.0.0.0',
      allowedHosts: ['devbox', 'devbox.lan'],
      token: undefined,
      maxBodyBytes: 2.5 * 1024 * 1024,
    });
    const env = { WEFT_TOKEN: 'from-the-env' };
    expect(parseCommand(args, env)).toMatchObject({ token: 'from-the-env' });
    expect(parseCommand([...args, '--token', 'from-a-flag'], env)).toMatchObject({ token: 'from-a-flag' });
    expect(() => parseCommand(['dev', '--max-body', '0'])).toThrow(/--max-body/);
    expect(() => parseCommand(['dev', '--token', 'short'])).toThrow(/--token/);
  });

  it('names what is wrong', () => {
    expect(() => parseCommand(['dev', '--port', 'abc'])).toThrow(/--port/);
    expect(() => parseCommand(['serve'])).toThrow(/unknown command "serve"/);
    expect(() => parseCommand(['dev', 'a.ts', 'b.ts'])).toThrow(/unexpected argument "b.ts"/);
    expect(() => parseCommand(['dev', '--redis', 'redis://r'])).toThrow(/both --redis <url> and --pg <url>/);
    expect(() => parseCommand(['dev', '--queue', 'q'])).toThrow(/--queue and --schema need --redis and --pg/);
  });
});

describe('entry modules', () => {
  it('collects compiled graphs and agents from named exports, or takes a defineApp result', () => {
    const graph = buildMapReduceGraph();
    const agent = buildAssistantAgent();
    expect(isCompiledGraph(graph)).toBe(true);
    expect(isAgent(agent)).toBe(true);
    expect(isAgent(graph)).toBe(false);
    const collected = appFromModule({ research: graph, helper: agent, other: 42, default: graph });
    expect(Object.keys(collected.graphs ?? {})).toEqual(['research', 'map-reduce']);
    expect(Object.keys(collected.agents ?? {})).toEqual(['helper']);
    const declared = defineApp({ graphs: { g: graph } });
    expect(appFromModule({ default: declared, research: graph })).toBe(declared);
    const workerStyle = appFromModule({ graphs: { direct: graph, factory: () => graph, bad: () => 42 } });
    expect(Object.keys(workerStyle.graphs ?? {})).toEqual(['direct', 'factory']);
  });
});

describe('JSON for the API', () => {
  it('makes any value JSON-safe', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(
      toJson({
        d: new Date(0),
        m: new Map([['k', 1n]]),
        s: new Set([1]),
        f: () => 1,
        u: undefined,
        n: Number.NaN,
        cyclic,
      }),
    ).toEqual({
      d: '1970-01-01T00:00:00.000Z',
      m: { k: '1' },
      s: [1],
      n: 'NaN',
      cyclic: { a: 1, self: '[Circular]' },
    });
    expect(toJson(new WeftError('ABORTED', 'stop'))).toEqual({
      name: 'WeftError',
      message: 'stop',
      code: 'ABORTED',
    });
  });

  it('maps errors to statuses without leaking crashes', () => {
    expect(errorResponse(new HttpError(409, 'THREAD_BUSY', 'busy')).status).toBe(409);
    expect(errorResponse(new WeftError('NOT_FOUND', 'x')).status).toBe(404);
    expect(errorResponse(new WeftError('INVALID_ARGUMENT', 'x')).status).toBe(400);
    expect(errorResponse(new Error('boom'))).toEqual({
      status: 500,
      body: { error: { code: 'INTERNAL', message: 'boom' } },
    });
  });
});
