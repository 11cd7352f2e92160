import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * One span as an OTLP/HTTP JSON request carries it (ids in hex), with the headers of its request.
 *
 * @example
 * ```ts
 * const failed = (span: ReceivedSpan) => span.statusCode === 2;
 * ```
 */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly name: string;
  readonly kind: number;
  /** Start time, nanoseconds since the epoch. */
  readonly start: bigint;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly events: readonly string[];
  readonly links: readonly { readonly traceId: string; readonly spanId: string }[];
  readonly statusCode: number;
  readonly headers: IncomingHttpHeaders;
}

/**
 * A loopback OTLP/HTTP trace receiver (JSON encoding), standing in for a collector in tests.
 *
 * @example
 * ```ts
 * const receiver: OtlpReceiver = await startOtlpReceiver();
 * await receiver.until((spans) => spans.some((span) => span.name.startsWith('run ')));
 * ```
 */
export interface OtlpReceiver {
  /** The traces endpoint, `http://127.0.0.1:<port>/v1/traces`. */
  readonly url: string;
  readonly spans: ReceivedSpan[];
  /** Resolves once `condition(spans)` holds (checked on every request). */
  until(condition: (spans: readonly ReceivedSpan[]) => boolean): Promise<void>;
  close(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
  arrayValue?: { values?: OtlpValue[] };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano?: string | number;
  attributes?: { key: string; value: OtlpValue }[];
  events?: { name: string }[];
  links?: { traceId: string; spanId: string }[];
  status?: { code?: number };
}
interface OtlpRequest {
  resourceSpans?: { scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

function attributeValue(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(attributeValue);
  return undefined;
}

/**
 * Starts an OTLP/HTTP trace receiver on a free loopback port: point an `OTLPTraceExporter` (JSON, the
 * default of `@opentelemetry/exporter-trace-otlp-http`) at its `url` and read what arrives.
 *
 * @example
 * ```ts
 * import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
 * import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
 * const receiver = await startOtlpReceiver();
 * const provider = new BasicTracerProvider({
 *   spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: receiver.url }))],
 * });
 * const app = new StateGraph(z.object({ text: z.string() }))
 *   .addNode('upper', (s) => ({ text: s.text.toUpperCase() }))
 *   .addEdge(START, 'upper')
 *   .addEdge('upper', END)
 *   .compile({ name: 'shout' });
 * await app.invoke({ text: 'hi' }, { callbacks: otelTracing({ tracerProvider: provider }).callbacks() });
 * await provider.forceFlush();
 * await receiver.until((spans) => spans.some((s) => s.name === 'run shout'));
 * console.log(receivedTree(receiver.spans)); // ['run shout', '  step 0', '    node upper']
 * await receiver.close();
 * ```
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const waiters: { condition: (spans: readonly ReceivedSpan[]) => boolean; resolve: () => void }[] = [];
  const check = (): void => {
    for (const waiter of [...waiters]) {
      if (!waiter.condition(spans)) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url !== '/v1/traces' || request.method !== 'POST') {
        response.writeHead(404).end();
        return;
      }
      let body: OtlpRequest;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpRequest;
      } catch {
        response.writeHead(400).end('this receiver takes OTLP/HTTP JSON');
        return;
      }
      for (const resource of body.resourceSpans ?? [])
        for (const scope of resource.scopeSpans ?? [])
          for (const span of scope.spans ?? []) spans.push(received(span, request.headers));
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      check();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    spans,
    until: (condition) =>
      new Promise<void>((resolve) => {
        waiters.push({ condition, resolve });
        check();
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function received(span: OtlpSpan, headers: IncomingHttpHeaders): ReceivedSpan {
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    parentSpanId: span.parentSpanId || undefined,
    name: span.name,
    kind: span.kind,
    start: BigInt(span.startTimeUnixNano ?? 0),
    attributes: Object.fromEntries((span.attributes ?? []).map((a) => [a.key, attributeValue(a.value)])),
    events: (span.events ?? []).map((e) => e.name),
    links: (span.links ?? []).map((l) => ({ traceId: l.traceId, spanId: l.spanId })),
    statusCode: span.status?.code ?? 0,
    headers,
  };
}

/**
 * Received spans as an indented tree, one line per span, children in start order; `label` adds text
 * after each name.
 *
 * @example
 * ```ts
 * const receiver = await startOtlpReceiver();
 * // … export the spans of a graph named 'shout' to receiver.url (see startOtlpReceiver) …
 * await receiver.until((spans) => spans.some((s) => s.name === 'run shout'));
 * receivedTree(receiver.spans); // ['run shout', '  step 0', '    node upper']
 * receivedTree(receiver.spans, (s) => (s.statusCode === 2 ? '[error]' : '')); // failed spans marked
 * await receiver.close();
 * ```
 */
export function receivedTree(
  spans: readonly ReceivedSpan[],
  label: (s: ReceivedSpan) => string = () => '',
): string[] {
  const ids = new Set(spans.map((s) => s.spanId));
  const lines: string[] = [];
  const walk = (parent: string | undefined, depth: number): void => {
    const children = spans
      .filter((s) => (s.parentSpanId && ids.has(s.parentSpanId) ? s.parentSpanId : undefined) === parent)
      .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
    for (const span of children) {
      const extra = label(span);
      lines.push(`${'  '.repeat(depth)}${span.name}${extra ? ` ${extra}` : ''}`);
      walk(span.spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines;
}
