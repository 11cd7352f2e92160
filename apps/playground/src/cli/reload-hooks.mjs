// Module hooks of `weft dev` (registered with `module.register`): an entry imported with
// `?weft-reload=N` passes that query on to the files it imports by relative path, so each reload
// evaluates the user's own files afresh, while packages (@weft/*, zod…) stay single instances. Each
// such file is reported on the port given at registration, so `weft dev` knows which files to watch.
import { fileURLToPath } from 'node:url';

const key = 'weft-reload';
let port;

/** Node's `initialize` hook: receives the port that hears about user files. */
export function initialize(data) {
  port = data?.port;
}

/** Node's `resolve` hook: tags relative imports of a tagged module with the same generation. */
export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  const parent = context.parentURL;
  if (!parent?.includes(`${key}=`)) return result;
  const relative = specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('file:');
  if (!relative || !result.url.startsWith('file:') || result.url.includes('/node_modules/')) return result;
  const generation = new URL(parent).searchParams.get(key);
  if (generation === null) return result;
  const url = new URL(result.url);
  url.searchParams.set(key, generation);
  port?.postMessage(fileURLToPath(result.url.split('?')[0]));
  return { ...result, url: url.href };
}
