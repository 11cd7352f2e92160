import { useCallback, useEffect, useState } from 'react';
import type { MemorySearchInfo } from '../../../src/shared/memory-wire.ts';
import { memoryApi } from './memory-api.ts';

/**
 * The Memory tab: a user's long-term memories (all, newest first, or the ones matching a search) and,
 * per turn, what `recall` put in the agent's instruction.
 */
export function MemoryView() {
  const [userId, setUserId] = useState('playground-user');
  const [query, setQuery] = useState('');
  const [result, setResult] = useState<MemorySearchInfo | undefined>();
  const [error, setError] = useState<string | undefined>();
  const load = useCallback(async (user: string, q: string) => {
    try {
      setResult(await memoryApi.search(user, q));
      setError(undefined);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    }
  }, []);
  useEffect(() => {
    void load('playground-user', '');
  }, [load]);
  return (
    <main className="memory-view" data-testid="memory-view">
      <form
        className="memory-search"
        onSubmit={(event) => {
          event.preventDefault();
          void load(userId, query);
        }}
      >
        <label>
          User <input name="userId" value={userId} onChange={(e) => setUserId(e.target.value)} />
        </label>
        <label>
          Search{' '}
          <input
            name="query"
            value={query}
            placeholder="all memories"
            onChange={(e) => setQuery(e.target.value)}
          />
        </label>
        <button type="submit" data-testid="memory-search-button">
          Search
        </button>
      </form>
      {error && <div className="banner error">{error}</div>}
      {result && !result.enabled && (
        <p className="muted">This app has no memory service (defineApp({'{ memory }'})).</p>
      )}
      {result?.enabled && (
        <section>
          <h3>
            Memories of {result.userId} <span className="muted">({result.appName})</span>
          </h3>
          {result.memories.length === 0 && (
            <p className="muted">Nothing remembered{query ? ' that matches' : ''}.</p>
          )}
          <ul className="memory-list">
            {result.memories.map((memory) => (
              <li key={memory.id} data-testid="memory-hit">
                <span>{memory.text}</span>{' '}
                <span className="muted">
                  {memory.author} · thread {memory.sessionId}
                  {memory.score === undefined ? '' : ` · score ${memory.score.toFixed(2)}`}
                </span>
              </li>
            ))}
          </ul>
          <h3>Recalled per turn</h3>
          {result.recalls.length === 0 && <p className="muted">No turn recalled anything yet.</p>}
          <ul className="memory-list">
            {result.recalls.map((recall) => (
              <li key={`${recall.runId}-${recall.at}`} data-testid="memory-recall">
                <div>
                  <strong>{recall.agent}</strong> · “{recall.query}”{' '}
                  <span className="muted">thread {recall.threadId}</span>
                </div>
                <ul>
                  {recall.memories.map((memory) => (
                    <li key={memory.id}>{memory.text}</li>
                  ))}
                  {recall.memories.length === 0 && <li className="muted">nothing relevant</li>}
                </ul>
              </li>
            ))}
          </ul>
        </section>
      )}
    </main>
  );
}
