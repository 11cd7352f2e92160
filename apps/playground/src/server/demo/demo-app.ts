import { StoreArtifactService, StoreMemoryService } from '@weft/adk';
import type { ScriptedChatModelOptions } from '@weft/adk/testing';
import { HashingEmbeddings, MemoryStore } from '@weft/compose';
import { defineApp, type PlaygroundApp } from '../define-app.ts';
import { buildApprovalGraph } from './approval-graph.ts';
import { buildAssistantAgent } from './assistant-agent.ts';
import { assistantEvals } from './assistant-evals.ts';
import { buildBaristaAgent } from './barista-agent.ts';
import { buildDagGraph } from './dag-graph.ts';
import { buildHostAgent } from './host-agent.ts';
import { buildLoopGraph } from './loop-graph.ts';
import { buildMapReduceGraph } from './map-reduce-graph.ts';
import { buildPlanExecuteAgent } from './plan-execute-agent.ts';
import { buildSupervisorTeam } from './supervisor-team.ts';

/**
 * The built-in demo `weft dev` serves without an entry: a loop, a fan-out/Send map-reduce with a
 * subgraph, a DAG, a human-approval flow, a tool-using agent and the multi-agent templates of
 * `@weft/prebuilt` (supervisor, plan-execute, host), all on scripted logic (no network).
 *
 * @example
 * ```ts
 * const server = await startServer({ app: createDemoApp() });
 * ```
 */
export function createDemoApp(
  options: {
    readonly chunkDelayMs?: number;
    /** Holds the map-reduce's research tasks until it resolves (tests). */
    readonly researchGate?: () => Promise<void>;
    /** Awaited before each chunk the assistant's model streams (tests hold a stream mid-way with it). */
    readonly assistantChunkGate?: ScriptedChatModelOptions['beforeChunk'];
  } = {},
): PlaygroundApp {
  const store = new MemoryStore({ index: { embeddings: new HashingEmbeddings(), fields: ['text'] } });
  const memory = new StoreMemoryService({ store });
  return defineApp({
    memory,
    artifacts: new StoreArtifactService({ store }),
    graphs: {
      'counter-loop': {
        graph: buildLoopGraph(),
        maxSteps: 250,
        description: 'A node that loops back to itself until the count reaches the target',
      },
      'map-reduce': {
        graph: buildMapReduceGraph(
          options.researchGate === undefined ? {} : { researchGate: options.researchGate },
        ),
        description: 'Fan-out with Send to parallel research tasks, reduced by a subgraph',
      },
      'dag-pipeline': {
        graph: buildDagGraph(),
        description: 'DAG mode: parallel analyses joined by a report (no checkpoints)',
      },
      'refund-approval': {
        graph: buildApprovalGraph(),
        description: 'Pauses for a human decision, with a form drawn from the interrupt’s schema',
      },
    },
    agents: {
      assistant: {
        agent: buildAssistantAgent({
          ...(options.chunkDelayMs === undefined ? {} : { chunkDelayMs: options.chunkDelayMs }),
          ...(options.assistantChunkGate === undefined ? {} : { beforeChunk: options.assistantChunkGate }),
        }),
        description: 'A tool-using agent on a scripted model; bookings need your approval',
      },
      supervisor: {
        agent: buildSupervisorTeam(options),
        description: 'A supervisor hands work to a researcher and a writer; each reports back',
      },
      'plan-execute': {
        agent: buildPlanExecuteAgent(options),
        description: 'Plans steps, executes them one by one, replans, then responds',
      },
      host: {
        agent: buildHostAgent(options),
        description: 'Routes to weather and news specialists (both at once in parallel), then merges',
      },
      barista: {
        agent: buildBaristaAgent({ memory, ...options }),
        description:
          'Remembers what you like across threads (Memory tab) and saves order tickets as artifacts',
      },
    },
    evals: { assistant: assistantEvals() },
    // The demo's scripted models (`scripted-demo`, `scripted-researcher`, …) priced like a mid-size
    // hosted model, so the trace and the run header show costs.
    prices: { scripted: { input: 3, output: 15, cachedInput: 0.3 } },
  });
}
