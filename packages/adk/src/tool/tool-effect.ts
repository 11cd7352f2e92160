import { payloadChecksum } from '@weft/compose/store';
import type { ToolContext } from './tool-context.js';

/**
 * Runs one call of an effect tool: as `ctx.effect` of the node running it, keyed by the tool call's
 * id (stable across re-runs, unlike a position among concurrent calls), so its result is recorded once
 * and a re-run of the node gets it back; outside a graph it just runs, with a key made from the call id.
 */
export function runAsEffect<TResult>(
  toolName: string,
  context: ToolContext,
  execute: (context: ToolContext) => TResult | Promise<TResult>,
): Promise<Awaited<TResult>> {
  const node = context.nodeContext;
  if (!node) {
    const idempotencyKey = `weft-${payloadChecksum(JSON.stringify([toolName, context.toolCallId])).slice(7, 47)}`;
    return (async (): Promise<Awaited<TResult>> => await execute({ ...context, idempotencyKey }))();
  }
  return node.effect(
    `tool:${toolName}`,
    (effect) => execute({ ...context, idempotencyKey: effect.idempotencyKey }),
    {
      key: context.toolCallId,
    },
  );
}
