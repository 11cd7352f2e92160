import { type Attributes, type Context, type Span, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ToolEndEvent, ToolStartEvent } from '@weft/compose';
import { redactedError, redactSecrets } from '@weft/compose';
import { ATTR } from './attributes.js';
import { errorTypeOf } from './call-spans.js';
import { contentString } from './content.js';
import type { TraceSettings } from './trace-settings.js';

/**
 * Opens the `execute_tool <name>` span of a `tool-start` event under the node that runs the call, at
 * the event's time. An agent used as the tool runs its steps under this span.
 */
export function openToolSpan(settings: TraceSettings, parent: Context, event: ToolStartEvent): Span {
  const attributes: Attributes = {
    [ATTR.operation]: 'execute_tool',
    [ATTR.toolName]: event.tool,
    [ATTR.toolCallId]: event.toolCallId,
    [ATTR.toolType]: 'function',
    [ATTR.nodePath]: [...event.path],
    [ATTR.taskId]: event.taskId,
  };
  if (event.agent !== undefined) attributes[ATTR.agent] = event.agent;
  if (settings.contentLimit !== undefined)
    // The arguments as the model sent them (usually a JSON string, recorded as it is).
    attributes[ATTR.toolArguments] = contentString(event.arguments, settings.contentLimit);
  return settings.tracer.startSpan(
    `execute_tool ${event.tool}`,
    { kind: SpanKind.INTERNAL, attributes, startTime: event.ts },
    parent,
  );
}

/** Ends a tool span at its `tool-end` event's time: its result (when captured) and a failure status. */
export function closeToolSpan(settings: TraceSettings, span: Span, event: ToolEndEvent): void {
  if (settings.contentLimit !== undefined) {
    const content = (event.result as { content?: unknown } | undefined)?.content;
    span.setAttribute(ATTR.toolResult, contentString(content, settings.contentLimit));
  }
  if (event.status === 'error') {
    // The exception when the call threw (or timed out, …); a result the tool marked as an error is
    // `tool_error`.
    if (event.error) span.recordException(redactedError(event.error));
    span.setAttribute(ATTR.errorType, event.error ? errorTypeOf(event.error) : 'tool_error');
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: event.error ? redactSecrets(event.error.message) : `tool "${event.tool}" failed`,
    });
  }
  span.end(event.ts);
}
