import type { Message as A2aMessage } from '@a2a-js/sdk';
import type { AgentEvent, AssistantMessage, Message, Runner } from '@weft/adk';
import { dataPart, fromA2aParts, toA2aParts } from '../parts/a2a-parts.js';
import { WEFT_METADATA } from './task-publisher.js';
import type { TurnOutcome, TurnRunner, TurnSink } from './turn.js';

/**
 * Turns of an agent through a Runner: a task's context is the agent's session (its `contextId` the
 * session id, its owner the user id), so the agent remembers earlier tasks of the context, and a task is
 * one turn of that session — a pause is the Runner's, answered with `runner.resume`.
 */
export function agentTurns(runner: Runner): TurnRunner {
  return {
    oneTaskPerContext: true,
    run: async (call, sink) => {
      const ref = {
        userId: call.scope.owner,
        sessionId: call.contextId,
        signal: call.signal,
        ...(call.scope.tenant ? { tenantId: call.scope.tenant } : {}),
      };
      const events =
        call.kind === 'new'
          ? runner.run({ ...ref, message: weftMessageOf(call.message) })
          : call.kind === 'answer'
            ? runner.resume({ ...ref, decisions: call.answer })
            : runner.resume(ref);
      return collect(events, sink);
    },
  };
}

/** A client's A2A message as the user message of a turn (its parts as content, its id kept). */
export function weftMessageOf(message: A2aMessage): Message {
  return { role: 'user', id: `a2a-${message.messageId}`, content: fromA2aParts(message.parts) };
}

async function collect(events: AsyncIterable<AgentEvent>, sink: TurnSink): Promise<TurnOutcome> {
  let last: { message: AssistantMessage; author: string } | undefined;
  const interrupts: Array<{ id: string; value: unknown }> = [];
  let cancelled = false;
  const flush = () => {
    if (last) sink.progress(toA2aParts(last.message.content), meta(last.author, 'reply'));
    last = undefined;
  };
  for await (const event of events) {
    if (event.partial) {
      if (event.chunk?.text) sink.chunk(event.chunk.text);
      continue;
    }
    for (const pause of event.interrupts ?? []) interrupts.push({ id: pause.id, value: pause.value });
    if (event.turnComplete && event.error?.code === 'CANCELLED') cancelled = true;
    const message = event.message;
    if (!message || message.role === 'user' || message.role === 'system') continue;
    flush();
    if (message.role === 'assistant' && !message.toolCalls?.length) {
      last = { message, author: event.author };
      continue;
    }
    sink.progress(
      progressParts(message),
      meta(event.author, message.role === 'tool' ? 'tool-result' : 'tool-calls'),
    );
  }
  if (cancelled) return { status: 'cancelled' };
  if (interrupts.length > 0) {
    flush();
    return { status: 'interrupted', interrupts };
  }
  const reply = last;
  return {
    status: 'done',
    reply: reply ? toA2aParts(reply.message.content) : [],
    metadata: reply ? meta(reply.author, 'reply') : {},
  };
}

function progressParts(message: Message): ReturnType<typeof toA2aParts> {
  const parts = toA2aParts(message.content);
  if (message.role === 'assistant' && message.toolCalls?.length) {
    const calls = message.toolCalls.map((call) => ({
      id: call.id,
      name: call.name,
      arguments: parsed(call.arguments),
    }));
    parts.push(dataPart({ toolCalls: calls }));
  }
  if (message.role === 'tool' && parts.length === 0) parts.push(dataPart(null));
  return parts;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function meta(author: string, kind: string): Record<string, unknown> {
  return { [WEFT_METADATA]: { author, kind } };
}
