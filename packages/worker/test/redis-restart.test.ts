import { describeRedisRestart } from './fixtures/restart-scenario.js';

describeRedisRestart('a Redis restart without persistence, with a journal given', ({ journal }) => ({
  worker: { journal },
  client: { journal },
}));
