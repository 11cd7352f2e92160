// A loopback HTTP server for a fetch-style handler, on port 0.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';

export interface Loopback {
  readonly url: string;
  close(): Promise<void>;
}

export async function listen(fetch: (request: Request) => Promise<Response>): Promise<Loopback> {
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
