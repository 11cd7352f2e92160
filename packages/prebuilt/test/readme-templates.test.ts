import { readFileSync } from 'node:fs';
import { type Agent, ChatModelAgent } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { describe, expect, test } from 'vitest';
import { createHostAgent, createPlanExecute, createSupervisor } from '../src/index.js';

const model = new ScriptedChatModel([]);
const agent = (name: string) => new ChatModelAgent({ name, model, description: `The ${name} agent` });

/** The templates the README draws, built exactly as a user would. */
const templates: Record<string, Agent> = {
  supervisor: createSupervisor({ supervisor: { model }, agents: [agent('researcher'), agent('writer')] }),
  'plan-execute': createPlanExecute({ planner: { model }, executor: { model }, replanner: { model } }),
  host: createHostAgent({ host: { model }, specialists: [agent('weather'), agent('news')] }),
};

describe('README template diagrams', () => {
  test('match the graphs the code compiles (PRINT_DIAGRAMS=1 prints them)', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const [key, template] of Object.entries(templates)) {
      const drawn = template.compile().toMermaid();
      if (process.env.PRINT_DIAGRAMS) console.log(`<<${key}>>\n${drawn}\n<</${key}>>`);
      else expect(readme, `diagram "${key}"`).toContain(`\`\`\`mermaid\n${drawn}\n\`\`\``);
    }
  });
});
