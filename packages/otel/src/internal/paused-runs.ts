import type { SpanContext } from '@opentelemetry/api';

/**
 * The span context of the last run that paused on each thread, so the run that resumes it can link to
 * it. Bounded: the oldest thread is forgotten first.
 */
export class PausedRuns {
  private readonly byThread = new Map<string, SpanContext>();

  constructor(private readonly capacity: number) {}

  remember(threadId: string, span: SpanContext): void {
    this.byThread.delete(threadId);
    this.byThread.set(threadId, span);
    if (this.byThread.size > this.capacity) {
      const oldest = this.byThread.keys().next().value;
      if (oldest !== undefined) this.byThread.delete(oldest);
    }
  }

  /** The paused run's span context, forgotten once taken (a thread is resumed once per pause). */
  take(threadId: string): SpanContext | undefined {
    const span = this.byThread.get(threadId);
    if (span) this.byThread.delete(threadId);
    return span;
  }
}
