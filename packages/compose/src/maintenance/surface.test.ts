// The public surface of `@weft/compose/maintenance`, as a snapshot: adding, renaming or removing an export
// changes it, so API changes are deliberate (update with `vitest run -u src/maintenance/surface.test.ts`).
import { expect, it } from 'vitest';
import * as api from './index.js';

it('exports exactly the documented names', () => {
  expect(Object.keys(api).sort()).toMatchSnapshot();
});
