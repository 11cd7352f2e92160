import { MemoryCheckpointer } from '@weft/compose';
import { PostgresCheckpointer } from '@weft/store-postgres';
import { describe, expect, it } from 'vitest';
import { PostgresRunJournal } from '../postgres-run-journal.js';
import { defaultJournal } from './default-journal.js';

describe('defaultJournal', () => {
  // No connection is made: a pool connects on its first query.
  const postgres = new PostgresCheckpointer({
    connectionString: 'postgres://127.0.0.1:1/none',
    schema: 'agents',
  });

  it('keeps runs in PostgreSQL by default when the checkpointer is PostgreSQL, on its schema', () => {
    const journal = defaultJournal(undefined, postgres);
    expect(journal).toBeInstanceOf(PostgresRunJournal);
  });

  it('takes the journal given, and none when opted out or when the checkpointer is not PostgreSQL', () => {
    const given = new PostgresRunJournal({ connectionString: 'postgres://127.0.0.1:1/none' });
    expect(defaultJournal(given, postgres)).toBe(given);
    expect(defaultJournal(false, postgres)).toBeUndefined();
    expect(defaultJournal(undefined, new MemoryCheckpointer())).toBeUndefined();
    expect(defaultJournal(undefined, undefined)).toBeUndefined();
  });
});
