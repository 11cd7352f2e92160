// The public surface of the `./anthropic` entry, as a snapshot (update with `vitest run -u`).
import { expect, it } from 'vitest';
import * as api from './index.js';

it('exports exactly the documented Anthropic adapter names', () => {
  expect(Object.keys(api).sort()).toMatchSnapshot();
});
