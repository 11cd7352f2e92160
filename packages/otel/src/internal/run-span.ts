import type { Attributes, Link, Span } from '@opentelemetry/api';
import { isCommand, type RunStartEvent } from '@weft/compose';
import { ATTR } from './attributes.js';
import { contentString } from './content.js';
import type { RunOrigin, TraceSettings } from './trace-settings.js';

/**
 * Opens a run's span under its origin: `run <graph>` with the run's ids; a run that continues a thread
 * (resume or `null` input) is marked resumed, gets a `weft.resume` event and a link to the span of the
 * run that paused the thread (from the origin's stored carrier, else when this tracing saw it pause).
 * `undefined` when the span does not record.
 */
export function openRunSpan(
  settings: TraceSettings,
  event: RunStartEvent,
  origin: RunOrigin,
): Span | undefined {
  const resumed = isCommand(event.input) || event.input === null || event.input === undefined;
  // A run this tracing saw pause on the thread is forgotten either way; a stored carrier wins over it.
  const seen = resumed && event.threadId !== undefined ? settings.paused.take(event.threadId) : undefined;
  const paused = resumed ? (origin.continues ?? seen) : undefined;
  const attributes: Attributes = { [ATTR.graph]: event.graph, [ATTR.runId]: event.runId };
  if (event.threadId !== undefined) attributes[ATTR.threadId] = event.threadId;
  if (resumed) attributes[ATTR.runResumed] = true;
  const links: Link[] = paused ? [{ context: paused, attributes: { [ATTR.status]: 'resumed-from' } }] : [];
  const span = settings.tracer.startSpan(
    `run ${event.graph}`,
    { kind: origin.kind, attributes, links },
    origin.parent,
  );
  if (!span.isRecording()) {
    span.end();
    return undefined;
  }
  const limit = settings.contentLimit;
  if (limit !== undefined) {
    const command = isCommand(event.input) ? event.input : undefined;
    if (command?.hasResume) span.setAttribute(ATTR.resumeValue, contentString(command.resume, limit));
    else if (!resumed) span.setAttribute(ATTR.runInput, contentString(event.input, limit));
  }
  if (resumed) span.addEvent('weft.resume', paused ? { 'weft.resume.trace_id': paused.traceId } : {});
  return span;
}
