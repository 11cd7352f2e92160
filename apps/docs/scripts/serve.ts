// Serves the built site (.vitepress/dist) on 127.0.0.1 for the tests and `pnpm --filter @weft/docs preview`:
// clean URLs as VitePress writes them (`/tutorials/first-graph` → first-graph.html), 404.html for the
// rest. Read-only static files; requests naming another host are refused (DNS rebinding).
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import sirv from 'sirv';
import { distDir } from './paths.ts';

/** A running static server of the built site. */
export interface SiteServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Starts the server (port 0: any free port).
 *
 * @throws Error when the site is not built.
 */
export async function serveSite(options: { port?: number; dir?: string } = {}): Promise<SiteServer> {
  const dir = options.dir ?? distDir;
  if (!existsSync(join(dir, 'index.html')))
    throw new Error(`${dir} holds no built site: run pnpm docs:build`);
  const files = sirv(dir, { extensions: ['html'], dev: false });
  const notFound = readFileSync(join(dir, '404.html'));
  let port = 0;
  const server: Server = createServer((request, response) => {
    const host = request.headers.host ?? '';
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
      response.writeHead(403, { 'content-type': 'text/plain' }).end('forbidden host');
      return;
    }
    files(request, response, () => {
      response.writeHead(404, { 'content-type': 'text/html' }).end(notFound);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.argv[2] ?? 4173);
  const site = await serveSite({ port });
  console.log(`the built site: ${site.url}/`);
}
