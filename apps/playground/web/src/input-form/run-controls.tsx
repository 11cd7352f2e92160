import type { GraphInfo, Json } from '../../../src/shared/wire.ts';
import { type FieldProblem, SchemaForm } from './schema-form.tsx';

/** The input form of a graph (or the message box of an agent), with Stop while a run goes on. */
export function RunControls(props: {
  readonly graph: GraphInfo;
  readonly running: boolean;
  readonly canContinue: boolean;
  readonly problems: readonly FieldProblem[];
  readonly onStart: (input: Json) => void;
  readonly onStop: () => void;
  readonly onContinue: () => void;
}) {
  const agent = props.graph.kind === 'agent';
  return (
    <section className="run-controls" data-testid="run-controls">
      <header className="section-header">
        <h2>{agent ? 'Message' : 'Input'}</h2>
        {props.running && (
          <button type="button" className="danger" data-testid="stop" onClick={props.onStop}>
            ■ Stop
          </button>
        )}
        {props.canContinue && (
          <button type="button" data-testid="continue-run" onClick={props.onContinue}>
            Continue
          </button>
        )}
      </header>
      <SchemaForm
        schema={props.graph.inputSchema}
        submitLabel={agent ? 'Send' : 'Run'}
        testId="input-form"
        disabled={props.running}
        problemPrefix="input"
        problems={props.problems}
        onSubmit={props.onStart}
      />
    </section>
  );
}
