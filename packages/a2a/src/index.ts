export { RemoteA2aAgent, type RemoteA2aAgentOptions } from './client/remote-a2a-agent.js';
export type { A2aHeaders } from './client/remote-client.js';
export type { A2aInputRequired } from './client/remote-node.js';
export { WeftA2aError, type WeftA2aErrorCode } from './errors/weft-a2a-error.js';
export { dataPart, fromA2aParts, textOfParts, textPart, toA2aParts } from './parts/a2a-parts.js';
export {
  A2A_AGENT_CARD_PATH,
  type A2aHandler,
  type A2aHandlerOptions,
  createA2aHandler,
} from './server/a2a-handler.js';
export type { A2aCardOptions } from './server/agent-card.js';
export { type A2aSkill, agentSkills } from './server/agent-skills.js';
export type { AnyCompiledGraph } from './server/graph-turns.js';
export type { A2aAuthOptions, A2aGuardOptions } from './server/request-guard.js';
export { type A2aServer, type ServeA2aOptions, serveA2a } from './server/serve-a2a.js';
export { type PushUrlPolicy, publicWebhook } from './server/store-push-store.js';
export { StoreTaskStore } from './server/store-task-store.js';
export type { A2aTarget } from './server/target.js';
