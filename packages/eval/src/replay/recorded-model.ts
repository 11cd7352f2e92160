import type { AssistantMessage, ChatModel, Message, MessageChunk } from '@weft/adk';
import { messageText } from '@weft/adk';
import type { ReplayStep } from '@weft/compose/maintenance';
import { EvaluationError } from '../evaluation-error.js';

/** Every assistant message in a value (a message, or messages at any depth), in order. */
function assistantMessages(value: unknown, found: AssistantMessage[] = []): AssistantMessage[] {
  if (Array.isArray(value)) for (const item of value) assistantMessages(item, found);
  else if (typeof value === 'object' && value !== null) {
    if ((value as { role?: unknown }).role === 'assistant') found.push(value as AssistantMessage);
    else for (const inner of Object.values(value)) assistantMessages(inner, found);
  }
  return found;
}

/**
 * A chat model that answers a replayed step with the model answers the step recorded: the assistant
 * messages its nodes wrote, in order (a cassette made from the thread's own writes). Use it to check a
 * code change against a real conversation without calling the model; to check a prompt change, replay
 * with a live model or a `cassetteModel` instead.
 *
 * @throws {EvaluationError} `CASSETTE_MISS` when the step is asked more model calls than it recorded answers.
 * @example
 * ```ts
 * declare const production: MaintainableCheckpointer;
 * declare function supportGraph(model: ChatModel): CompiledGraph<never, unknown>;
 * const report = await replayThread('ticket-7', {
 *   checkpointer: production,
 *   graph: (step) => supportGraph(recordedModel(step)),
 *   ignoreKeys: ['id'],
 * });
 * ```
 */
export function recordedModel(step: ReplayStep, options: { readonly name?: string } = {}): ChatModel {
  const answers = [...step.recorded.values()].flatMap((writes) => assistantMessages(writes));
  let next = 0;
  const take = (): AssistantMessage => {
    const answer = answers[next++];
    if (answer === undefined)
      throw new EvaluationError(
        'CASSETTE_MISS',
        `step ${step.step} (checkpoint "${step.checkpointId}") recorded ${answers.length} model answer(s); the replayed code asked for more`,
      );
    return answer;
  };
  return {
    name: options.name ?? 'recorded',
    generate: async (_messages: readonly Message[]) => take(),
    stream: async function* (_messages: readonly Message[]): AsyncIterable<MessageChunk> {
      const answer = take();
      yield {
        ...(answer.id === undefined ? {} : { id: answer.id }),
        text: messageText(answer),
        ...(answer.toolCalls && answer.toolCalls.length > 0
          ? {
              toolCallDeltas: answer.toolCalls.map((call, index) => ({
                index,
                id: call.id,
                name: call.name,
                arguments: call.arguments,
              })),
            }
          : {}),
        ...(answer.finishReason === undefined ? {} : { finishReason: answer.finishReason }),
        ...(answer.usage === undefined ? {} : { usage: answer.usage }),
      };
    },
  };
}
