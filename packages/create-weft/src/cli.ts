// `npm create weft [folder]` and `weft init [folder]`.
import { scaffold } from './scaffold.js';

/** Runs the scaffolder for command-line arguments; returns the exit code. */
export function runCreate(argv: readonly string[], print: (line: string) => void = console.log): number {
  const directory = argv.find((arg) => !arg.startsWith('-')) ?? 'weft-app';
  if (argv.includes('--help') || argv.includes('-h')) {
    print(
      'Usage: npm create weft [folder]   (or: weft init [folder])\n\nWrites a Weft project into folder (default weft-app).',
    );
    return 0;
  }
  try {
    const files = scaffold({ directory });
    print(
      `Created ${directory}: ${files.join(', ')}\n\nNext:\n  cd ${directory}\n  npm install\n  npm run dev   # the playground\n  npm test`,
    );
    return 0;
  } catch (error) {
    print(`create-weft: ${(error as Error).message}`);
    return 1;
  }
}
