/** A process saving artifacts to a SQLite file: `artifact-writer.ts <db> <label> <count>`. */
import { StoreArtifactService } from '@weft/adk';
import { runArtifactWriterChild } from '@weft/adk/testing';
import { SqliteStore } from '../../src/sqlite-store.js';

const [filename = ''] = process.argv.slice(2);
await runArtifactWriterChild(async () => new StoreArtifactService({ store: new SqliteStore({ filename }) }));
process.exit(0);
