import type { Checkpointer } from '@weft/compose';
import { PostgresCheckpointer } from '@weft/store-postgres';
import { PostgresRunJournal } from '../postgres-run-journal.js';

/**
 * The run journal a worker or client uses: the one given; none when `false` (an explicit opt-out);
 * else, when `checkpointer` is a {@link PostgresCheckpointer}, a journal on its pool and schema — so a
 * deployment whose threads live in PostgreSQL records its runs there too, and a Redis restart loses
 * none of them, without anyone having to remember the option.
 */
export function defaultJournal(
  journal: PostgresRunJournal | false | undefined,
  checkpointer: Checkpointer | undefined,
): PostgresRunJournal | undefined {
  if (journal === false) return undefined;
  if (journal) return journal;
  if (!(checkpointer instanceof PostgresCheckpointer)) return undefined;
  const { pool, schema } = checkpointer.database();
  return new PostgresRunJournal({ pool, schema });
}
