import type { Json } from '../../../src/shared/wire.ts';
import { MessageView } from './event-detail.tsx';

/**
 * An agent's conversation (from the thread's latest state) and the text the model is streaming now,
 * shown token by token as it arrives.
 */
export function LiveOutput(props: {
  readonly messages: Json | undefined;
  readonly streamed: readonly string[];
  readonly running: boolean;
}) {
  const messages = Array.isArray(props.messages) ? props.messages : [];
  const live = props.running ? props.streamed.at(-1) : undefined;
  return (
    <section className="live-output" data-testid="live-output">
      <h2>Conversation</h2>
      {messages.length === 0 && !live && <p className="muted">Say something to the agent.</p>}
      {messages.map((message) => (
        <MessageView key={JSON.stringify(message)} message={message as never} />
      ))}
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
