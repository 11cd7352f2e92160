import { HashingEmbeddings, MemoryStore, WeftError } from '@weft/compose';
import { cosineSimilarity } from '@weft/compose/store';
import { OpenAI } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { AdkError } from '../../errors/adk-error.js';
import {
  type OpenAICompatibleServer,
  startOpenAICompatibleServer,
} from '../../testing/openai-compatible-server.js';
import { OpenAIEmbeddings } from './openai-embeddings.js';

let server: OpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('OpenAIEmbeddings through the openai client', () => {
  it('embeds in batches, in input order, with the requested dimensions', async () => {
    server = await startOpenAICompatibleServer({ script: [] });
    const embeddings = new OpenAIEmbeddings({
      baseURL: server.baseURL,
      model: 'embed-test',
      dimensions: 16,
      batchSize: 2,
    });
    const texts = ['green tea', 'window seat', 'green tea please', 'trains'];
    const vectors = await embeddings.embed(texts);
    expect(vectors).toEqual(await new HashingEmbeddings({ dimensions: 16 }).embed(texts));
    expect(server.requests.map((request) => request.path)).toEqual(['/v1/embeddings', '/v1/embeddings']);
    expect(server.requests[0]?.body).toMatchObject({
      model: 'embed-test',
      input: ['green tea', 'window seat'],
      dimensions: 16,
      encoding_format: 'float',
    });
  });

  it('serves a store: ranking by the remote vectors', async () => {
    server = await startOpenAICompatibleServer({ script: [] });
    const embeddings = new OpenAIEmbeddings({ baseURL: server.baseURL, model: 'embed-test', dimensions: 64 });
    const store = new MemoryStore({ index: { embeddings, fields: ['text'] } });
    await store.put(['m'], 'tea', { text: 'drinks green tea' });
    await store.put(['m'], 'seat', { text: 'likes a window seat' });
    const [best] = await store.search(['m'], { query: 'window seat' });
    expect(best?.key).toBe('seat');
    const [query, seat] = await embeddings.embed(['window seat', 'likes a window seat']);
    expect(best?.score).toBeCloseTo(cosineSimilarity(query ?? [], seat ?? []), 5);
  });

  it('reads base64 vectors when a custom client asks for them', async () => {
    server = await startOpenAICompatibleServer({ script: [] });
    const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL });
    const raw = await client.embeddings.create({ model: 'm', input: 'green tea', dimensions: 8 });
    const [expected] = await new HashingEmbeddings({ dimensions: 8 }).embed(['green tea']);
    expect(raw.data[0]?.embedding.length).toBe(8);
    for (const [index, value] of (raw.data[0]?.embedding ?? []).entries()) {
      expect(value).toBeCloseTo(expected?.[index] ?? Number.NaN, 6);
    }
  });

  it('reports server failures as ModelError and aborts as ABORTED', async () => {
    const embeddings = new OpenAIEmbeddings({ baseURL: 'http://127.0.0.1:9/v1', model: 'm', maxRetries: 0 });
    const failed = await embeddings.embed(['x']).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(AdkError.isInstance(failed) && failed.code).toBe('MODEL_ERROR');
    server = await startOpenAICompatibleServer({ script: [] });
    const live = new OpenAIEmbeddings({ baseURL: server.baseURL, model: 'm' });
    const aborted = await live.embed(['x'], { signal: AbortSignal.abort() }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(WeftError.isInstance(aborted) && aborted.code).toBe('ABORTED');
    expect(() => new OpenAIEmbeddings({ model: 'm', env: {} })).toThrow(/API key/);
    expect(() => new OpenAIEmbeddings({ model: 'm', baseURL: server?.baseURL ?? '', batchSize: 0 })).toThrow(
      /batchSize/,
    );
  });
});
