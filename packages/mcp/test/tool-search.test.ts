import { type AnyTool, ChatModelAgent, MemorySessionService, messageText, Runner } from '@weft/adk';
import { approximateTokenEstimator } from '@weft/adk/context';
import { drain, type ScriptedCall, ScriptedChatModel } from '@weft/adk/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LOADED_TOOLS_KEY, type McpToolset, mcpToolset, toolSearch } from '../src/index.js';
import { generatedToolServer } from './generated-tools.js';
import { type HostedEverything, hostStreamable } from './http-host.js';

let host: HostedEverything;
let toolset: McpToolset;
let tools: AnyTool[];
beforeAll(async () => {
  host = await hostStreamable(generatedToolServer);
  toolset = mcpToolset({ url: host.url, name: 'many-tools' });
  tools = await toolset.tools();
});
afterAll(async () => {
  await toolset.close();
  await host.close();
});

const estimator = approximateTokenEstimator();
/** Tokens of one model call's prompt: its messages plus the JSON of the tool specs it was offered. */
const promptTokens = (call: ScriptedCall) =>
  estimator.messages(call.messages) + estimator.text(JSON.stringify(call.options.tools ?? []));
const offered = (call: ScriptedCall | undefined) => (call?.options.tools ?? []).map((t) => t.name);

/** Searches, then calls the first tool the search listed (as a model reading the result would). */
function searchingModel() {
  return new ScriptedChatModel((messages, options, index) => {
    const last = messages.at(-1)!;
    if (last.role === 'user' && index === 0) {
      return {
        toolCalls: [{ name: 'search_tools', arguments: { query: 'send a message to a Slack channel' } }],
      };
    }
    if (last.role === 'tool' && last.name === 'search_tools') {
      const first = /^- (\S+):/m.exec(messageText(last))?.[1] ?? 'none';
      const callable = options.tools?.some((t) => t.name === first);
      return callable
        ? { toolCalls: [{ name: first, arguments: { title: 'Deploy done', body: 'v2 is live' } }] }
        : `Cannot call ${first}.`;
    }
    if (last.role === 'user')
      return { toolCalls: [{ name: 'slack_send_message', arguments: { title: 'Again' } }] };
    return `Sent: ${messageText(last)}`;
  });
}

describe('toolSearch over an MCP toolset of 300 tools', () => {
  test('the model finds the right tool, calls it, and it stays loaded for the session; prompts shrink', async () => {
    expect(tools).toHaveLength(300);
    const search = toolSearch({
      tools: () => toolset.tools(),
      alwaysLoaded: ['github_get_issue'],
      maxResults: 5,
    });
    const model = searchingModel();
    const agent = new ChatModelAgent({ name: 'ops', model, middleware: [search] });
    const sessions = new MemorySessionService();
    const runner = new Runner({ agent, sessionService: sessions, streaming: false });
    const first = await drain(
      runner.run({ userId: 'u', sessionId: 's', message: 'Tell #deploys that v2 is live' }),
    );
    const answer = first.filter((e) => e.message?.role === 'assistant').at(-1)?.message;
    expect(messageText(answer!)).toBe(
      'Sent: slack_send_message done with {"title":"Deploy done","body":"v2 is live"}',
    );
    const [searching, calling] = model.calls;
    expect(offered(searching)).toEqual(['search_tools', 'github_get_issue']);
    expect(offered(calling).slice(0, 2)).toEqual(['search_tools', 'github_get_issue']);
    expect(offered(calling)).toContain('slack_send_message');
    expect(offered(calling)).toHaveLength(2 + 5);
    // the next turn of the session calls the tool without searching again
    await drain(runner.run({ userId: 'u', sessionId: 's', message: 'And again' }));
    const again = model.calls[3];
    expect(offered(again)).toContain('slack_send_message');
    const session = await sessions.get({ appName: 'ops', userId: 'u', sessionId: 's' });
    expect(session?.state[LOADED_TOOLS_KEY]).toContain('slack_send_message');
    const last = session!.events.filter((e) => e.message?.role === 'assistant').at(-1)!;
    expect(messageText(last.message!)).toBe('Sent: slack_send_message done with {"title":"Again"}');

    // the same first call with every tool sent, for comparison
    const eager = new ScriptedChatModel(['ok']);
    const all = new ChatModelAgent({ name: 'ops', model: eager, tools });
    await drain(
      new Runner({ agent: all, sessionService: new MemorySessionService() }).run({
        userId: 'u',
        sessionId: 's',
        message: 'Tell #deploys that v2 is live',
      }),
    );
    const before = promptTokens(eager.calls[0]!);
    const after = model.calls.slice(0, 3).map(promptTokens);
    console.log(
      `tool search, 300 tools: prompt tokens per call ${before} with every tool, ${after.join(' / ')} with search (${(before / after[0]!).toFixed(0)}x smaller first call)`,
    );
    expect(Math.max(...after)).toBeLessThan(before / 10);
  });

  test('a search with no match says so and loads nothing; bad options are refused', async () => {
    const search = toolSearch({ tools, maxResults: 3 });
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'search_tools', arguments: { query: 'weather forecast' } }] },
      'none',
    ]);
    const agent = new ChatModelAgent({ name: 'ops', model, middleware: [search] });
    const events = await drain(
      new Runner({ agent, sessionService: new MemorySessionService(), streaming: false }).run({
        userId: 'u',
        sessionId: 's',
        message: 'weather?',
      }),
    );
    const result = events.find((e) => e.message?.role === 'tool')?.message;
    expect(messageText(result!)).toBe('No tool matches "weather forecast". Try other words, or fewer.');
    expect(offered(model.calls[1])).toEqual(['search_tools']);
    expect(() => toolSearch({ tools, maxResults: 0 })).toThrow(/maxResults must be an integer of at least 1/);
    expect(() => toolSearch({ tools, alwaysLoaded: ['nope'] })).toThrow(/alwaysLoaded names "nope"/);
  });
});
