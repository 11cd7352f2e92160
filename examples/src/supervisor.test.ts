import { expect, test } from 'vitest';
import { main, scriptedModels } from './supervisor.js';

test('the supervisor example routes to the researcher and the writer, each handing back', async () => {
  const lines: string[] = [];
  const result = await main((line) => lines.push(line), scriptedModels());
  expect(result.answer).toBe(
    'Here is your note: Bees talk by dancing. The dance points to food and tells how far it is.',
  );
  expect(result.handOffs).toEqual([
    'supervisor→researcher',
    'researcher→supervisor',
    'supervisor→writer',
    'writer→supervisor',
  ]);
  expect(lines).toContain('researcher@supervisor.researcher calls lookup({"topic":"bees"})');
  expect(lines.at(-1)).toBe(
    'supervisor@supervisor: Here is your note: Bees talk by dancing. The dance points to food and tells how far it is.',
  );
});
