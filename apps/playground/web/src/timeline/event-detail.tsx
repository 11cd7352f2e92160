import type { Json, WireEvent, WireEventOf } from '../../../src/shared/wire.ts';
import { formatUsage, type MessageJson, transferCallTarget } from '../conversation/conversation-model.ts';

function text(content: Json | undefined): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((part) =>
        typeof part === 'object' && part && 'text' in part ? String(part.text) : JSON.stringify(part),
      )
      .join('');
  return content === undefined || content === null ? '' : JSON.stringify(content);
}

/** One chat message: who wrote it (role and agent), text, tool calls (hand-offs as `→ agent`), usage. */
export function MessageView(props: { readonly message: MessageJson }) {
  const { message } = props;
  return (
    <div className={`message message-${message.role ?? 'unknown'}`} data-testid="message">
      <div className="message-role">
        {message.role}
        {message.author && (
          <span className="message-agent" data-testid="message-agent">
            {' '}
            · {message.author}
          </span>
        )}
        {message.toolCallId ? ` (${message.toolCallId})` : ''}
        {message.usage && (
          <span className="message-usage" data-testid="message-usage" title={formatUsage(message.usage)}>
            {message.usage.totalTokens.toLocaleString('en-US')} tokens
          </span>
        )}
      </div>
      {text(message.content) && <div className="message-text">{text(message.content)}</div>}
      {(message.toolCalls ?? []).map((call) => {
        const to = transferCallTarget(call);
        return to !== undefined ? (
          <div key={call.id ?? call.name} className="tool-call transfer-call">
            hands over to {to}
          </div>
        ) : (
          <div key={call.id ?? call.name} className="tool-call">
            ⚙ {call.name}({call.arguments})
          </div>
        );
      })}
    </div>
  );
}

function ModelCall(props: { event: WireEventOf<'model-call'> }) {
  const { request } = props.event;
  // Model-call messages are adk messages (compose types them as unknown JSON).
  const messages = request.messages as readonly MessageJson[];
  const response = props.event.response as MessageJson | undefined;
  return (
    <div className="model-call" data-testid="model-call-detail">
      <h3>Model call</h3>
      <p className="muted">
        {props.event.durationMs} ms · tools: {request.tools.join(', ') || 'none'}
      </p>
      <h4>Request messages ({messages.length})</h4>
      {messages.map((message) => (
        <MessageView key={JSON.stringify(message)} message={message} />
      ))}
      <h4>Response</h4>
      {response ? (
        <MessageView message={response} />
      ) : (
        <pre className="json">{JSON.stringify(props.event.error, null, 2)}</pre>
      )}
    </div>
  );
}

/** The inspector for one event: model calls as request and response; anything else as JSON. */
export function EventDetail(props: { readonly event: WireEvent }) {
  if (props.event.type === 'model-call') return <ModelCall event={props.event} />;
  const { seq: _seq, ...rest } = props.event;
  return (
    <div className="event-detail" data-testid="event-detail">
      <h3>{props.event.type}</h3>
      <pre className="json">{JSON.stringify(rest, null, 2)}</pre>
    </div>
  );
}
