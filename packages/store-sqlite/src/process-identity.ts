import { readFileSync } from 'node:fs';

/**
 * When a process started, as the kernel reports it (Linux: boot id and start time in clock ticks from
 * `/proc`); `''` where that is not available. Two processes that share a pid (one reused the pid of one
 * that died) have different start identities.
 *
 * @example
 * ```ts
 * const mine = processStart(process.pid); // '1b2c…:123456' on Linux
 * ```
 */
export function processStart(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime) counts from the end of the command name, which may hold spaces and parens.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return `${bootId}:${fields[19] ?? ''}`;
  } catch {
    return '';
  }
}

/**
 * True when the process that wrote `start` under `pid` still runs: the same pid with the same start
 * identity (or, where start identities are unknown, any process with that pid: a reused pid then reads
 * as alive, which errs towards a conflict, never towards two writers).
 *
 * @example
 * ```ts
 * processAlive(process.pid, processStart(process.pid)); // true: this process
 * processAlive(process.pid, 'some-other-start'); // false where start identities are known (a reused pid)
 * ```
 */
export function processAlive(pid: number, start: string): boolean {
  if (start !== '') {
    const current = processStart(pid);
    if (current !== '') return current === start;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}
