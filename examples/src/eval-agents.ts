/**
 * Agents for `examples/evals/forecaster.yaml`: the forecaster of `agent.ts` on a scripted "model" that
 * reads the question (as a real model would), and a broken copy — the kind of regression a prompt or
 * model change causes: it looks up only the first city and answers without comparing.
 * Run the eval with `pnpm --filter @weft/examples eval` (and `eval:broken` to watch it fail).
 */
import { ChatModelAgent, type Message, messageText } from '@weft/adk';
import { ScriptedChatModel, type ScriptedResponse } from '@weft/adk/testing';
import { calculator, weather } from './agent.js';

const CITIES = ['Oslo', 'Rome', 'Paris', 'Lyon'];

function forecasterScript(broken: boolean) {
  return (messages: readonly Message[]): ScriptedResponse => {
    const question = messageText(
      messages.filter((m) => m.role === 'user').at(-1) ?? { role: 'user', content: '' },
    );
    const cities = CITIES.filter((city) => question.includes(city));
    const results = messages
      .filter((m) => m.role === 'tool')
      .map((m) => JSON.parse(messageText(m)) as unknown);
    const last = messages.at(-1);
    if (last?.role === 'user') {
      const asked = broken ? cities.slice(0, 1) : cities;
      return { toolCalls: asked.map((city) => ({ name: 'weather', arguments: { city } })) };
    }
    const temps = results.filter(
      (r): r is { celsius: number; sky: string } => typeof r === 'object' && r !== null && 'celsius' in r,
    );
    if (
      !broken &&
      cities.length === 2 &&
      temps.length === 2 &&
      last?.role === 'tool' &&
      last.name === 'weather'
    ) {
      const [warm, cold] = (temps[0]?.celsius ?? 0) >= (temps[1]?.celsius ?? 0) ? [0, 1] : [1, 0];
      return {
        toolCalls: [{ name: 'calculator', arguments: { a: temps[warm]?.celsius, b: temps[cold]?.celsius } }],
      };
    }
    if (last?.role === 'tool' && last.name === 'calculator') {
      const [warm, cold] = (temps[0]?.celsius ?? 0) >= (temps[1]?.celsius ?? 0) ? [0, 1] : [1, 0];
      return `${cities[warm]} is ${messageText(last)} degrees warmer than ${cities[cold]}.`;
    }
    const first = temps[0];
    return `${cities[0]}: ${first?.celsius} °C, ${first?.sky}.`;
  };
}

const instruction = 'You compare weather between cities. Use the tools; answer in one sentence.';

/** The forecaster, as `agent.ts` builds it. */
export const forecaster = new ChatModelAgent({
  name: 'forecaster',
  instruction,
  model: new ScriptedChatModel(forecasterScript(false), { name: 'scripted-forecaster' }),
  tools: [weather, calculator],
});

/** A regression: compares nothing. The eval set must catch it. */
export const brokenForecaster = new ChatModelAgent({
  name: 'broken_forecaster',
  instruction,
  model: new ScriptedChatModel(forecasterScript(true), { name: 'scripted-broken' }),
  tools: [weather, calculator],
});
