import { randomUUID } from 'node:crypto';
import {
  type Artifact,
  type Message,
  type Part,
  Role,
  type StreamResponse,
  type Task,
  TaskState,
  taskStateToJSON,
} from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import type { JsonValue, MessageContent } from '@weft/adk';
import { fromA2aParts, textOfParts } from '../parts/a2a-parts.js';

/** How one message to a remote agent ended: what a paused node remembers (plain JSON). */
export interface Exchange {
  /** The task's final (or interrupted) state, e.g. `TASK_STATE_COMPLETED`; `MESSAGE` for a message reply. */
  readonly state: string;
  readonly taskId: string;
  readonly contextId: string;
  /** The reply: the task's artifacts (else its status message), or the message's parts. */
  readonly content: MessageContent;
  /** The status message's text parts (the question, when input is required; the reason, when it failed). */
  readonly statusText: string;
  /** The status message's data parts. */
  readonly statusData: readonly JsonValue[];
}

/** What the exchange reports while it goes. */
export interface ExchangeIo {
  readonly signal: AbortSignal;
  readonly streaming: boolean;
  /** Reply text as it streams. */
  chunk(text: string): Promise<void> | void;
  /** A status the remote task reported, with its message's text. */
  status(state: string, text: string): Promise<void> | void;
  /** The remote task's id, as soon as it is known (what a cancel cancels). */
  task(taskId: string): void;
}

/** States a task stops in for its client (terminal ones and those that want the client). */
const settled = new Set<TaskState>([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
  TaskState.TASK_STATE_INPUT_REQUIRED,
  TaskState.TASK_STATE_AUTH_REQUIRED,
]);

/** A user message to a remote agent (in its context and task, when continuing one). */
export function a2aMessage(
  parts: Part[],
  ids: { readonly contextId?: string; readonly taskId?: string },
): Message {
  return {
    messageId: randomUUID(),
    contextId: ids.contextId ?? '',
    taskId: ids.taskId ?? '',
    role: Role.ROLE_USER,
    parts,
    metadata: {},
    extensions: [],
    referenceTaskIds: [],
  };
}

/**
 * Sends one message and follows the task it starts (or continues) until it settles: streamed with
 * `SendStreamingMessage` when the agent streams (reply text as it is written, statuses as they come;
 * a dropped stream is followed again with `SubscribeToTask`), else with a blocking `SendMessage`.
 */
export async function exchange(client: Client, message: Message, io: ExchangeIo): Promise<Exchange> {
  const tracker = new TaskTracker(message.contextId);
  const options = { signal: io.signal };
  const params = { tenant: '', message, configuration: undefined, metadata: {} };
  if (!io.streaming) {
    // The task's id comes back at once (what a cancel needs); then it is polled until it settles.
    const configuration = {
      acceptedOutputModes: [],
      taskPushNotificationConfig: undefined,
      returnImmediately: true,
    };
    const result = await client.sendMessage({ ...params, configuration }, options);
    if ('messageId' in result) return tracker.messageReply(result);
    tracker.task(result);
    io.task(result.id);
    await poll(client, tracker, io.signal);
  } else {
    await follow(client.sendMessageStream(params, options), tracker, io);
    if (!tracker.settled && tracker.taskId)
      await follow(client.resubscribeTask({ tenant: '', id: tracker.taskId }, options), tracker, io);
  }
  if (tracker.reply) return tracker.reply;
  if (!tracker.settled && tracker.taskId)
    tracker.task(await client.getTask({ tenant: '', id: tracker.taskId, historyLength: 0 }, options));
  return tracker.result();
}

/** Reads the task again, waiting longer each time (0.2 s, doubling to 2 s), until it settles. */
async function poll(client: Client, tracker: TaskTracker, signal: AbortSignal): Promise<void> {
  for (let wait = 200; !tracker.settled; wait = Math.min(wait * 2, 2000)) {
    await pause(wait, signal);
    tracker.task(await client.getTask({ tenant: '', id: tracker.taskId, historyLength: 0 }, { signal }));
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const stop = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal.addEventListener('abort', stop, { once: true });
  });
}

async function follow(
  events: AsyncIterable<StreamResponse>,
  tracker: TaskTracker,
  io: ExchangeIo,
): Promise<void> {
  for await (const event of events) {
    const payload = event.payload;
    if (!payload) continue;
    if (payload.$case === 'message') {
      tracker.messageReply(payload.value);
      return;
    }
    if (payload.$case === 'task') {
      tracker.task(payload.value);
      io.task(payload.value.id);
    } else if (payload.$case === 'statusUpdate') {
      const status = payload.value.status;
      if (!status) continue;
      tracker.status(status.state, status.message?.parts ?? []);
      if (!settled.has(status.state) && status.message)
        await io.status(taskStateToJSON(status.state), textOfParts(status.message.parts));
    } else {
      const streamed = tracker.artifact(payload.value.artifact, payload.value.append);
      if (streamed) await io.chunk(streamed);
    }
  }
}

/** The state of one remote task as its events arrive, as the SDK's result manager folds them. */
class TaskTracker {
  taskId = '';
  contextId: string;
  state: TaskState = TaskState.TASK_STATE_SUBMITTED;
  statusParts: Part[] = [];
  readonly artifacts = new Map<string, Artifact>();
  reply: Exchange | undefined;

  constructor(contextId: string) {
    this.contextId = contextId;
  }

  get settled(): boolean {
    return settled.has(this.state);
  }

  messageReply(message: Message): Exchange {
    this.reply = {
      state: 'MESSAGE',
      taskId: message.taskId,
      contextId: message.contextId || this.contextId,
      content: fromA2aParts(message.parts),
      statusText: '',
      statusData: [],
    };
    return this.reply;
  }

  task(task: Task): void {
    this.taskId = task.id;
    this.contextId = task.contextId;
    for (const artifact of task.artifacts) this.artifacts.set(artifact.artifactId, artifact);
    if (task.status) this.status(task.status.state, task.status.message?.parts ?? []);
  }

  status(state: TaskState, parts: Part[]): void {
    this.state = state;
    this.statusParts = parts;
  }

  /** Folds an artifact update in; returns the text it appended (what streams), if any. */
  artifact(artifact: Artifact | undefined, append: boolean): string | undefined {
    if (!artifact) return undefined;
    const existing = this.artifacts.get(artifact.artifactId);
    const before = existing ? streamedText(existing.parts) : '';
    const next =
      existing && append ? { ...existing, parts: [...existing.parts, ...artifact.parts] } : artifact;
    this.artifacts.set(artifact.artifactId, next);
    const after = streamedText(next.parts);
    return after.startsWith(before) && after.length > before.length ? after.slice(before.length) : undefined;
  }

  result(): Exchange {
    const artifactParts = [...this.artifacts.values()].flatMap((artifact) => artifact.parts);
    return {
      state: taskStateToJSON(this.state),
      taskId: this.taskId,
      contextId: this.contextId,
      content: fromA2aParts(joinTexts(artifactParts.length > 0 ? artifactParts : this.statusParts)),
      statusText: textsOf(this.statusParts),
      statusData: this.statusParts.flatMap((part) =>
        part.content?.$case === 'data' ? [(part.content.value ?? null) as JsonValue] : [],
      ),
    };
  }
}

function textsOf(parts: readonly Part[]): string {
  return parts.flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : [])).join('\n');
}

/** The text an artifact's parts spell when streamed: its text parts one after the other. */
function streamedText(parts: readonly Part[]): string {
  return parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
}

/** Parts with each run of text parts (a streamed reply's pieces) joined into one. */
function joinTexts(parts: readonly Part[]): Part[] {
  const joined: Part[] = [];
  for (const part of parts) {
    const last = joined.at(-1);
    if (part.content?.$case === 'text' && last?.content?.$case === 'text')
      joined[joined.length - 1] = {
        ...last,
        content: { $case: 'text', value: last.content.value + part.content.value },
      };
    else joined.push(part);
  }
  return joined;
}
