import { AdkError } from '../errors/adk-error.js';
import type { AssistantMessage, Message } from '../message/message.js';
import { userMessage } from '../message/message-constructors.js';
import { messageText } from '../message/message-text.js';
import { zodToJsonSchema } from '../tool/tool.js';
import { callModelInNode, type ModelCallContext } from './reported-model.js';
import type { ResolvedAgent } from './resolved-agent.js';

/** A structured final answer and the repair messages it took (added to the history). */
export interface StructuredOutput {
  readonly value: unknown;
  readonly messages: Message[];
}

/**
 * Parses the final answer as JSON and validates it with the agent's `outputSchema`; on failure asks
 * the model once to repair it (telling it what was wrong).
 *
 * @throws AdkError `OUTPUT_INVALID` when the repaired answer still does not match.
 */
export async function parseStructured(
  agent: ResolvedAgent,
  history: readonly Message[],
  text: string,
  ctx: ModelCallContext,
): Promise<StructuredOutput> {
  const schema = agent.outputSchema!;
  const first = check(schema, text);
  if (first.ok) return { value: first.value, messages: [] };
  const ask = userMessage(
    `Your answer did not match the required JSON schema: ${first.problem}. Reply again with only the corrected JSON.`,
  );
  // A call of the run like the agent's others (reported: usage totals, costs, traces), not streamed.
  const repaired: AssistantMessage = await callModelInNode(ctx, {
    agent: agent.name,
    model: agent.model,
    messages: [...history, ask],
    options: {
      ...agent.modelOptions,
      responseFormat: { type: 'json_schema', name: `${agent.name}_output`, schema: zodToJsonSchema(schema) },
    },
    stream: false,
  });
  const second = check(schema, messageText(repaired));
  if (!second.ok)
    throw new AdkError(
      'OUTPUT_INVALID',
      `agent "${agent.name}" gave no answer matching its outputSchema after one repair: ${second.problem}`,
    );
  return { value: second.value, messages: [ask, repaired] };
}

function check(
  schema: NonNullable<ResolvedAgent['outputSchema']>,
  text: string,
): { ok: true; value: unknown } | { ok: false; problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(stripFence(text));
  } catch (error) {
    return { ok: false, problem: `not JSON (${(error as Error).message})` };
  }
  const result = schema.safeParse(json);
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    problem: result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '),
  };
}

function stripFence(text: string): string {
  const match = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/.exec(text);
  return match ? (match[1] as string) : text;
}
