import { useState } from 'react';
import type { InterruptInfo, Json, JsonSchema } from '../../../src/shared/wire.ts';
import { type FieldProblem, SchemaForm } from '../input-form/schema-form.tsx';
import { type PendingCall, ToolApproval } from './tool-approval.tsx';

type Value = { readonly [key: string]: Json };

function isRecord(value: Json): value is Value {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function RawResume(props: { disabled: boolean; onResume: (value: Json) => void }) {
  const [text, setText] = useState('true');
  const [error, setError] = useState<string | undefined>();
  return (
    <form
      className="schema-form"
      onSubmit={(event) => {
        event.preventDefault();
        try {
          props.onResume(JSON.parse(text) as Json);
        } catch (failure) {
          setError(`not valid JSON: ${(failure as Error).message}`);
        }
      }}
    >
      <textarea
        className="json-input"
        name="resume"
        rows={3}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      {error && <div className="error-text">{error}</div>}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={props.disabled}>
          Resume
        </button>
      </div>
    </form>
  );
}

interface OneProps {
  readonly interrupt: InterruptInfo;
  readonly disabled: boolean;
  readonly problems: readonly FieldProblem[];
  readonly onResume: (value: Json, interruptId: string) => void;
  readonly onContinue: () => void;
}

function BreakpointPause(props: { value: Value; disabled: boolean; onContinue: () => void }) {
  const { value } = props;
  const label =
    value.breakpoint !== undefined
      ? `Breakpoint ${String(value.breakpoint)} ${String(value.node)}`
      : `Stopped at ${String(value.at)}`;
  return (
    <div className="breakpoint-pause">
      <p>{label}</p>
      <button
        type="button"
        className="primary"
        data-testid="continue"
        disabled={props.disabled}
        onClick={props.onContinue}
      >
        Continue
      </button>
    </div>
  );
}

function QuestionResume(props: OneProps & { value: Value | undefined }) {
  const { interrupt, value } = props;
  const schema =
    value && isRecord(value.schema as Json) ? (value.schema as unknown as JsonSchema) : undefined;
  const resume = (answer: Json) => props.onResume(answer, interrupt.id);
  return (
    <div className="resume">
      <p className="muted">Paused at {interrupt.path.join(' › ')}</p>
      {typeof value?.question === 'string' && <p className="question">{value.question}</p>}
      {typeof value?.problem === 'string' && <p className="error-text">{value.problem}</p>}
      {schema ? (
        <SchemaForm
          schema={schema}
          submitLabel="Resume"
          testId="resume-form"
          disabled={props.disabled}
          problems={props.problems}
          onSubmit={resume}
        />
      ) : (
        <>
          {!value?.question && <pre className="json">{JSON.stringify(interrupt.value, null, 2)}</pre>}
          <RawResume disabled={props.disabled} onResume={resume} />
        </>
      )}
    </div>
  );
}

function OneInterrupt(props: OneProps) {
  const { interrupt } = props;
  const value = isRecord(interrupt.value) ? interrupt.value : undefined;
  if (value?.type === 'tool-approval') {
    return (
      <ToolApproval
        agent={String(value.agent)}
        calls={(value.calls ?? []) as unknown as PendingCall[]}
        disabled={props.disabled}
        onDecide={(decisions) => props.onResume(decisions, interrupt.id)}
      />
    );
  }
  if (value && (value.breakpoint !== undefined || value.type === 'cancelled')) {
    return <BreakpointPause value={value} disabled={props.disabled} onContinue={props.onContinue} />;
  }
  return <QuestionResume {...props} value={value} />;
}

/** What a paused thread waits for: a resume form per interrupt, approvals, or Continue for breakpoints. */
export function InterruptPanel(props: {
  readonly interrupts: readonly InterruptInfo[];
  readonly disabled: boolean;
  readonly problems: readonly FieldProblem[];
  readonly onResume: (value: Json, interruptId: string) => void;
  readonly onContinue: () => void;
}) {
  if (props.interrupts.length === 0) return null;
  return (
    <section className="interrupts" data-testid="interrupts">
      <h2>Waiting for you</h2>
      {props.interrupts.map((interrupt) => (
        <OneInterrupt
          key={interrupt.id}
          interrupt={interrupt}
          disabled={props.disabled}
          problems={props.problems}
          onResume={props.onResume}
          onContinue={props.onContinue}
        />
      ))}
    </section>
  );
}
