// Records a V8 CPU profile of a body in this process (node:inspector), and summarises self time per
// function with positions mapped back to the TypeScript source through the source maps tsx provides.

import { existsSync, readFileSync } from 'node:fs';
import { type Profiler, Session } from 'node:inspector';
import { findSourceMap, SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

/** One function's share of the samples. */
export interface HotSpot {
  /** `file:line` in the TypeScript source (repository-relative), or a node-internal location. */
  readonly location: string;
  readonly functionName: string;
  /** Share of all samples (idle and GC included) spent in this function itself, in percent. */
  readonly selfPercent: number;
  /** The source line with most of this function's self samples, and its share of them. */
  readonly hotLine?: { readonly line: number; readonly percentOfFunction: number };
}

function post<T>(session: Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => {
    session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result as T)));
  });
}

/** Profiles `body` with a 100 µs sampling interval and returns the raw profile. */
export async function profile(body: () => Promise<void>): Promise<Profiler.Profile> {
  const session = new Session();
  session.connect();
  try {
    await post(session, 'Profiler.enable');
    await post(session, 'Profiler.setSamplingInterval', { interval: 100 });
    await post(session, 'Profiler.start');
    await body();
    const { profile: result } = await post<{ profile: Profiler.Profile }>(session, 'Profiler.stop');
    return result;
  } finally {
    session.disconnect();
  }
}

const ROOT = new URL('../../../', import.meta.url).href;

const ownMaps = new Map<string, SourceMap | undefined>();

/** The source map a built module names in its `sourceMappingURL` comment (read once per module). */
function fileSourceMap(url: string): SourceMap | undefined {
  if (!url.startsWith('file:')) return undefined;
  if (ownMaps.has(url)) return ownMaps.get(url);
  let map: SourceMap | undefined;
  try {
    const text = readFileSync(fileURLToPath(url), 'utf8');
    const reference = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(text)?.[1];
    const mapUrl = reference && !reference.startsWith('data:') ? new URL(reference, url) : undefined;
    if (mapUrl && existsSync(mapUrl)) {
      const payload = JSON.parse(readFileSync(mapUrl, 'utf8')) as { sources: string[] };
      // Sources are relative to the map; SourceMap reports them as given, so make them absolute.
      payload.sources = payload.sources.map((source) => new URL(source, mapUrl).href);
      map = new SourceMap(payload as ConstructorParameters<typeof SourceMap>[0]);
    }
  } catch {
    map = undefined;
  }
  ownMaps.set(url, map);
  return map;
}

/** Maps a 0-based generated position to the 1-based source line (and file) through the source map. */
function original(url: string, line: number, column: number): { file: string; line: number } {
  // Node's map first (with `--enable-source-maps`); tsx registers identity maps for the built modules
  // it loads, so an entry that points back at the module itself falls through to the module's own map.
  for (const map of [url.startsWith('file:') ? findSourceMap(url) : undefined, fileSourceMap(url)]) {
    const entry = map?.findEntry(line, column);
    if (entry && 'originalLine' in entry && entry.originalSource !== url) {
      return { file: entry.originalSource, line: entry.originalLine + 1 };
    }
  }
  return { file: url, line: line + 1 };
}

/** The source position of a profiled function, through its module's source map when there is one. */
function sourceLocation(frame: Profiler.ProfileNode['callFrame']): string {
  if (!frame.url) return `(${frame.functionName || 'native'})`;
  const { file, line } = original(frame.url, frame.lineNumber, frame.columnNumber);
  const short = file.includes('/node_modules/')
    ? file.replace(/^.*\/node_modules\//, '')
    : file.startsWith(ROOT)
      ? file.slice(ROOT.length)
      : file;
  return `${short}:${line}`;
}

/** Self time per function (merged across the profile's nodes), largest first. */
export function hotSpots(result: Profiler.Profile): HotSpot[] {
  const hits = new Map<number, number>();
  for (const id of result.samples ?? []) hits.set(id, (hits.get(id) ?? 0) + 1);
  const total = result.samples?.length ?? 0;
  const byFunction = new Map<string, FunctionTally>();
  for (const node of result.nodes) {
    const count = hits.get(node.id) ?? 0;
    if (count === 0) continue;
    const location = sourceLocation(node.callFrame);
    const functionName = node.callFrame.functionName || '(anonymous)';
    const key = `${functionName} ${location}`;
    const entry = byFunction.get(key) ?? { functionName, location, count: 0, lines: new Map() };
    entry.count += count;
    for (const tick of node.positionTicks ?? []) {
      // Tick lines are 1-based lines of the generated code.
      const line = original(node.callFrame.url, tick.line - 1, 0).line;
      entry.lines.set(line, (entry.lines.get(line) ?? 0) + tick.ticks);
    }
    byFunction.set(key, entry);
  }
  return [...byFunction.values()].sort((a, b) => b.count - a.count).map((tally) => toHotSpot(tally, total));
}

interface FunctionTally {
  readonly functionName: string;
  readonly location: string;
  count: number;
  readonly lines: Map<number, number>;
}

function toHotSpot({ functionName, location, count, lines }: FunctionTally, total: number): HotSpot {
  const selfPercent = total === 0 ? 0 : (100 * count) / total;
  const [line, ticks] = [...lines].sort((a, b) => b[1] - a[1])[0] ?? [];
  if (line === undefined || ticks === undefined) return { functionName, location, selfPercent };
  const lineTotal = [...lines.values()].reduce((a, b) => a + b, 0);
  return {
    functionName,
    location,
    selfPercent,
    hotLine: { line, percentOfFunction: (100 * ticks) / lineTotal },
  };
}

/** Which bucket a location belongs to: a workspace package, a dependency, node itself, or V8. */
export function bucket(location: string): string {
  const workspace = /^(packages\/[^/]+|bench)\//.exec(location);
  if (workspace) return workspace[1]!;
  if (location.startsWith('node:')) return 'node internals';
  if (location.startsWith('(')) return location;
  const dependency = /^(@[^/]+\/[^/]+|[^/]+)\//.exec(location);
  return dependency ? dependency[1]! : 'other';
}
