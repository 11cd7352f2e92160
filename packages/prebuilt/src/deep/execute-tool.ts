import { type AnyTool, tool } from '@weft/adk';
import { z } from 'zod';
import type { Shell } from './shell.js';

/**
 * `execute`: runs a shell command through `shell` and reports its exit code and output (a failing
 * command is a normal result the model reads, not a tool error).
 *
 * @example
 * ```ts
 * const execute = executeTool(new LocalShell({ root: '/tmp/ws' }), { needsApproval: true });
 * ```
 */
export function executeTool(shell: Shell, options: { readonly needsApproval?: boolean } = {}): AnyTool {
  return tool({
    name: 'execute',
    description:
      'Run a shell command in the workspace folder and get its exit code, stdout and stderr. Commands are killed after a timeout.',
    parameters: z.object({ command: z.string().min(1).describe('The command line, run with sh -c') }),
    needsApproval: options.needsApproval ?? false,
    execute: async ({ command }, ctx) => {
      const result = await shell.run(command, { signal: ctx.signal });
      const parts = [
        result.timedOut ? 'timed out (killed)' : `exit code ${result.exitCode ?? 'none (killed)'}`,
        result.stdout === '' ? '' : `stdout:\n${result.stdout}`,
        result.stderr === '' ? '' : `stderr:\n${result.stderr}`,
        result.truncated ? '[output truncated]' : '',
      ];
      return parts.filter(Boolean).join('\n');
    },
  });
}
