/** A process saving artifacts to PostgreSQL: `artifact-writer.ts <url> <schema> <label> <count>`. */
import { StoreArtifactService } from '@weft/adk';
import { runArtifactWriterChild } from '@weft/adk/testing';
import { PostgresStore } from '../../src/postgres-store.js';

const [connectionString, schema] = process.argv.slice(2);
const store = new PostgresStore({ connectionString: connectionString ?? '', schema: schema ?? '' });
await runArtifactWriterChild(async () => new StoreArtifactService({ store }));
await store.close();
process.exit(0);
