import { type Attributes, type Context, type Span, SpanStatusCode, trace } from '@opentelemetry/api';
import type {
  CheckpointSaveEvent,
  CustomEvent,
  InterruptEvent,
  ModelCallEvent,
  NodeEndEvent,
  NodeErrorEvent,
  NodeRetryEvent,
  NodeStartEvent,
  RunEndEvent,
  RunErrorEvent,
  RunStartEvent,
  StepEndEvent,
  StepStartEvent,
  ToolEndEvent,
  ToolStartEvent,
} from '@weft/compose';
import { redactedError, redactSecrets } from '@weft/compose';
import { endAgentSpan, openAgentSpan } from './agent-spans.js';
import { ATTR } from './attributes.js';
import { type CallPlace, errorTypeOf, recordModelCall, recordToolCalls } from './call-spans.js';
import { contentString } from './content.js';
import {
  type ModelCall,
  modelCallOf,
  type RequestedToolCall,
  readModelCall,
  readToolResults,
} from './gen-ai.js';
import { outerScope, pathKey, scopedKey, taskOfInterrupt } from './path-key.js';
import { openRunSpan } from './run-span.js';
import { closeToolSpan, openToolSpan } from './tool-spans.js';
import type { RunOrigin, TraceSettings } from './trace-settings.js';

/** A step span, ended once its checkpoint is known (or the next step of its graph begins). */
interface StepSpan {
  readonly span: Span;
  endedAt: number | undefined;
}

/** An open `invoke_agent` span of a nested agent, and the node or tool span it runs under. */
interface AgentSpan {
  readonly span: Span;
  readonly owner: Span | undefined;
}

/** An open node span and when its task started (the earliest start of the calls it makes). */
interface OpenNode {
  readonly span: Span;
  readonly since: number;
}

/** The current time in epoch milliseconds with sub-millisecond precision (what span end times take). */
function now(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * The spans of one run, opened and closed from its events: run → step → node → (nested steps →
 * nodes …), plus model and tool calls under their nodes. Spans still open when the run ends (paused or
 * aborted tasks, a failing step) are ended with the run, tagged with why.
 */
export class RunTrace {
  readonly runSpan: Span;
  private readonly runContext: Context;
  /** The root graph's `invoke_agent` span, when the root graph is an agent's. */
  private readonly rootAgent: Span | undefined;
  /** Where the root graph's steps hang: its agent span, else the run span. */
  private readonly graphContext: Context;
  /** Nested agents' `invoke_agent` spans, by their nested run (scope and path). */
  private readonly agents = new Map<string, AgentSpan>();
  private readonly steps = new Map<string, StepSpan>();
  private readonly nodes = new Map<string, OpenNode>();
  /** Tool calls the run's models asked for, by call id (their arguments go on the tool spans). */
  private readonly requested = new Map<string, RequestedToolCall>();
  /** Open tool spans (from `tool-start`), by call id. */
  private readonly tools = new Map<string, Span>();
  /**
   * Call ids that have a span (from tool events, or from a tools node's update): a later update carrying
   * the same tool messages (a subgraph's node in its parent, which hands on what its tools node wrote)
   * does not record them again.
   */
  private readonly tracedCalls = new Set<string>();
  /** Spans replaced under their key before they ended (parallel nested runs of one node path). */
  private readonly strays: Span[] = [];
  private readonly threadId: string | undefined;

  private constructor(
    readonly settings: TraceSettings,
    event: RunStartEvent,
    span: Span,
    private readonly origin: RunOrigin,
  ) {
    this.threadId = event.threadId;
    this.runSpan = span;
    this.runContext = trace.setSpan(origin.parent, span);
    this.rootAgent = event.agent
      ? openAgentSpan(settings, this.runContext, event.agent, origin.conversationId)
      : undefined;
    this.graphContext = this.rootAgent ? trace.setSpan(this.runContext, this.rootAgent) : this.runContext;
  }

  /** Opens the run span; `undefined` when it does not record (no tracer, or sampled out). */
  static start(settings: TraceSettings, event: RunStartEvent, origin: RunOrigin): RunTrace | undefined {
    const span = openRunSpan(settings, event, origin);
    return span ? new RunTrace(settings, event, span, origin) : undefined;
  }

  content(value: unknown): string {
    return contentString(value, this.settings.contentLimit ?? 0);
  }

  stepStart(event: StepStartEvent): void {
    const key = scopedKey(event.scope, event.path, event.step);
    this.closeStepsOf(event.scope, event.path);
    const parent =
      event.path.length === 0 ? this.graphContext : this.nestedAgent(event, this.nestedParent(event));
    const span = this.settings.tracer.startSpan(
      `step ${event.step}`,
      {
        attributes: {
          [ATTR.step]: event.step,
          [ATTR.stepTasks]: [...event.tasks],
          [ATTR.nodePath]: [...event.path],
        },
      },
      parent,
    );
    this.keep(this.steps, key, { span, endedAt: undefined }, (old) => old.span);
  }

  stepEnd(event: StepEndEvent): void {
    const open = this.steps.get(scopedKey(event.scope, event.path, event.step));
    if (open) open.endedAt = now();
  }

  checkpointSaved(event: CheckpointSaveEvent): void {
    if (event.path.length === 0) this.runSpan.setAttribute(ATTR.checkpointId, event.checkpointId);
    const key = scopedKey(event.scope, event.path, event.step);
    const open = this.steps.get(key);
    if (!open) return;
    open.span.setAttribute(ATTR.checkpointId, event.checkpointId);
    if (open.endedAt !== undefined) {
      open.span.end(open.endedAt);
      this.steps.delete(key);
    }
  }

  nodeStart(event: NodeStartEvent): void {
    const graphPath = event.path.slice(0, -1);
    const step = this.steps.get(scopedKey(event.scope, graphPath, event.step));
    const parent = step ? trace.setSpan(this.runContext, step.span) : this.ownerContext(graphPath);
    const span = this.settings.tracer.startSpan(
      `node ${event.node}`,
      {
        attributes: {
          [ATTR.node]: event.node,
          [ATTR.nodePath]: [...event.path],
          [ATTR.taskId]: event.taskId,
          [ATTR.step]: event.step,
          [ATTR.attempt]: event.attempt,
        },
      },
      parent,
    );
    this.keep(
      this.nodes,
      scopedKey(event.scope, event.path, event.taskId),
      { span, since: now() },
      (old) => old.span,
    );
  }

  nodeEnd(event: NodeEndEvent): void {
    const node = this.takeNode(event);
    if (!node) return;
    const results = readToolResults(event.output).filter((r) => !this.tracedCalls.has(r.toolCallId));
    if (results.length > 0) {
      recordToolCalls(this.settings, this.placeOf(node, event.path, event.taskId), results, this.requested);
      for (const result of results) {
        this.requested.delete(result.toolCallId);
        this.tracedCalls.add(result.toolCallId);
      }
    }
    this.endAgentsUnder(node.span, undefined);
    node.span.end();
  }

  /** A `tool-start` event: the call's span opens under the node running it. */
  toolStart(event: ToolStartEvent): void {
    const node = this.nodes.get(scopedKey(event.scope, event.path, event.taskId));
    const parent = node ? trace.setSpan(this.runContext, node.span) : this.runContext;
    this.keep(this.tools, event.toolCallId, openToolSpan(this.settings, parent, event), (old) => old);
    this.tracedCalls.add(event.toolCallId);
  }

  /** A `tool-end` event: the call's span ends, at the event's time. */
  toolEnd(event: ToolEndEvent): void {
    const span = this.tools.get(event.toolCallId);
    if (!span) return;
    this.tools.delete(event.toolCallId);
    this.endAgentsUnder(span, undefined);
    closeToolSpan(this.settings, span, event);
  }

  /** A `custom` event describing a model call (older agents) becomes its span under the node. */
  custom(event: CustomEvent): void {
    const call = readModelCall(event.data);
    if (call) this.recordCall(event, call);
  }

  /** A `model-call` event: the call becomes its span under the node that made it. */
  modelCall(event: ModelCallEvent): void {
    this.recordCall(event, modelCallOf(event));
  }

  private recordCall(event: CustomEvent | ModelCallEvent, call: ModelCall): void {
    const node = this.nodes.get(scopedKey(event.scope, event.path, event.taskId));
    const place: CallPlace = node
      ? this.placeOf(node, event.path, event.taskId)
      : {
          parent: this.graphContext,
          since: now(),
          path: event.path,
          taskId: event.taskId,
          conversationId: this.origin.conversationId,
        };
    recordModelCall(this.settings, place, call);
    for (const requested of call.response.toolCalls ?? []) this.requested.set(requested.id, requested);
  }

  nodeFailed(event: NodeErrorEvent | NodeRetryEvent): void {
    const span = this.takeNode(event)?.span;
    if (!span) return;
    this.endAgentsUnder(span, event.error);
    span.recordException(redactedError(event.error));
    span.setStatus({ code: SpanStatusCode.ERROR, message: redactSecrets(event.error.message) });
    span.setAttribute(ATTR.errorType, errorTypeOf(event.error));
    if (event.type === 'node-retry') {
      span.setAttribute(ATTR.retryDelay, event.delayMs);
      span.addEvent('weft.retry', { [ATTR.attempt]: event.attempt, [ATTR.retryDelay]: event.delayMs });
    }
    span.end();
  }

  interrupted(event: InterruptEvent): void {
    const attributes: Attributes = {
      [ATTR.interruptId]: event.interruptId,
      [ATTR.nodePath]: [...event.path],
    };
    if (this.settings.contentLimit !== undefined) attributes[ATTR.interruptValue] = this.content(event.value);
    const node =
      this.nodes.get(scopedKey(event.scope, event.path, taskOfInterrupt(event.interruptId))) ??
      this.lastNodeAt(event.path, event.scope);
    node?.span.addEvent('weft.interrupt', attributes);
    this.runSpan.addEvent('weft.interrupt', attributes);
  }

  finish(event: RunEndEvent | RunErrorEvent): void {
    const span = this.runSpan;
    if (event.type === 'run-end') {
      span.setAttributes({ [ATTR.runStatus]: event.status, [ATTR.runSteps]: event.steps });
      if (this.settings.contentLimit !== undefined && event.status === 'done')
        span.setAttribute(ATTR.runOutput, this.content(event.output));
      if (event.status === 'interrupted') this.paused();
      this.closeAll(event.status === 'interrupted' ? 'interrupted' : 'unfinished', undefined);
      if (this.rootAgent)
        endAgentSpan(this.rootAgent, undefined, event.status === 'interrupted' ? 'interrupted' : undefined);
    } else {
      span.setAttributes({ [ATTR.runStatus]: 'error', [ATTR.errorType]: errorTypeOf(event.error) });
      span.recordException(redactedError(event.error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: redactSecrets(event.error.message) });
      this.closeAll('aborted', event.error);
      if (this.rootAgent) endAgentSpan(this.rootAgent, event.error);
    }
    span.end();
  }

  /** Remembers the paused run's span for the run that resumes it: in memory, and through `onPause`. */
  private paused(): void {
    if (this.threadId !== undefined) this.settings.paused.remember(this.threadId, this.runSpan.spanContext());
    this.origin.onPause?.(this.origin.inject(this.runSpan));
  }

  private takeNode(event: NodeEndEvent | NodeErrorEvent | NodeRetryEvent): OpenNode | undefined {
    const key = scopedKey(event.scope, event.path, event.taskId);
    const span = this.nodes.get(key);
    if (span) this.nodes.delete(key);
    return span;
  }

  /**
   * Where a nested graph's step hangs: under the tool call it runs for (an agent used as a tool runs
   * with its call id as key), else under the task it runs in (in the run its scope nests in), else
   * under the latest task at its path.
   */
  private nestedParent(event: StepStartEvent): Context {
    const tool = event.key === undefined ? undefined : this.tools.get(event.key);
    if (tool) return trace.setSpan(this.runContext, tool);
    const owner =
      event.parentTaskId === undefined
        ? undefined
        : this.nodes.get(
            scopedKey(outerScope(event.scope, event.parentTaskId, event.key), event.path, event.parentTaskId),
          );
    return owner ? trace.setSpan(this.runContext, owner.span) : this.ownerContext(event.path);
  }

  /** The latest open node whose path is `path` (in any run): the task a nested graph at `path` runs inside. */
  private ownerContext(path: readonly string[]): Context {
    const node = this.lastNodeAt(path);
    return node ? trace.setSpan(this.runContext, node.span) : this.runContext;
  }

  /** The latest open node at `path`: of the nested run `scope` when given, else of any run. */
  private lastNodeAt(path: readonly string[], scope?: string): OpenNode | undefined {
    let found: OpenNode | undefined;
    const prefix = `${pathKey(path)}#`;
    const scoped = scopedKey(scope, path, '');
    for (const [nodeKey, node] of this.nodes) {
      const at = scope === undefined ? nodeKey.slice(nodeKey.indexOf('\u001e') + 1) : nodeKey;
      if (at.startsWith(scope === undefined ? prefix : scoped)) found = node;
    }
    return found;
  }

  private placeOf(node: OpenNode, path: readonly string[], taskId: string): CallPlace {
    return {
      parent: trace.setSpan(this.runContext, node.span),
      since: node.since,
      path,
      taskId,
      conversationId: this.origin.conversationId,
    };
  }

  /**
   * Where a nested graph's step hangs, given its owner (`parent`): under the graph's `invoke_agent`
   * span when the graph is an agent's — opened at the nested run's first step, under the owner, and
   * ended with the owner.
   */
  private nestedAgent(event: StepStartEvent, parent: Context): Context {
    if (!event.agent) return parent;
    const key = scopedKey(event.scope, event.path, 'agent');
    let open = this.agents.get(key);
    if (!open) {
      const span = openAgentSpan(this.settings, parent, event.agent, this.origin.conversationId);
      open = { span, owner: trace.getSpan(parent) };
      this.agents.set(key, open);
    }
    return trace.setSpan(this.runContext, open.span);
  }

  /** Ends the nested agents' spans that run under `owner` (a node or tool span about to end). */
  private endAgentsUnder(owner: Span, error: Error | undefined): void {
    for (const [key, open] of this.agents) {
      if (open.owner !== owner) continue;
      this.agents.delete(key);
      endAgentSpan(open.span, error);
    }
  }

  /** Ends the steps of the graph at `path` (in run `scope`) whose end is known and whose checkpoint never came. */
  private closeStepsOf(scope: string | undefined, path: readonly string[]): void {
    const prefix = scopedKey(scope, path, '');
    for (const [key, open] of this.steps) {
      if (open.endedAt === undefined || !key.startsWith(prefix)) continue;
      if (key.slice(prefix.length).includes('#')) continue;
      open.span.end(open.endedAt);
      this.steps.delete(key);
    }
  }

  private keep<TValue>(
    map: Map<string, TValue>,
    key: string,
    value: TValue,
    spanOf: (old: TValue) => Span,
  ): void {
    const old = map.get(key);
    if (old !== undefined) this.strays.push(spanOf(old));
    map.set(key, value);
  }

  /** Ends what is still open when the run ends: nodes first, then steps (innermost first). */
  private closeAll(status: string, error: Error | undefined): void {
    for (const { span } of [...this.agents.values()].reverse()) endAgentSpan(span, undefined, status);
    this.agents.clear();
    for (const span of [...this.tools.values()].reverse()) {
      span.setAttribute(ATTR.status, status);
      span.end();
    }
    this.tools.clear();
    this.tracedCalls.clear();
    for (const { span } of [...this.nodes.values()].reverse()) {
      span.setAttribute(ATTR.status, status);
      span.end();
    }
    this.nodes.clear();
    for (const open of [...this.steps.values()].reverse()) {
      if (open.endedAt !== undefined) {
        open.span.end(open.endedAt);
        continue;
      }
      open.span.setAttribute(ATTR.status, status);
      if (error) open.span.setStatus({ code: SpanStatusCode.ERROR, message: redactSecrets(error.message) });
      open.span.end();
    }
    this.steps.clear();
    for (const span of this.strays) span.end();
    this.strays.length = 0;
  }
}
