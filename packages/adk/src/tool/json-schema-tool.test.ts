import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../message/message.js';
import { messageText } from '../message/message-text.js';
import { executeToolCalls } from './execute-tool-calls.js';
import { jsonSchemaTool } from './json-schema-tool.js';
import { isToolResult, toolResult } from './tool-result.js';

const call = (id: string, name: string, args: string): ToolCall => ({ id, name, arguments: args });
const schema = {
  type: 'object',
  properties: { path: { type: 'string', pattern: '^/' }, depth: { type: 'integer', minimum: 0 } },
  required: ['path'],
  additionalProperties: false,
} as const;

describe('jsonSchemaTool', () => {
  it('sends its JSON Schema to the model exactly as given and runs with the parsed arguments', async () => {
    const seen: unknown[] = [];
    const list = jsonSchemaTool({
      name: 'list_directory',
      description: 'Lists a directory',
      parameters: schema,
      execute: (args) => {
        seen.push(args);
        return `listed ${String(args.path)}`;
      },
    });
    expect(list.spec.parameters).toBe(schema);
    const [result] = await executeToolCalls(
      [call('c1', 'list_directory', '{"path":"/tmp","depth":1}')],
      [list],
    );
    expect(seen).toEqual([{ path: '/tmp', depth: 1 }]);
    expect(result).toMatchObject({ content: 'listed /tmp', status: 'success' });
  });

  it('answers invalid JSON and non-object arguments with readable tool messages', async () => {
    const echo = jsonSchemaTool({
      name: 'echo',
      description: 'e',
      parameters: { type: 'object' },
      execute: () => 'ran',
    });
    const results = await executeToolCalls(
      [call('a', 'echo', '{"x":'), call('b', 'echo', '[1]'), call('c', 'echo', '')],
      [echo],
    );
    expect(messageText(results[0]!)).toMatch(/not valid JSON/);
    expect(messageText(results[1]!)).toMatch(/expected one JSON object, got an array/);
    expect(results[2]).toMatchObject({ content: 'ran', status: 'success' });
  });

  it('rejects a bad name, an empty description and a schema that is not an object', () => {
    const base = { description: 'd', parameters: { type: 'object' }, execute: () => 1 };
    expect(() => jsonSchemaTool({ ...base, name: 'has space' })).toThrow(/tool name "has space" is invalid/);
    expect(() => jsonSchemaTool({ ...base, name: 'ok', description: ' ' })).toThrow(/needs a description/);
    expect(() => jsonSchemaTool({ ...base, name: 'ok', parameters: { type: 'string' } })).toThrow(
      /parameters must be a JSON Schema with type "object"/,
    );
  });

  it('evaluates needsApproval on the raw arguments', () => {
    const remove = jsonSchemaTool({
      name: 'remove',
      description: 'Removes a file',
      parameters: schema,
      needsApproval: (args) => String(args.path).startsWith('/etc'),
      execute: () => 'removed',
    });
    expect(remove.requiresApproval({ path: '/etc/passwd' })).toBe(true);
    expect(remove.requiresApproval({ path: '/tmp/x' })).toBe(false);
  });
});

describe('toolResult', () => {
  it('sends content parts as they are and marks error results', async () => {
    const image = { type: 'image', url: 'data:image/png;base64,AAAA' } as const;
    const shot = jsonSchemaTool({
      name: 'shot',
      description: 's',
      parameters: { type: 'object' },
      execute: (args) =>
        args.fail
          ? toolResult('camera is off', { isError: true })
          : toolResult([{ type: 'text', text: 'here' }, image]),
    });
    const [ok, failed] = await executeToolCalls(
      [call('1', 'shot', '{}'), call('2', 'shot', '{"fail":true}')],
      [shot],
    );
    expect(ok).toMatchObject({ status: 'success', content: [{ type: 'text', text: 'here' }, image] });
    expect(failed).toMatchObject({ status: 'error', content: 'camera is off' });
    expect(isToolResult(toolResult('x'))).toBe(true);
    expect(isToolResult({ content: 'x', isError: false })).toBe(false);
  });
});
