import type { SessionKey } from '../session/session.js';
import type { Artifact, ArtifactInput, ArtifactService } from './artifact-service.js';

/**
 * The artifacts of the session a tool runs in (`context.artifacts`, present when the Runner has an
 * `artifactService`). A save is recorded: the tool's event carries `actions.artifactDelta` (name → new
 * version), committed with the session like its `stateDelta`.
 *
 * @example
 * ```ts
 * const chart = tool({
 *   name: 'save_chart',
 *   description: 'Saves the chart',
 *   parameters: z.object({ svg: z.string() }),
 *   async execute({ svg }, context) {
 *     const version = await context.artifacts?.save('chart.svg', { data: svg, mimeType: 'image/svg+xml' });
 *     return `saved version ${version}`;
 *   },
 * });
 * ```
 */
export interface ToolArtifacts {
  /** Saves a new version (recorded in the event's `artifactDelta`); resolves with its number. */
  save(name: string, input: ArtifactInput): Promise<number>;
  /** The latest version, or `version`. */
  load(name: string, options?: { readonly version?: number }): Promise<Artifact | undefined>;
  /** Names of the session's and the user's artifacts. */
  list(): Promise<string[]>;
}

/**
 * {@link ToolArtifacts} bound to a session, collecting the versions its saves made.
 *
 * @example
 * ```ts
 * const service = new StoreArtifactService({ store: new MemoryStore() });
 * const key = { appName: 'shop', userId: 'u1', sessionId: 's1' };
 * const recorded = new RecordedArtifacts(service, key);
 * await recorded.save('a.txt', { data: 'x' });
 * recorded.delta; // { 'a.txt': 0 }
 * ```
 */
export class RecordedArtifacts implements ToolArtifacts {
  readonly #service: ArtifactService;
  readonly #key: SessionKey;
  readonly #delta: Record<string, number> = {};

  constructor(service: ArtifactService, key: SessionKey) {
    this.#service = service;
    this.#key = key;
  }

  /** Name → the last version saved through this object. */
  get delta(): Readonly<Record<string, number>> {
    return { ...this.#delta };
  }

  async save(name: string, input: ArtifactInput): Promise<number> {
    const version = await this.#service.save(this.#key, name, input);
    this.#delta[name] = version;
    return version;
  }

  load(name: string, options?: { readonly version?: number }): Promise<Artifact | undefined> {
    return this.#service.load(this.#key, name, options);
  }

  list(): Promise<string[]> {
    return this.#service.list(this.#key);
  }
}
