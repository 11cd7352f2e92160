import type { EvalReport } from '../eval-report.js';

/**
 * Renders a report as JUnit XML for CI: one `<testcase>` per case run (named `case` or `case #k` with
 * repeats), a `<failure>` with the reasons when it failed.
 *
 * @example
 * ```ts
 * import { writeFile } from 'node:fs/promises';
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const agent = new ChatModelAgent({ name: 'calc', model: new ScriptedChatModel(['It is 5.']) });
 * const set = parseEvalSet({
 *   name: 'calc',
 *   cases: [{ id: 'adds', turns: [{ user: 'What is 2 plus 3?', expect: { response: { contains: '5' } } }] }],
 * });
 * const report = await runEval({ set, target: agentTarget(agent) });
 * await writeFile('eval-results.xml', formatJUnit(report)); // <testsuite name="calc" tests="1" failures="0">…
 * ```
 */
export function formatJUnit(report: EvalReport): string {
  const runs = report.cases.flatMap((summary) => summary.runs);
  const failures = runs.filter((run) => !run.pass).length;
  const cases = runs.map((run) => {
    const name = report.repeats > 1 ? `${run.caseId} #${run.repeat + 1}` : run.caseId;
    const open = `    <testcase classname="${xml(report.set)}" name="${xml(name)}" time="${(run.latencyMs / 1000).toFixed(3)}"`;
    if (run.pass) return `${open}/>`;
    const reasons = [
      run.error,
      ...run.scores
        .filter((s) => !s.pass)
        .map((s) => `${s.scorer} ${s.score.toFixed(2)} < ${s.threshold}: ${s.reason}`),
    ]
      .filter((r): r is string => r !== undefined)
      .join('\n');
    const first = reasons.split('\n')[0] ?? 'failed';
    return `${open}>\n      <failure message="${xml(first)}">${xml(reasons)}</failure>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="weft eval" tests="${runs.length}" failures="${failures}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    `  <testsuite name="${xml(report.set)}" tests="${runs.length}" failures="${failures}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

function xml(text: string): string {
  return [...text]
    .filter((char) => isXmlChar(char.codePointAt(0) ?? 0))
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** The characters XML 1.0 allows (tab, newline, carriage return and the printable ranges). */
function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0x10ffff && code !== 0xfffe && code !== 0xffff)
  );
}
