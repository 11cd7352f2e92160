// The public surface of the `./context` entry (context engineering), as a snapshot (update with `vitest run -u`).
import { expect, it } from 'vitest';
import * as api from './index.js';

it('exports exactly the documented context-engineering helpers', () => {
  expect(Object.keys(api).sort()).toMatchSnapshot();
});
