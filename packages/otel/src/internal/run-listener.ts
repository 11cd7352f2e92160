import type { RunEvent } from '@weft/compose';
import { RunTrace } from './run-trace.js';
import type { RunOrigin, TraceSettings } from './trace-settings.js';

/**
 * Routes the events of the runs one callbacks object watches to their {@link RunTrace}s (one callbacks
 * object may watch several runs, e.g. through `batch`). A run whose span does not record is not
 * followed: its events cost a map lookup each.
 */
export class RunListener {
  private readonly runs = new Map<string, RunTrace>();

  constructor(
    private readonly settings: TraceSettings,
    private readonly origin: () => RunOrigin,
  ) {}

  onEvent(event: RunEvent): void {
    if (event.type === 'run-start') {
      const run = RunTrace.start(this.settings, event, this.origin());
      if (run) this.runs.set(event.runId, run);
      return;
    }
    const run = this.runs.get(event.runId);
    if (!run) return;
    switch (event.type) {
      case 'step-start':
        run.stepStart(event);
        break;
      case 'step-end':
        run.stepEnd(event);
        break;
      case 'node-start':
        run.nodeStart(event);
        break;
      case 'node-end':
        run.nodeEnd(event);
        break;
      case 'node-retry':
      case 'node-error':
        run.nodeFailed(event);
        break;
      case 'checkpoint-save':
        run.checkpointSaved(event);
        break;
      case 'interrupt':
        run.interrupted(event);
        break;
      case 'run-end':
      case 'run-error':
        this.runs.delete(event.runId);
        run.finish(event);
        break;
      case 'custom':
        run.custom(event);
        break;
      case 'model-call':
        run.modelCall(event);
        break;
      case 'tool-start':
        run.toolStart(event);
        break;
      case 'tool-end':
        run.toolEnd(event);
        break;
      case 'chunk':
        return;
    }
  }
}
