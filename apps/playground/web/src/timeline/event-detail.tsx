import type { Json, Topology, WireEvent, WireEventOf } from '../../../src/shared/wire.ts';
import { agentToolLists, type OfferedTools, offeredTools } from '../agent-tools/tools-model.ts';
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

/** The tools a model call was offered: the agent's own, those loaded for it, and the agent's left out. */
function OfferedToolsView(props: {
  readonly tools: readonly string[];
  readonly split: OfferedTools | undefined;
}) {
  const { split } = props;
  if (!split) return <p className="muted">tools: {props.tools.join(', ') || 'none'}</p>;
  return (
    <div className="offered-tools" data-testid="offered-tools">
      <h4>
        Tools offered ({split.offered.length}
        {split.notOffered.length > 0
          ? ` of the agent's ${split.offered.filter((t) => !t.loaded).length + split.notOffered.length}`
          : ''}
        )
      </h4>
      <ul>
        {split.offered.map((tool) => (
          <li key={tool.name} data-testid="offered-tool" data-loaded={tool.loaded}>
            <code>{tool.name}</code>
            {tool.source && <span className="tool-source">{tool.source}</span>}
            {tool.loaded && <span className="tool-loaded">loaded for this call</span>}
          </li>
        ))}
      </ul>
      {split.notOffered.length > 0 && (
        <p className="muted" data-testid="not-offered">
          not offered: {split.notOffered.join(', ')}
        </p>
      )}
    </div>
  );
}

function ModelCall(props: { event: WireEventOf<'model-call'>; topology: Topology | undefined }) {
  const { request } = props.event;
  // Model-call messages are adk messages (compose types them as unknown JSON).
  const messages = request.messages as readonly MessageJson[];
  const response = props.event.response as MessageJson | undefined;
  return (
    <div className="model-call" data-testid="model-call-detail">
      <h3>Model call</h3>
      <p className="muted">
        {props.event.durationMs} ms · {props.event.model}
        {props.event.agent ? ` · ${props.event.agent}` : ''}
      </p>
      <OfferedToolsView
        tools={request.tools}
        split={
          props.topology
            ? offeredTools(request.tools, agentToolLists(props.topology), props.event.agent)
            : undefined
        }
      />
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

/**
 * The inspector for one event: model calls as request (with the tools offered, against the agent's own
 * from the graph's `topology`) and response; anything else as JSON.
 */
export function EventDetail(props: { readonly event: WireEvent; readonly topology?: Topology | undefined }) {
  if (props.event.type === 'model-call') return <ModelCall event={props.event} topology={props.topology} />;
  const { seq: _seq, ...rest } = props.event;
  return (
    <div className="event-detail" data-testid="event-detail">
      <h3>{props.event.type}</h3>
      <pre className="json">{JSON.stringify(rest, null, 2)}</pre>
    </div>
  );
}
