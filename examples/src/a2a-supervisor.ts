/**
 * A Weft supervisor that delegates to an agent on another stack: a currency agent built with the
 * official A2A SDK (`@a2a-js/sdk`: its own AgentExecutor, request handler and Express server), reached
 * through the Agent2Agent protocol as a `RemoteA2aAgent`. The remote agent asks which currency it should
 * convert to (`input-required`); the Weft run pauses on that question and `runner.resume` answers it in
 * the same remote task. Offline on scripted models. Run it with `pnpm --filter @weft/examples a2a`.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AgentCard, type Message, Role, TaskState } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryTaskStore,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { type A2aInputRequired, RemoteA2aAgent } from '@weft/a2a';
import {
  ChatModelAgent,
  MemorySessionService,
  messageText,
  Runner,
  type AgentEvent as WeftEvent,
} from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { createSupervisor } from '@weft/prebuilt';
import express from 'express';

const rates: Record<string, number> = { USD: 1.08, JPY: 162.4, GBP: 0.85 };

/** The remote agent's logic, written against the SDK alone: it asks for the target currency, then converts. */
class CurrencyExecutor implements AgentExecutor {
  async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const status = (state: TaskState, text?: string) =>
      bus.publish(
        AgentEvent.statusUpdate({
          taskId: request.taskId,
          contextId: request.contextId,
          status: {
            state,
            message: text ? reply(request, text) : undefined,
            timestamp: new Date().toISOString(),
          },
          metadata: {},
        }),
      );
    bus.publish(
      AgentEvent.task(
        request.task ?? {
          id: request.taskId,
          contextId: request.contextId,
          status: {
            state: TaskState.TASK_STATE_SUBMITTED,
            message: undefined,
            timestamp: new Date().toISOString(),
          },
          artifacts: [],
          history: [request.userMessage],
          metadata: {},
        },
      ),
    );
    const currency = textOf(request.userMessage).trim().toUpperCase();
    if (!(currency in rates)) {
      status(
        TaskState.TASK_STATE_INPUT_REQUIRED,
        `Which currency should I convert to? (${Object.keys(rates).join(', ')})`,
      );
      return;
    }
    const amount = (100 * (rates[currency] ?? 0)).toFixed(2);
    bus.publish(
      AgentEvent.artifactUpdate({
        taskId: request.taskId,
        contextId: request.contextId,
        artifact: {
          artifactId: 'conversion',
          name: 'conversion',
          description: '',
          parts: [
            {
              content: { $case: 'text', value: `100 EUR is ${amount} ${currency}.` },
              mediaType: 'text/plain',
              filename: '',
              metadata: {},
            },
          ],
          metadata: {},
          extensions: [],
        },
        append: false,
        lastChunk: true,
        metadata: {},
      }),
    );
    status(TaskState.TASK_STATE_COMPLETED);
  }

  async cancelTask(): Promise<void> {}
}

function reply(request: RequestContext, text: string): Message {
  return {
    messageId: randomUUID(),
    contextId: request.contextId,
    taskId: request.taskId,
    role: Role.ROLE_AGENT,
    parts: [{ content: { $case: 'text', value: text }, mediaType: 'text/plain', filename: '', metadata: {} }],
    metadata: {},
    extensions: [],
    referenceTaskIds: [],
  };
}

function textOf(message: Message): string {
  return message.parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join(' ');
}

/** Serves the currency agent with the SDK's Express handlers on 127.0.0.1 (any free port). */
export async function startCurrencyAgent(): Promise<{ url: string; close(): Promise<void> }> {
  const app = express();
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const card: AgentCard = {
    name: 'Currency agent',
    description: 'Converts amounts between currencies',
    supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
    signatures: [],
  };
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new CurrencyExecutor());
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: requestHandler }));
  app.use('/', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const transfer = (id: string, agent_name: string) => ({
  toolCalls: [{ id, name: 'transfer_to_agent', arguments: { agent_name } }],
});

/** `author: what happened` for the events worth printing. */
function describeEvent(event: WeftEvent): string | undefined {
  const message = event.message;
  if (message?.role === 'assistant' && !message.toolCalls?.length)
    return `${event.author}: ${messageText(message)}`;
  if (event.actions.transferTo) return `${event.author} hands over to ${event.actions.transferTo}`;
  const pause = event.interrupts?.[0]?.value as A2aInputRequired | undefined;
  if (pause?.type === 'a2a-input-required') return `${pause.agent} (remote) asks: ${pause.question}`;
  return undefined;
}

/** Runs the request through the team, answering the remote agent's question with `currency`. */
export async function main(print: (line: string) => void = console.log, currency = 'JPY') {
  const remote = await startCurrencyAgent();
  try {
    const exchange = await RemoteA2aAgent.fromUrl({ name: 'exchange', url: remote.url });
    const writer = new ChatModelAgent({
      name: 'writer',
      description: 'Writes short notes',
      model: new ScriptedChatModel(['Note: 100 EUR buys 16240.00 JPY today.']),
    });
    const team = createSupervisor({
      supervisor: {
        model: new ScriptedChatModel([
          transfer('s1', 'exchange'),
          transfer('s2', 'writer'),
          'Done: 100 EUR is 16240.00 JPY.',
        ]),
      },
      agents: [exchange, writer],
    });
    const runner = new Runner({ agent: team, sessionService: new MemorySessionService() });
    const session = { userId: 'demo', sessionId: 'trip' };
    const lines: string[] = [];
    const show = (event: WeftEvent) => {
      const line = event.partial ? undefined : describeEvent(event);
      if (line) {
        lines.push(line);
        print(line);
      }
    };
    let paused = false;
    for await (const event of runner.run({ ...session, message: 'How much is 100 EUR for my trip?' })) {
      show(event);
      paused ||= (event.interrupts?.length ?? 0) > 0;
    }
    if (paused) {
      print(`> ${currency}`);
      for await (const event of runner.resume({ ...session, decisions: currency })) show(event);
    }
    return { lines, description: exchange.description };
  } finally {
    await remote.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
