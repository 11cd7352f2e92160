import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MessagePort } from 'node:worker_threads';
import { appFromModule, type PlaygroundApp } from './define-app.ts';

/**
 * Loads an entry module again and again (each time afresh) and watches the files it is made of.
 * The module hooks of the CLI (`reload-hooks.mjs`) version the entry's relative imports and report
 * them on `port`; without a port only the entry file itself is watched and reloaded.
 *
 * @example
 * ```ts
 * const loader = new EntryLoader('src/graphs.ts', port);
 * const app = await loader.load();
 * const stop = loader.watch(async () => server.reload(await loader.load()));
 * ```
 */
export class EntryLoader {
  readonly file: string;
  readonly #files = new Set<string>();
  #generation = 0;

  constructor(file: string, port?: MessagePort) {
    this.file = resolve(file);
    this.#files.add(this.file);
    port?.on('message', (path: unknown) => {
      if (typeof path === 'string') this.#files.add(path);
    });
    port?.unref();
  }

  /** The files the entry was made of at its last load. */
  get files(): readonly string[] {
    return [...this.#files];
  }

  /**
   * Imports the entry afresh and collects the graphs and agents it exports.
   *
   * @throws whatever importing the module throws (syntax errors, failing top-level code).
   */
  async load(): Promise<PlaygroundApp> {
    const url = pathToFileURL(this.file);
    url.searchParams.set('weft-reload', String(++this.#generation));
    const module = (await import(url.href)) as Record<string, unknown>;
    // The hooks report imported files from their own thread; let those messages arrive.
    await new Promise((done) => setTimeout(done, 30));
    return appFromModule(module);
  }

  /**
   * Calls `onChange` once per burst of changes (debounced) to any file of the entry. Folders are
   * watched (not files), so editors that save by replacing the file are seen too. Returns `stop`.
   */
  watch(onChange: () => void, debounceMs = 150): () => void {
    let timer: NodeJS.Timeout | undefined;
    const watchers: FSWatcher[] = [];
    const names = new Map<string, Set<string>>();
    for (const file of this.#files) {
      const folder = dirname(file);
      names.set(folder, (names.get(folder) ?? new Set()).add(basename(file)));
    }
    for (const [folder, files] of names) {
      const watcher = watch(folder, (_event, name) => {
        if (name !== null && !files.has(name.toString())) return;
        clearTimeout(timer);
        timer = setTimeout(onChange, debounceMs);
      });
      watcher.on('error', () => watcher.close());
      watchers.push(watcher);
    }
    return () => {
      clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    };
  }
}
