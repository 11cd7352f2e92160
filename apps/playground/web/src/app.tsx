import { ReactFlowProvider } from '@xyflow/react';
import { useMemo, useState } from 'react';
import type { InterruptInfo, Json } from '../../src/shared/wire.ts';
import { AgentToolsPanel } from './agent-tools/agent-tools-panel.tsx';
import { EvalsView } from './evals/evals-view.tsx';
import { GraphList } from './graph-view/graph-list.tsx';
import { GraphView } from './graph-view/graph-view.tsx';
import { RunControls } from './input-form/run-controls.tsx';
import { Inspector } from './inspector.tsx';
import { InterruptPanel } from './interrupts/interrupt-panel.tsx';
import { MemoryView } from './memory/memory-view.tsx';
import { ThreadArtifacts } from './memory/thread-artifacts.tsx';
import { nodeStates, runInput, type StepView, stepCount, stepsOf, streamedText } from './run-model.ts';
import { usePlayground } from './state/use-playground.ts';
import { ThreadHistory } from './threads/thread-history.tsx';
import { ThreadsList } from './threads/threads-list.tsx';
import { LiveOutput } from './timeline/live-output.tsx';
import { Timeline } from './timeline/timeline.tsx';
import { PricesContext } from './usage/prices-context.ts';

type Playground = ReturnType<typeof usePlayground>;

/** What waits for the user: the run's interrupts, or (before any run on this page) the thread's. */
function pendingOf(p: Playground): readonly InterruptInfo[] {
  if (p.run?.status === 'running') return [];
  if (p.run) return p.run.status === 'interrupted' ? p.run.interrupts : [];
  return p.history[0]?.interrupts ?? [];
}

function messagesOf(values: Json | undefined): Json | undefined {
  return typeof values === 'object' && values !== null && !Array.isArray(values)
    ? values.messages
    : undefined;
}

function Banners(props: { p: Playground }) {
  const { p } = props;
  return (
    <>
      {p.loadProblems.length > 0 && <div className="banner warning">{p.loadProblems.join(' · ')}</div>}
      {p.problem && (
        <div className="banner error" data-testid="problem">
          {p.problem.message}
          <button type="button" className="icon" onClick={p.actions.dismissProblem} aria-label="Dismiss">
            ×
          </button>
        </div>
      )}
    </>
  );
}

function Sidebar({ p }: { p: Playground }) {
  const { actions } = p;
  return (
    <aside className="sidebar">
      <GraphList graphs={p.graphs} selected={p.graph?.id} onSelect={actions.selectGraph} />
      <ThreadsList
        threads={p.threads}
        selectedId={p.thread?.id}
        onSelect={actions.selectThread}
        onCreate={actions.createThread}
        onDelete={actions.deleteThread}
      />
      {p.thread && <ThreadHistory history={p.history} selection={p.selection} onSelect={actions.select} />}
      {p.thread && (
        <ThreadArtifacts
          key={`${p.thread.id}:${p.run?.id ?? ''}:${p.run?.status ?? ''}`}
          threadId={p.thread.id}
        />
      )}
    </aside>
  );
}

function Panel({ p, steps }: { p: Playground; steps: readonly StepView[] }) {
  const { graph, run, events, history, actions } = p;
  const running = run?.status === 'running';
  const canContinue = run?.status === 'cancelled' && (history[0]?.next.length ?? 0) > 0;
  const problems = (action: string) => (p.problem?.action === action ? p.problem.fields : []);
  return (
    <aside className="panel">
      {graph && (
        <RunControls
          key={graph.id}
          graph={graph}
          running={running}
          canContinue={canContinue}
          problems={problems('input')}
          onStart={actions.start}
          onStop={actions.stop}
          onContinue={actions.continue}
        />
      )}
      <InterruptPanel
        interrupts={pendingOf(p)}
        disabled={running}
        problems={problems('resume')}
        onResume={actions.resume}
        onContinue={actions.continue}
      />
      {graph && <AgentToolsPanel topology={graph.topology} />}
      {graph?.kind === 'agent' && p.thread && (
        <LiveOutput
          messages={messagesOf(history[0]?.values)}
          streamed={streamedText(events)}
          running={running}
          error={run?.status === 'error' ? run.error : undefined}
        />
      )}
      <Inspector
        selection={p.selection}
        steps={steps}
        input={runInput(events)}
        events={events}
        topology={p.graph?.topology}
        history={history}
        busy={running}
        onFork={actions.fork}
      />
    </aside>
  );
}

/** The playground: graphs and threads on the left, the graph and the run in the middle, controls and details on the right. */
/** Switches between the graphs view, the Evals tab and the Memory tab. */
function Tabs(props: {
  readonly tab: 'graphs' | 'evals' | 'memory';
  readonly onTab: (tab: 'graphs' | 'evals' | 'memory') => void;
}) {
  return (
    <nav className="tabs">
      {(['graphs', 'evals', 'memory'] as const).map((tab) => (
        <button
          key={tab}
          type="button"
          className={`small${props.tab === tab ? ' active' : ''}`}
          data-testid={`tab-${tab}`}
          onClick={() => props.onTab(tab)}
        >
          {tab === 'graphs' ? 'Graphs' : tab === 'evals' ? 'Evals' : 'Memory'}
        </button>
      ))}
    </nav>
  );
}

export function App() {
  const [tab, setTab] = useState<'graphs' | 'evals' | 'memory'>('graphs');
  const p = usePlayground();
  const { graph, run, events } = p;
  const steps = useMemo(() => stepsOf(events), [events]);
  const states = useMemo(() => nodeStates(events, run), [events, run]);
  return (
    <div className="app">
      <header className="topbar">
        <h1>
          weft <span>playground</span>
        </h1>
        {graph && tab === 'graphs' && <span className="muted">{graph.description}</span>}
        <Tabs tab={tab} onTab={setTab} />
      </header>
      <PricesContext.Provider value={p.prices}>
        {tab === 'evals' ? (
          <EvalsView />
        ) : tab === 'memory' ? (
          <MemoryView />
        ) : (
          <GraphsTab p={p} steps={steps} states={states} />
        )}
      </PricesContext.Provider>
    </div>
  );
}

function GraphsTab(props: {
  readonly p: Playground;
  readonly steps: readonly StepView[];
  readonly states: ReturnType<typeof nodeStates>;
}) {
  const { p, steps, states } = props;
  const { graph, run, events, actions } = p;
  return (
    <>
      <Banners p={p} />
      <Sidebar p={p} />
      <main className="center">
        {graph && (
          <ReactFlowProvider>
            <GraphView
              topology={graph.topology}
              states={states}
              onToggleBreakpoint={actions.toggleBreakpoint}
              breakpoints={
                graph.breakpoints ? (p.thread?.breakpoints ?? { before: [], after: [] }) : undefined
              }
            />
          </ReactFlowProvider>
        )}
        <Timeline
          run={run}
          runs={p.runs}
          events={events}
          steps={steps}
          stepCount={stepCount(events)}
          selection={p.selection}
          onSelect={actions.select}
          onSelectRun={actions.selectRun}
        />
      </main>
      <Panel p={p} steps={steps} />
    </>
  );
}
