import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HashingEmbeddings } from '@weft/compose';
import { describeStoreConformance } from '@weft/compose/testing';
import { describe, expect, it } from 'vitest';
import { SqliteStore } from './sqlite-store.js';

describeStoreConformance('SqliteStore', async (options) => ({ store: new SqliteStore(options) }));

describe('SqliteStore on a file', () => {
  it('keeps documents and vectors across reopening', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-store-'));
    try {
      const filename = join(dir, 'store.db');
      const index = { embeddings: new HashingEmbeddings({ dimensions: 32 }), fields: ['text'] };
      const first = new SqliteStore({ filename, index });
      await first.put(['m', 'u1'], 'tea', { text: 'drinks green tea' });
      await first.put(['m', 'u1'], 'seat', { text: 'window seat please' });
      await first.close();
      const second = new SqliteStore({ filename, index });
      const [best] = await second.search(['m'], { query: 'green tea' });
      expect(best?.key).toBe('tea');
      expect(best?.score).toBeGreaterThan(0.5);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
