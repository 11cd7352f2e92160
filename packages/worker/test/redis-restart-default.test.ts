import { describeRedisRestart } from './fixtures/restart-scenario.js';

// Default settings: nobody names a journal; workers and client have the PostgreSQL checkpointer, so
// runs are recorded in PostgreSQL anyway (#47: before, this deployment lost two thirds of its runs).
describeRedisRestart('a Redis restart without persistence, with default settings', ({ checkpointer }) => ({
  worker: {},
  client: { checkpointer },
}));
