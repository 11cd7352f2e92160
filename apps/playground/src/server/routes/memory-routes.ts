import type { Artifact } from '@weft/adk';
import { Hono } from 'hono';
import type { ArtifactInfo, MemorySearchInfo, ThreadArtifactsInfo } from '../../shared/memory-wire.ts';
import type { PlaygroundApp } from '../define-app.ts';
import { HttpError } from '../http-error.ts';
import type { RecallLog } from '../memory/recall-log.ts';

/** What the memory routes read: the current app (it changes on reload) and the recall log. */
export interface MemoryRouteContext {
  app(): PlaygroundApp;
  readonly recalls: RecallLog;
}

const TEXTUAL = /^(text\/|application\/(json|xml|yaml|csv)\b)|\+(json|xml)$/;

/**
 * The Memory tab's and the thread artifacts' API: `GET /api/memory?userId=&q=&limit=` (the user's
 * memories matching `q`, or all of them, newest first, without it; and what was recalled for each of the
 * user's turns) and `GET /api/artifacts/:threadId` (the artifacts of the thread's session and of its
 * user, with versions and the latest text). An app without a memory or artifacts answers
 * `enabled: false`.
 *
 * @example
 * ```ts
 * app.route('/api', memoryRoutes({ app: () => current, recalls }));
 * ```
 */
export function memoryRoutes(ctx: MemoryRouteContext): Hono {
  const routes = new Hono();
  routes.get('/memory', async (c) => {
    const app = ctx.app();
    const appName = app.session?.appName ?? 'playground';
    const userId = c.req.query('userId') || (app.session?.userId ?? 'playground-user');
    const query = c.req.query('q')?.trim() ?? '';
    const limit = Number(c.req.query('limit') ?? 20);
    if (!Number.isInteger(limit) || limit < 1 || limit > 200)
      throw new HttpError(400, 'INVALID_QUERY', 'limit must be an integer from 1 to 200');
    const memory = app.memory;
    const scope = { appName, userId };
    const memories = !memory
      ? []
      : query === ''
        ? (await memory.list(scope)).slice(0, limit)
        : await memory.search(query, { ...scope, limit });
    const body: MemorySearchInfo = {
      enabled: memory !== undefined,
      appName,
      userId,
      memories,
      recalls: ctx.recalls.forUser(userId),
    };
    return c.json(body);
  });
  routes.get('/artifacts/:threadId', async (c) => {
    const app = ctx.app();
    const service = app.artifacts;
    if (!service) return c.json({ enabled: false, artifacts: [] } satisfies ThreadArtifactsInfo);
    const key = {
      appName: app.session?.appName ?? 'playground',
      userId: c.req.query('userId') || (app.session?.userId ?? 'playground-user'),
      sessionId: c.req.param('threadId'),
    };
    const artifacts: ArtifactInfo[] = [];
    for (const name of await service.list(key)) {
      const latest = await service.load(key, name);
      if (latest) artifacts.push({ ...infoOf(latest), versions: await service.versions(key, name) });
    }
    return c.json({ enabled: true, artifacts } satisfies ThreadArtifactsInfo);
  });
  return routes;
}

function infoOf(artifact: Artifact): Omit<ArtifactInfo, 'versions'> {
  return {
    name: artifact.name,
    mimeType: artifact.mimeType,
    size: artifact.size,
    ...(TEXTUAL.test(artifact.mimeType)
      ? { text: new TextDecoder().decode(artifact.data).slice(0, 20_000) }
      : {}),
  };
}
