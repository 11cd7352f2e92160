// `@weft/compose/func`: the functional API — entrypoints and tasks as plain async code, on the graph
// runtime. A separate entry because it needs `node:async_hooks` (AsyncLocalStorage finds the running
// entrypoint from a task call), which the main entry, bundled for browsers too, never loads.
export { getContext, getPreviousState, interrupt } from './context.js';
export {
  type Entrypoint,
  type EntrypointContext,
  type EntrypointFunction,
  type EntrypointOptions,
  entrypoint,
} from './entrypoint.js';
export { EntrypointFinal, type EntrypointSave, type EntrypointValue } from './entrypoint-final.js';
export { type AnyTaskFunction, type TaskFunction, type TaskOptions, task } from './task.js';
