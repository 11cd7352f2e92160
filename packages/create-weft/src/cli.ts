// `npm create weft [folder]` and `weft init [folder]`.
import { resolve } from 'node:path';
import { detectPacks } from './local-packs.js';
import { scaffold } from './scaffold.js';

const USAGE = `Usage: npm create weft@latest [folder] [--packs <dir>]
       npx @weft/playground init [folder] [--packs <dir>]

Writes a Weft project into folder (default weft-app).

  --packs <dir>  depend on the Weft tarballs in <dir> (from \`pnpm pack:all\`) instead of the registry.
                 Run from a project that installed Weft from tarballs, this is the default: the new
                 project uses the same tarballs.
  --no-packs     depend on the registry's versions even then.`;

/** Options of {@link runCreate} beyond the arguments. */
export interface RunCreateOptions {
  /** Where the command runs (default `process.cwd()`): the folder is relative to it, and it is where local tarballs are looked for. */
  readonly cwd?: string;
}

/**
 * Runs the scaffolder for command-line arguments (`[folder] [--packs <dir>] [--no-packs]`); returns
 * the exit code. Prints what it wrote and the next commands.
 *
 * @example
 * ```ts
 * const code = runCreate(['my-agent', '--packs', '/src/weft/.packs'], console.log);
 * ```
 */
export function runCreate(
  argv: readonly string[],
  print: (line: string) => void = console.log,
  options: RunCreateOptions = {},
): number {
  if (argv.includes('--help') || argv.includes('-h')) {
    print(USAGE);
    return 0;
  }
  const cwd = options.cwd ?? process.cwd();
  const packsAt = argv.indexOf('--packs');
  const given = packsAt === -1 ? undefined : argv[packsAt + 1];
  if (packsAt !== -1 && (given === undefined || given.startsWith('-'))) {
    print('create-weft: --packs needs a folder of tarballs');
    return 2;
  }
  const positional = argv.filter((arg, i) => !arg.startsWith('-') && !(packsAt !== -1 && i === packsAt + 1));
  const directory = positional[0] ?? 'weft-app';
  const packs = argv.includes('--no-packs') ? undefined : (given ?? detectPacks(cwd));
  try {
    const files = scaffold({
      directory: resolve(cwd, directory),
      ...(packs === undefined ? {} : { packs: resolve(cwd, packs) }),
    });
    print(
      `Created ${directory}: ${files.join(', ')}\n` +
        (packs === undefined ? '' : `Weft's packages come from the tarballs in ${packs}.\n`) +
        `\nNext:\n  cd ${directory}\n  npm install\n  npm run dev   # the playground\n  npm test`,
    );
    return 0;
  } catch (error) {
    print(`create-weft: ${(error as Error).message}`);
    return 1;
  }
}
