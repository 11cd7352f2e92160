import { defineApp } from '@weft/playground';
import { calculator } from './agent.ts';
import { counter } from './graph.ts';

export default defineApp({ graphs: { counter }, agents: { calculator } });
