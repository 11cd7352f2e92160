// The README's code blocks, taken from the file itself and run as written — but for the port: the test
// listens on a free one (port 0) and points the client at it.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { expect, it, vi } from 'vitest';

const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string);
const generated = new URL('../test-results/readme/', import.meta.url);

async function runBlock(name: string, code: string): Promise<void> {
  await mkdir(generated, { recursive: true });
  const file = new URL(`${name}.ts`, generated);
  await writeFile(file, code);
  await import(file.href);
}

it('the useChat block serves a Weft agent and prints its streamed reply', async () => {
  const block = blocks.find((b) => b.includes('aiSdkHandler(runner)')) ?? '';
  const serveLine = 'const server = serve({ fetch: aiSdkHandler(runner), port: 3000 });\n';
  const apiUrl = "'http://localhost:3000/api/chat'";
  expect(block).toContain(serveLine);
  expect(block).toContain(apiUrl);
  const onFreePort = block
    .replace(
      serveLine,
      `${serveLine.replace('3000', '0')}await new Promise((listening) => server.once('listening', listening));\n`,
    )
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the code written into the block is a template literal
    .replace(apiUrl, '`http://localhost:${(server.address() as { port: number }).port}/api/chat`');
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  await runBlock('ai-sdk', onFreePort);
  expect(log.mock.calls).toEqual([[[{ type: 'text', text: 'Hello from Weft!', state: 'done' }]]]);
  log.mockRestore();
});

it('the AG-UI block serves a Weft agent to an HttpAgent and prints its reply and state', async () => {
  const block = blocks.find((b) => b.includes('agUiHandler(runner)')) ?? '';
  const serveLine = 'const server = serve({ fetch: agUiHandler(runner), port: 3000 });\n';
  const url = "'http://localhost:3000/agui'";
  expect(block).toContain(serveLine);
  expect(block).toContain(url);
  const onFreePort = block
    .replace(
      serveLine,
      `${serveLine.replace('3000', '0')}await new Promise((listening) => server.once('listening', listening));\n`,
    )
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the code written into the block is a template literal
    .replace(url, '`http://localhost:${(server.address() as { port: number }).port}/agui`');
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  await runBlock('ag-ui', onFreePort);
  expect(log.mock.calls).toEqual([['Hello from Weft!', { reply: 'Hello from Weft!' }]]);
  log.mockRestore();
});
