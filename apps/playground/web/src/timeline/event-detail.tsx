import type { Json, WireEvent } from '../../../src/shared/wire.ts';

interface MessageJson {
  readonly role?: string;
  readonly content?: Json;
  readonly toolCalls?: ReadonlyArray<{
    readonly id?: string;
    readonly name?: string;
    readonly arguments?: string;
  }>;
  readonly toolCallId?: string;
}

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

/** One chat message: role, text, tool calls. */
export function MessageView(props: { readonly message: MessageJson }) {
  const { message } = props;
  return (
    <div className={`message message-${message.role ?? 'unknown'}`}>
      <div className="message-role">
        {message.role}
        {message.toolCallId ? ` (${message.toolCallId})` : ''}
      </div>
      {text(message.content) && <div className="message-text">{text(message.content)}</div>}
      {(message.toolCalls ?? []).map((call) => (
        <div key={call.id ?? call.name} className="tool-call">
          ⚙ {call.name}({call.arguments})
        </div>
      ))}
    </div>
  );
}

function ModelCall(props: { event: WireEvent }) {
  const request = props.event.request as
    | { messages?: MessageJson[]; tools?: Array<{ name: string }>; options?: Json }
    | undefined;
  const response = props.event.response as MessageJson | undefined;
  return (
    <div className="model-call" data-testid="model-call-detail">
      <h3>Model call</h3>
      <p className="muted">
        {props.event.durationMs as number} ms · tools:{' '}
        {(request?.tools ?? []).map((t) => t.name).join(', ') || 'none'}
      </p>
      <h4>Request messages ({request?.messages?.length ?? 0})</h4>
      {(request?.messages ?? []).map((message) => (
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
