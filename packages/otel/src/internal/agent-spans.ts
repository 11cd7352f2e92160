import { type Attributes, type Context, type Span, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { GraphAgentInfo } from '@weft/compose';
import { ATTR } from './attributes.js';
import { errorTypeOf } from './call-spans.js';
import type { TraceSettings } from './trace-settings.js';

/**
 * Opens the `invoke_agent <name>` span of an agent's run (GenAI semantic conventions; kind INTERNAL, the
 * agent runs in process): its name and description, the model id and provider of its model when it has
 * one, and the conversation when the tracing was told.
 */
export function openAgentSpan(
  settings: TraceSettings,
  parent: Context,
  agent: GraphAgentInfo,
  conversationId: string | undefined,
): Span {
  const attributes: Attributes = {
    [ATTR.operation]: 'invoke_agent',
    [ATTR.agentName]: agent.name,
  };
  if (agent.description !== undefined) attributes[ATTR.agentDescription] = agent.description;
  if (agent.provider !== undefined) attributes[ATTR.providerName] = agent.provider;
  if (agent.model !== undefined) attributes[ATTR.requestModel] = agent.model;
  if (conversationId !== undefined) attributes[ATTR.conversationId] = conversationId;
  return settings.tracer.startSpan(
    `invoke_agent ${agent.name}`,
    { kind: SpanKind.INTERNAL, attributes },
    parent,
  );
}

/** Ends an agent span; a failure marks it (exception event, error status, `error.type`). */
export function endAgentSpan(span: Span, error: Error | undefined, status?: string): void {
  if (error) {
    span.recordException(error);
    span.setAttribute(ATTR.errorType, errorTypeOf(error));
    span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
  }
  if (status !== undefined) span.setAttribute(ATTR.status, status);
  span.end();
}
