import { expect, it } from 'vitest';
import * as api from './vitest.js';

it('the ./vitest entry exports exactly the documented names', () => {
  expect(Object.keys(api).sort()).toEqual(['evalMatchers']);
});
