import { type Agent, Runner } from '@weft/adk';
import { SqliteCheckpointer, SqliteSessionService } from '../src/index.js';

/**
 * One "process" of a restart test: new checkpointer, session service and Runner objects over the shared
 * SQLite file, running `agent`. `close()` closes both stores (the process "exits").
 */
export function restartedRunner(filename: string, agent: Agent) {
  const checkpointer = new SqliteCheckpointer({ filename });
  const sessionService = new SqliteSessionService({ filename });
  const runner = new Runner({ agent, sessionService, checkpointer, streaming: false });
  return {
    runner,
    sessionService,
    close: async () => Promise.all([checkpointer.close(), sessionService.close?.()]),
  };
}
