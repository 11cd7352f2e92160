import type { Json } from '../../../src/shared/wire.ts';
import {
  conversationOf,
  formatUsage,
  type MessageJson,
  usageOf,
} from '../conversation/conversation-model.ts';
import { MessageView } from './event-detail.tsx';

function UsageLine({ messages }: { messages: readonly MessageJson[] }) {
  const usage = usageOf(messages);
  if (usage.calls === 0) return null;
  return (
    <div className="usage-summary" data-testid="usage-summary">
      <div title={formatUsage(usage.total)}>
        {usage.calls} model call{usage.calls === 1 ? '' : 's'} · {formatUsage(usage.total)}
      </div>
      {usage.byAgent.length > 1 &&
        usage.byAgent.map((entry) => (
          <div key={entry.agent} className="usage-agent" data-testid="usage-agent">
            {entry.agent}: {entry.usage.totalTokens.toLocaleString('en-US')} tokens in {entry.calls} call
            {entry.calls === 1 ? '' : 's'}
          </div>
        ))}
    </div>
  );
}

/**
 * An agent's conversation (from the thread's latest state) and the text the model is streaming now,
 * shown token by token as it arrives. In a team each message says which agent wrote it, hand-offs read
 * `supervisor → researcher`, and the token usage is summed per agent and for the thread.
 */
export function LiveOutput(props: {
  readonly messages: Json | undefined;
  readonly streamed: readonly string[];
  readonly running: boolean;
  /** Why the last run failed, shown as the conversation's last line (the turn got no reply). */
  readonly error?: { readonly message: string; readonly code?: string } | undefined;
}) {
  const messages = (Array.isArray(props.messages) ? props.messages : []) as readonly MessageJson[];
  const live = props.running ? props.streamed.at(-1) : undefined;
  return (
    <section className="live-output" data-testid="live-output">
      <h2>Conversation</h2>
      <UsageLine messages={messages} />
      {messages.length === 0 && !live && <p className="muted">Say something to the agent.</p>}
      {conversationOf(messages).map((item, i) =>
        item.kind === 'transfer' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: hand-offs have no id; the list only grows
          <div key={`transfer-${i}`} className="transfer" data-testid="transfer">
            {item.from} → {item.to}
          </div>
        ) : (
          <MessageView key={JSON.stringify(item.message)} message={item.message} />
        ),
      )}
      {props.error && !props.running && (
        <div className="message message-error" data-testid="chat-error" role="alert">
          <div className="message-role">error{props.error.code ? ` · ${props.error.code}` : ''}</div>
          <div className="message-text">{props.error.message}</div>
        </div>
      )}
      {live !== undefined && (
        <div className="message message-assistant streaming" data-testid="streaming">
          <div className="message-role">assistant (streaming)</div>
          <div className="message-text">
            {live}
            <span className="caret">▍</span>
          </div>
        </div>
      )}
    </section>
  );
}
