// The machine and versions a run was measured on (printed above the table and stored in the JSON).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, cpus } from 'node:os';

export interface MachineInfo {
  readonly date: string;
  readonly node: string;
  readonly cores: number;
  readonly cpu: string;
  readonly langGraph: string;
  readonly langChainCore: string;
}

function cpuModel(): string {
  if (existsSync('/proc/cpuinfo')) {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('model name'));
    if (line) return line.slice(line.indexOf(':') + 1).trim();
  }
  return cpus()[0]?.model ?? 'unknown CPU';
}

function packageVersion(name: string): string {
  const require = createRequire(import.meta.url);
  const manifest = JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as {
    version?: string;
  };
  return manifest.version ?? '?';
}

export function machine(): MachineInfo {
  return {
    date: new Date().toISOString().slice(0, 10),
    node: process.version,
    cores: availableParallelism(),
    cpu: cpuModel(),
    langGraph: packageVersion('@langchain/langgraph'),
    langChainCore: packageVersion('@langchain/core'),
  };
}
