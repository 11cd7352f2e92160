// The public surface of the `./store` entry (for store authors), as a snapshot: adding, renaming or
// removing an export changes it, so API changes are deliberate (update with `vitest run -u`).
import { expect, it } from 'vitest';
import * as api from './index.js';

it('exports exactly the documented store-author helpers', () => {
  expect(Object.keys(api).sort()).toMatchSnapshot();
});
