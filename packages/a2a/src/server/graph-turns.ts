import type { Message } from '@a2a-js/sdk';
import { type Checkpointer, Command, type CompiledGraph, type RunEvent } from '@weft/compose';
import { dataPart, textOfParts, textPart } from '../parts/a2a-parts.js';
import { WEFT_METADATA } from './task-publisher.js';
import type { TurnOutcome, TurnRunner, TurnSink } from './turn.js';

/**
 * Any compiled graph, whatever its input, output and node types.
 *
 * @example
 * ```ts
 * const graph = new StateGraph(z.object({ n: z.number() }))
 *   .addNode('double', (s) => ({ n: s.n * 2 }))
 *   .addEdge(START, 'double')
 *   .addEdge('double', END)
 *   .compile({ name: 'double' });
 * const served: AnyCompiledGraph = graph;
 * ```
 */
// biome-ignore lint/suspicious/noExplicitAny: graphs of every input, output and node type are served alike
export type AnyCompiledGraph = CompiledGraph<any, any, string, any>;

/**
 * Turns of a compiled graph: each task is a thread of `checkpointer` (named after the server and the
 * task), its input the message's first data part (else its text); a pause is answered with
 * `Command({ resume })` and a run a stopped server left is continued with `run(null)`. Streamed chunks
 * become the reply as it is written, `ctx.emit` values progress messages, and the output the reply (a
 * string as text, anything else as data).
 */
export function graphTurns(graph: AnyCompiledGraph, checkpointer: Checkpointer, server: string): TurnRunner {
  const durable = graph.withOptions({ checkpointer });
  return {
    oneTaskPerContext: false,
    run: async (call, sink) => {
      const input =
        call.kind === 'new'
          ? graphInputOf(call.message)
          : call.kind === 'answer'
            ? new Command({ resume: call.answer })
            : null;
      const result = await durable.run(input, {
        threadId: `${server}:${call.taskId}`,
        signal: call.signal,
        callbacks: { onEvent: (event) => forward(event, sink) },
      });
      if (result.status === 'interrupted')
        return {
          status: 'interrupted',
          interrupts: result.interrupts.map((i) => ({ id: i.id, value: i.value })),
        };
      return { status: 'done', reply: replyOf(result.output), metadata: {} } satisfies TurnOutcome;
    },
  };
}

/** A graph's input from a client's message: its first data part's value, else its text. */
export function graphInputOf(message: Message): unknown {
  const data = message.parts.find((part) => part.content?.$case === 'data')?.content;
  return data?.$case === 'data' ? (data.value ?? null) : textOfParts(message.parts);
}

function replyOf(output: unknown): ReturnType<typeof textPart>[] {
  if (output === undefined) return [];
  return typeof output === 'string' ? [textPart(output)] : [dataPart(output)];
}

function forward(event: RunEvent, sink: TurnSink): void {
  if (event.type === 'chunk') {
    const text = textOfChunk(event.chunk);
    if (text) sink.chunk(text);
  } else if (event.type === 'custom') {
    sink.progress([dataPart(event.data)], { [WEFT_METADATA]: { node: event.node, kind: 'custom' } });
  }
}

function textOfChunk(chunk: unknown): string | undefined {
  if (typeof chunk === 'string') return chunk;
  const text = (chunk as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text : undefined;
}
