/**
 * `@weft/a2a` — the Agent2Agent protocol for Weft, on the official `@a2a-js/sdk` (protocol 1.0, and
 * 0.3 through the SDK's compatibility layer). Serve any Weft agent, `Runner` or compiled graph as an A2A
 * server (`serveA2a`, or `createA2aHandler` to mount a fetch handler in your own app), with tasks kept
 * in a Weft store so a restarted server continues them; and call any A2A agent as a Weft sub-agent
 * (`RemoteA2aAgent`) in a team, as an `AgentTool` or as a supervisor's worker.
 *
 * @example
 * ```ts
 * import { ChatModelAgent, MemorySessionService, Runner } from '@weft/adk';
 * import { ScriptedChatModel } from '@weft/adk/testing';
 *
 * const desk = new ChatModelAgent({ name: 'desk', description: 'Answers questions', model: new ScriptedChatModel(['Hi!']) });
 * const server = await serveA2a({ agent: desk, port: 0 });
 * const remote = await RemoteA2aAgent.fromUrl({ name: 'desk', url: server.url });
 * const runner = new Runner({ agent: remote, sessionService: new MemorySessionService() });
 * for await (const event of runner.run({ userId: 'u1', sessionId: 's1', message: 'Hello' }))
 *   if (!event.partial && event.message?.role === 'assistant') console.log(event.message.content); // Hi!
 * await server.close();
 * ```
 *
 * @packageDocumentation
 */
export { RemoteA2aAgent, type RemoteA2aAgentOptions } from './client/remote-a2a-agent.js';
export type { A2aHeaders } from './client/remote-client.js';
export type { A2aInputRequired } from './client/remote-node.js';
export { WeftA2aError, type WeftA2aErrorCode } from './errors/weft-a2a-error.js';
export { dataPart, fromA2aParts, textOfParts, textPart, toA2aParts } from './parts/a2a-parts.js';
export { A2A_AGENT_CARD_PATH, type A2aHandler, createA2aHandler } from './server/a2a-handler.js';
export type { A2aCardOptions } from './server/agent-card.js';
export { type A2aSkill, agentSkills } from './server/agent-skills.js';
export type { AnyCompiledGraph } from './server/graph-turns.js';
export type { A2aHandlerOptions } from './server/handler-options.js';
export type { A2aAuthOptions, A2aGuardOptions } from './server/request-guard.js';
export { type A2aServer, type ServeA2aOptions, serveA2a } from './server/serve-a2a.js';
export { type PushUrlPolicy, publicWebhook } from './server/store-push-store.js';
export { StoreTaskStore } from './server/store-task-store.js';
export type { A2aTarget } from './server/target.js';
