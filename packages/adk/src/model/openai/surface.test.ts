// The public surface of the `./openai` entry, as a snapshot (update with `vitest run -u`).
import { expect, it } from 'vitest';
import * as api from './index.js';

it('exports exactly the documented OpenAI adapter', () => {
  expect(Object.keys(api).sort()).toMatchSnapshot();
});
