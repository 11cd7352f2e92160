// The public surface of the `./ai-sdk` entry, as a snapshot (update with `vitest run -u`).
import { expect, it } from 'vitest';
import * as api from './index.js';

it('exports exactly the documented AI SDK bridge names', () => {
  expect(Object.keys(api).sort()).toMatchSnapshot();
});
