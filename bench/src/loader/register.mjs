// Registers strip-types-hooks.mjs after tsx (see that file for why). Set WEFT_BENCH_KEEP_NAMES=1 to run
// on tsx's own transform instead, e.g. to see how much its keepNames wrappers cost.
import { register } from 'node:module';

if (!process.env.WEFT_BENCH_KEEP_NAMES) register('./strip-types-hooks.mjs', import.meta.url);
