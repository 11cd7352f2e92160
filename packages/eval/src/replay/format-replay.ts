import type { ReplayReport } from '@weft/compose/maintenance';

const LIMIT = 160;

function shown(value: unknown): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > LIMIT ? `${text.slice(0, LIMIT - 1)}…` : text;
}

/**
 * A replay report as text: one line per replayed step node that did not write what it wrote then, with
 * each differing key's recorded and replayed value, and a closing count.
 *
 * @example
 * ```ts
 * declare const report: ReplayReport;
 * console.log(formatReplayReport(report));
 * // step 1 · node "model" changed
 * //   messages: recorded [{"role":"assistant","content":"Sunny."}] → replayed [{"role":"assistant","content":"Ensoleillé."}]
 * // 1 of 4 replayed nodes differ (thread "ticket-7")
 * ```
 */
export function formatReplayReport(report: ReplayReport): string {
  const lines: string[] = [];
  let nodes = 0;
  for (const step of report.steps) {
    for (const node of step.nodes) {
      nodes++;
      if (node.status === 'same') continue;
      lines.push(
        `step ${step.step} · node "${node.node}" ${node.status}${node.error ? `: ${node.error}` : ''}`,
      );
      for (const difference of node.differences)
        lines.push(
          `  ${difference.key}: recorded ${shown(difference.recorded)} → replayed ${shown(difference.replayed)}`,
        );
    }
  }
  lines.push(`${report.changed} of ${nodes} replayed nodes differ (thread "${report.threadId}")`);
  return lines.join('\n');
}
