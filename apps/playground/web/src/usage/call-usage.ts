import type { WireEvent } from '../../../src/shared/wire.ts';
import type { UsageJson } from '../conversation/conversation-model.ts';

/**
 * The usage a model call reported (on the `model-call` event, or on its response message), if any.
 *
 * @example
 * ```ts
 * callUsage(event)?.totalTokens; // 1100
 * ```
 */
export function callUsage(event: WireEvent): UsageJson | undefined {
  if (event.type !== 'model-call') return undefined;
  return event.usage ?? (event.response as { usage?: UsageJson } | undefined)?.usage;
}
