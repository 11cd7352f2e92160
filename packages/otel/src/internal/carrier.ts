import {
  type Context,
  isSpanContextValid,
  propagation,
  type TextMapPropagator,
  TraceFlags,
  trace,
} from '@opentelemetry/api';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * Writes `context` into a fresh carrier with `propagator` (the global one by default). When the
 * propagator wrote no `traceparent` (none is registered), a W3C `traceparent` is written here, so the
 * trace survives a hop to a worker even without a configured propagator.
 */
export function injectCarrier(
  context: Context,
  propagator: TextMapPropagator | undefined,
): Record<string, string> {
  const carrier: Record<string, string> = {};
  if (propagator) propagator.inject(context, carrier, defaultSetter);
  else propagation.inject(context, carrier);
  if (carrier.traceparent === undefined) {
    const span = trace.getSpanContext(context);
    if (span && isSpanContextValid(span)) {
      const flags = (span.traceFlags & TraceFlags.SAMPLED).toString(16).padStart(2, '0');
      carrier.traceparent = `00-${span.traceId}-${span.spanId}-${flags}`;
    }
  }
  return carrier;
}

/** Reads a carrier written by {@link injectCarrier} into a context below `base`. */
export function extractCarrier(
  base: Context,
  carrier: Readonly<Record<string, string>>,
  propagator: TextMapPropagator | undefined,
): Context {
  const extracted = propagator
    ? propagator.extract(base, carrier, defaultGetter)
    : propagation.extract(base, carrier);
  const found = trace.getSpanContext(extracted);
  if (found && isSpanContextValid(found)) return extracted;
  const match = TRACEPARENT.exec(carrier.traceparent ?? '');
  if (!match) return extracted;
  const [, traceId = '', spanId = '', flags = '00'] = match;
  const span = { traceId, spanId, traceFlags: Number.parseInt(flags, 16), isRemote: true };
  return isSpanContextValid(span) ? trace.setSpanContext(extracted, span) : extracted;
}

const defaultSetter = {
  set(carrier: Record<string, string>, key: string, value: string): void {
    carrier[key] = value;
  },
};

const defaultGetter = {
  get(carrier: Readonly<Record<string, string>>, key: string): string | undefined {
    return carrier[key];
  },
  keys(carrier: Readonly<Record<string, string>>): string[] {
    return Object.keys(carrier);
  },
};
