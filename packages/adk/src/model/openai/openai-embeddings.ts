import type { Embeddings, EmbedOptions } from '@weft/compose';
import { OpenAI } from 'openai';
import { AdkError } from '../../errors/adk-error.js';
import { toModelError } from './to-model-error.js';

/**
 * Options of {@link OpenAIEmbeddings}.
 *
 * @example
 * ```ts
 * const options: OpenAIEmbeddingsOptions = { model: 'text-embedding-3-small', dimensions: 256 };
 * ```
 */
export interface OpenAIEmbeddingsOptions {
  /** The embedding model, e.g. `text-embedding-3-small` or `nomic-embed-text`. */
  readonly model: string;
  /** Ask the server for vectors of this length (models that support it). */
  readonly dimensions?: number;
  /** The API key (default: `OPENAI_API_KEY`; a placeholder for a custom `baseURL` without one). */
  readonly apiKey?: string;
  /** The endpoint, e.g. `http://localhost:11434/v1` (default: `OPENAI_BASE_URL`, else OpenAI's). */
  readonly baseURL?: string;
  /** Texts per request (default 512; OpenAI accepts up to 2048). */
  readonly batchSize?: number;
  /** Retries of the `openai` client itself (default 2). */
  readonly maxRetries?: number;
  /** A client to use instead of creating one (e.g. an `AzureOpenAI`). */
  readonly client?: OpenAI;
  /** Where the defaults are read from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * An `Embeddings` over any OpenAI-compatible `/embeddings` endpoint (OpenAI, Azure, Ollama, vLLM, ...)
 * through the official `openai` client: batches of `batchSize` texts, float vectors in input order.
 *
 * @example
 * ```ts
 * import { MemoryStore } from '@weft/compose';
 * import { OpenAIEmbeddings } from '@weft/adk/openai';
 *
 * const embeddings = new OpenAIEmbeddings({ model: 'text-embedding-3-small' });
 * const store = new MemoryStore({ index: { embeddings, fields: ['text'] } });
 * ```
 */
export class OpenAIEmbeddings implements Embeddings {
  readonly dimensions?: number;
  readonly #client: OpenAI;
  readonly #model: string;
  readonly #batchSize: number;

  /** @throws AdkError `INVALID_ARGUMENT` without an API key or base URL, or with a bad `batchSize`. */
  constructor(options: OpenAIEmbeddingsOptions) {
    const batchSize = options.batchSize ?? 512;
    if (!Number.isInteger(batchSize) || batchSize < 1) {
      throw new AdkError(
        'INVALID_ARGUMENT',
        `OpenAIEmbeddings: batchSize must be a positive integer, got ${batchSize}`,
      );
    }
    this.#batchSize = batchSize;
    this.#model = options.model;
    if (options.dimensions !== undefined) this.dimensions = options.dimensions;
    this.#client = options.client ?? createClient(options, options.env ?? process.env);
  }

  /** @throws ModelError when the server fails; WeftError `ABORTED` when `signal` fires. */
  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<number[][]> {
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += this.#batchSize) {
      const batch = texts.slice(start, start + this.#batchSize);
      vectors.push(...(await this.#embedBatch(batch, options.signal)));
    }
    return vectors;
  }

  async #embedBatch(batch: string[], signal: AbortSignal | undefined): Promise<number[][]> {
    try {
      const response = await this.#client.embeddings.create(
        {
          model: this.#model,
          input: batch,
          encoding_format: 'float',
          ...(this.dimensions === undefined ? {} : { dimensions: this.dimensions }),
        },
        signal ? { signal } : {},
      );
      const ordered = [...response.data].sort((left, right) => left.index - right.index);
      if (ordered.length !== batch.length) {
        throw new AdkError(
          'MODEL_ERROR',
          `embedding model "${this.#model}" returned ${ordered.length} vectors for ${batch.length} texts`,
        );
      }
      return ordered.map((item) => item.embedding);
    } catch (error) {
      throw toModelError(error, `openai:${this.#model}`, signal);
    }
  }
}

function createClient(
  options: OpenAIEmbeddingsOptions,
  env: Readonly<Record<string, string | undefined>>,
): OpenAI {
  const baseURL = options.baseURL ?? env.OPENAI_BASE_URL;
  const apiKey = options.apiKey ?? env.OPENAI_API_KEY ?? (baseURL === undefined ? undefined : 'unused');
  if (apiKey === undefined) {
    throw new AdkError(
      'INVALID_ARGUMENT',
      'OpenAIEmbeddings has no API key: pass { apiKey } or set OPENAI_API_KEY (or pass a baseURL for a server that needs none)',
    );
  }
  return new OpenAI({ apiKey, baseURL: baseURL ?? null, maxRetries: options.maxRetries ?? 2 });
}
