// The public surface of this package's entries, as snapshots: adding, renaming or removing an export
// changes one, so API changes are deliberate (update with `vitest run -u src/surface.test.ts`). Each
// entry serves one audience (docs/adr/024-entry-points-by-audience.md); a run-time value lives in one
// entry only. The adapter and testing entries have their own snapshot tests beside them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as agentGraph from './agent-graph.js';
import * as main from './index.js';
import * as sessionStore from './session-store.js';

describe('exports exactly the documented names', () => {
  it('@weft/adk: building and running agents', () => {
    expect(Object.keys(main).sort()).toMatchSnapshot();
  });

  it('@weft/adk/session-store: store authors', () => {
    expect(Object.keys(sessionStore).sort()).toMatchSnapshot();
  });

  it('@weft/adk/agent-graph: authors of new agent kinds', () => {
    expect(Object.keys(agentGraph).sort()).toMatchSnapshot();
  });
});

it('every run-time value is exported by one entry only', async () => {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const owners = new Map<string, string[]>();
  for (const [entry, target] of Object.entries<Record<string, string> | string>(manifest.exports)) {
    if (typeof target === 'string') continue;
    const source = target['@weft/source'];
    if (source === undefined) continue;
    const module: Record<string, unknown> = await import(new URL(`../${source}`, import.meta.url).href);
    for (const name of Object.keys(module)) owners.set(name, [...(owners.get(name) ?? []), entry]);
  }
  expect([...owners].filter(([, entries]) => entries.length > 1)).toEqual([]);
});
