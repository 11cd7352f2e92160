// The public surface of the `./testing` entry, as a snapshot (update with `vitest run -u`).
import { expect, it } from 'vitest';
import * as api from './index.js';

it('exports exactly the documented test helpers', () => {
  expect(Object.keys(api).sort()).toMatchSnapshot();
});
