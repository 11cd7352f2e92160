// Weft's server in a process of its own (so its memory is measured alone), on a SQLite file.
import { serve } from '@weft/server';
import { bench } from './weft-graph.ts';

const running = await serve({
  graphs: { bench },
  database: process.argv[2] ?? ':memory:',
  port: 0,
  limits: { concurrentRunsPerUser: 100_000 },
  log: () => undefined,
});
console.log(`listening ${running.url}`);
