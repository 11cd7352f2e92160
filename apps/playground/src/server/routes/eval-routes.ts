import { Hono } from 'hono';
import { z } from 'zod';
import type { EvalSetInfo } from '../../shared/eval-wire.ts';
import type { PlaygroundApp } from '../define-app.ts';
import { appAgents, loadAppEvals } from '../eval/app-evals.ts';
import type { EvalRuns } from '../eval/eval-runs.ts';
import { HttpError } from '../http-error.ts';
import { readBody } from '../server-context.ts';

const startBody = z.object({
  agentId: z.string().min(1),
  repeats: z.number().int().min(1).max(20).default(1),
});

/** What the eval routes read: the current app (it changes on reload) and the eval runs. */
export interface EvalRouteContext {
  app(): PlaygroundApp;
  readonly evalRuns: EvalRuns;
}

/**
 * The Evals tab's API: `GET /api/evals` (the app's eval sets with their cases and the agents they can
 * run against), `POST /api/evals/:setId/runs` `{ agentId, repeats? }` (202, runs in the background),
 * `GET /api/evals/:setId/runs` (newest first, without case details) and `GET /api/evals/runs/:runId`
 * (with the report once done).
 *
 * @example
 * ```ts
 * app.route('/api/evals', evalRoutes({ app: () => current, evalRuns }));
 * ```
 */
export function evalRoutes(ctx: EvalRouteContext): Hono {
  const routes = new Hono();
  routes.get('/', async (c) => {
    const app = ctx.app();
    const agents = [...appAgents(app).keys()];
    const sets = await loadAppEvals(app);
    return c.json(
      sets.map((loaded): EvalSetInfo => {
        if ('problem' in loaded)
          return { id: loaded.id, name: loaded.id, cases: [], agents, problem: loaded.problem };
        const { set } = loaded;
        return {
          id: loaded.id,
          name: set.name,
          ...(set.description ? { description: set.description } : {}),
          cases: set.cases.map((c) => ({ id: c.id, tags: c.tags, turns: c.turns.length })),
          agents,
        };
      }),
    );
  });
  routes.get('/runs/:runId', (c) => {
    const run = ctx.evalRuns.get(c.req.param('runId'));
    if (!run) throw new HttpError(404, 'NOT_FOUND', `no eval run "${c.req.param('runId')}"`);
    return c.json(run);
  });
  routes.get('/:setId/runs', (c) => c.json(ctx.evalRuns.list(c.req.param('setId'))));
  routes.post('/:setId/runs', async (c) => {
    const setId = c.req.param('setId');
    const body = await readBody(c, startBody);
    const app = ctx.app();
    const loaded = (await loadAppEvals(app)).find((s) => s.id === setId);
    if (!loaded) throw new HttpError(404, 'NOT_FOUND', `no eval set "${setId}"`);
    if ('problem' in loaded) throw new HttpError(400, 'INVALID_EVAL_SET', loaded.problem);
    const agents = appAgents(app);
    const agent = agents.get(body.agentId);
    if (!agent) {
      const known = [...agents.keys()].join(', ') || 'none';
      throw new HttpError(400, 'INVALID_BODY', `no agent "${body.agentId}" (known: ${known})`, [
        { path: 'agentId', message: `unknown agent; known: ${known}` },
      ]);
    }
    return c.json(
      ctx.evalRuns.start({ setId, set: loaded.set, agentId: body.agentId, agent, repeats: body.repeats }),
      202,
    );
  });
  return routes;
}
