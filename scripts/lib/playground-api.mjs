// Drives a running playground through its JSON API, as its web app does: list graphs, chat with an
// agent turn by turn. `url` is the link `weft dev` prints (`http://127.0.0.1:4317/?token=…`): its access
// token goes with every request as `Authorization: Bearer`, as the web app's cookie would.
import { setTimeout as sleep } from 'node:timers/promises';
import { getJson } from './shell.mjs';

/** The headers that carry the access token of the printed link `url` (none when it has none). */
function auth(url) {
  const token = new URL(url).searchParams.get('token');
  return token ? { authorization: `Bearer ${token}` } : {};
}

const json = (url, body) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...auth(url) },
  body: JSON.stringify(body),
});

/** GET `path` of the playground at `url`, with its token. */
const read = (url, path) => getJson(new URL(path, url), { headers: auth(url) });

/** The ids the playground at `url` serves (`GET /api/graphs`). */
export async function servedGraphs(url) {
  const { graphs } = await read(url, '/api/graphs');
  return graphs.map((graph) => graph.id);
}

/** Waits until a run is no longer running (polled: this drives a server from a script, not a test). */
async function settled(url, run, timeoutMs = 60_000) {
  for (let waited = 0; waited < timeoutMs; waited += 100) {
    const info = await read(url, `/api/runs/${run.id}`);
    if (info.status !== 'running') return info;
    await sleep(100);
  }
  throw new Error(`run ${run.id} still running after ${timeoutMs / 1000} s`);
}

/**
 * Sends each message to agent `agentId` on one new thread, a turn after the previous ends, and returns
 * the assistant's text replies in order. Throws naming the turn when a run does not end `done`.
 */
export async function chat(url, agentId, messages) {
  const thread = await getJson(new URL('/api/threads', url), json(url, { graphId: agentId }));
  for (const [turn, message] of messages.entries()) {
    const run = await getJson(
      new URL(`/api/threads/${thread.id}/runs`, url),
      json(url, { input: { message } }),
    );
    const ended = await settled(url, run);
    if (ended.status !== 'done')
      throw new Error(
        `turn ${turn + 1} ("${message}") ended ${ended.status}: ${JSON.stringify(ended.error)}`,
      );
  }
  const state = await read(url, `/api/threads/${thread.id}/state`);
  return (state.values.messages ?? [])
    .filter((m) => m.role === 'assistant')
    .map((m) => (typeof m.content === 'string' ? m.content : m.content.map((p) => p.text ?? '').join('')))
    .filter((text) => text !== '');
}
