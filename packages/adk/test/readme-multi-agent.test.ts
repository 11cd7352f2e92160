import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  type Agent,
  ChatModelAgent,
  createTeam,
  exitLoopTool,
  LoopAgent,
  ParallelAgent,
  SequentialAgent,
  withDeterministicTransfer,
} from '../src/index.js';
import { ScriptedChatModel } from '../src/testing/index.js';

const model = new ScriptedChatModel([]);
const agent = (name: string, extra: Partial<ConstructorParameters<typeof ChatModelAgent>[0]> = {}) =>
  new ChatModelAgent({ name, model, description: `The ${name} agent`, ...extra });

/** The patterns the README draws, built exactly as a user would. */
const patterns: Record<string, Agent> = {
  sequential: new SequentialAgent({ name: 'pipeline', subAgents: [agent('researcher'), agent('writer')] }),
  parallel: new ParallelAgent({
    name: 'research',
    subAgents: [agent('web'), agent('papers')],
    maxConcurrency: 2,
  }),
  loop: new LoopAgent({
    name: 'refine',
    subAgents: [agent('writer'), agent('critic', { tools: [exitLoopTool()] })],
    maxIterations: 3,
  }),
  team: createTeam(agent('triage', { subAgents: [agent('billing'), agent('tech')] })),
  supervisor: createTeam(
    agent('supervisor', {
      subAgents: [
        withDeterministicTransfer(
          agent('coder', { disallowTransferToParent: true, disallowTransferToPeers: true }),
          'supervisor',
        ),
      ],
    }),
  ),
};

describe('README multi-agent diagrams', () => {
  test('match the graphs the code compiles', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const [key, pattern] of Object.entries(patterns)) {
      const drawn = pattern.compile().toMermaid();
      if (process.env.PRINT_DIAGRAMS) console.log(`<<${key}>>\n${drawn}\n<</${key}>>`);
      else expect(readme, `diagram "${key}"`).toContain(drawn);
    }
  });
});
