// JSON shapes of the Memory tab's and the thread artifacts' API (server and web share them).

/** A memory as the Memory tab lists it. */
export interface MemoryInfo {
  readonly id: string;
  readonly text: string;
  readonly author: string;
  readonly sessionId: string;
  readonly timestamp: number;
  readonly score?: number;
}

/** What `recall` put in an agent's instruction for one turn. */
export interface RecallInfo {
  readonly runId: string;
  readonly threadId: string;
  readonly userId: string;
  readonly agent: string;
  readonly query: string;
  readonly memories: ReadonlyArray<{ readonly id: string; readonly text: string; readonly score?: number }>;
  readonly dropped: number;
  readonly at: number;
}

/** `GET /api/memory`: whether the app has a memory, whose, and the hits (or every memory without a query). */
export interface MemorySearchInfo {
  readonly enabled: boolean;
  readonly appName: string;
  readonly userId: string;
  readonly memories: readonly MemoryInfo[];
  readonly recalls: readonly RecallInfo[];
}

/** One artifact of a thread's session (or its user's). */
export interface ArtifactInfo {
  readonly name: string;
  readonly versions: readonly number[];
  readonly mimeType: string;
  readonly size: number;
  /** The latest version's text, for textual types (first 20 000 characters). */
  readonly text?: string;
}

/** `GET /api/artifacts/:threadId`. */
export interface ThreadArtifactsInfo {
  readonly enabled: boolean;
  readonly artifacts: readonly ArtifactInfo[];
}
