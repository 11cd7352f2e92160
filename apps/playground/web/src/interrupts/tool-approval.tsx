import { useState } from 'react';
import type { Json } from '../../../src/shared/wire.ts';

/** A tool call waiting for approval. */
export interface PendingCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** Approve or reject each tool call an agent wants to make (a reason is told to the model). */
export function ToolApproval(props: {
  readonly agent: string;
  readonly calls: readonly PendingCall[];
  readonly disabled: boolean;
  readonly onDecide: (decisions: Json) => void;
}) {
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const decideAll = (approved: boolean) => {
    const decisions: Record<string, Json> = {};
    for (const call of props.calls) {
      const reason = reasons[call.id]?.trim();
      decisions[call.id] = approved
        ? true
        : { approved: false, ...(reason ? { reason } : { reason: 'rejected in the playground' }) };
    }
    props.onDecide(decisions);
  };
  return (
    <div className="tool-approval" data-testid="tool-approval">
      <p>
        <strong>{props.agent}</strong> wants to call:
      </p>
      {props.calls.map((call) => (
        <div key={call.id} className="tool-call-approval">
          <code>
            {call.name}({call.arguments})
          </code>
          <input
            type="text"
            placeholder="Reason (if rejected)"
            value={reasons[call.id] ?? ''}
            onChange={(e) => setReasons((old) => ({ ...old, [call.id]: e.target.value }))}
          />
        </div>
      ))}
      <div className="form-actions">
        <button
          type="button"
          className="primary"
          data-testid="approve"
          disabled={props.disabled}
          onClick={() => decideAll(true)}
        >
          Approve
        </button>
        <button
          type="button"
          className="danger"
          data-testid="reject"
          disabled={props.disabled}
          onClick={() => decideAll(false)}
        >
          Reject
        </button>
      </div>
    </div>
  );
}
