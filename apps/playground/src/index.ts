// @weft/playground — `weft dev`: an HTTP + SSE server and a React web app for Weft graphs and agents.

export { createApp } from './server/app.ts';
export {
  type AgentEntryOptions,
  type AnyCompiledGraph,
  type AppDefinition,
  appFromModule,
  defineApp,
  type GraphEntryOptions,
  type PlaygroundApp,
} from './server/define-app.ts';
export { createDemoApp } from './server/demo/demo-app.ts';
export { EntryLoader } from './server/load-entry.ts';
export { type PlaygroundServer, type StartServerOptions, startServer } from './server/server.ts';
export type {
  ApiError,
  Breakpoints,
  GraphInfo,
  InterruptInfo,
  RunInfo,
  RunStatus,
  SnapshotInfo,
  ThreadInfo,
  WireEvent,
} from './shared/wire.ts';
