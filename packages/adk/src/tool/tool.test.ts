import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AdkError } from '../errors/adk-error.js';
import { MemorySessionState } from './session-state.js';
import { tool, zodToJsonSchema } from './tool.js';

const weather = tool({
  name: 'get_weather',
  description: 'Current weather of a city',
  parameters: z.object({
    city: z.string().describe('City name'),
    unit: z.enum(['c', 'f']).default('c'),
    days: z.number().int().min(1).optional(),
  }),
  execute: ({ city, unit }) => `${city}: 21°${unit}`,
  needsApproval: (args) => args.city === 'Atlantis',
  readOnly: true,
});

describe('tool', () => {
  it('describes its parameters to the model as JSON Schema generated from zod', () => {
    expect(weather.spec.name).toBe('get_weather');
    expect(weather.spec.description).toBe('Current weather of a city');
    expect(weather.spec.parameters).toMatchObject({
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name' },
        unit: { type: 'string', enum: ['c', 'f'], default: 'c' },
        days: { type: 'integer', minimum: 1 },
      },
      required: ['city'],
    });
    expect(weather.spec.parameters).not.toHaveProperty('$schema');
    expect(weather.readOnly).toBe(true);
    expect(weather.returnDirectly).toBe(false);
  });

  it('rejects invalid names, empty descriptions and non-object parameters', () => {
    const base = { description: 'x', parameters: z.object({}), execute: () => 1 };
    for (const name of ['', 'has space', 'dots.not.allowed', 'a'.repeat(65)]) {
      expect(() => tool({ ...base, name })).toThrow(/tool name .* is invalid/);
    }
    expect(() => tool({ ...base, name: 'ok_name-1' })).not.toThrow();
    expect(() => tool({ ...base, name: 'x', description: '  ' })).toThrow(/needs a description/);
    const loose = z.object({ a: z.string() }).or(z.object({ b: z.number() }));
    expect(() => tool({ ...base, name: 'union', parameters: loose })).toThrow(/must be a zod object schema/);
  });

  it('reports schemas that JSON Schema cannot express', () => {
    let error: unknown;
    try {
      zodToJsonSchema(z.object({ when: z.date() }));
    } catch (caught) {
      error = caught;
    }
    expect(AdkError.isInstance(error) && error.code).toBe('INVALID_ARGUMENT');
  });

  it('parses and validates arguments, applying defaults', () => {
    expect(weather.parseArguments('{"city":"Oslo"}')).toEqual({
      success: true,
      args: { city: 'Oslo', unit: 'c' },
    });
    const noArgs = tool({
      name: 'now',
      description: 'time',
      parameters: z.object({}),
      execute: () => 'noon',
    });
    expect(noArgs.parseArguments('')).toEqual({ success: true, args: {} });
  });

  it('explains invalid JSON and each schema issue with its path', () => {
    const badJson = weather.parseArguments('{"city":');
    expect(badJson).toMatchObject({ success: false, reason: 'invalid-json' });
    const badArgs = weather.parseArguments('{"unit":"k","days":0}');
    expect(badArgs.success).toBe(false);
    if (badArgs.success) return;
    expect(badArgs.reason).toBe('invalid-arguments');
    expect(badArgs.message).toContain('Invalid arguments for tool "get_weather"');
    expect(badArgs.message).toMatch(/- city: .*expected string/);
    expect(badArgs.message).toMatch(/- unit: /);
    expect(badArgs.message).toMatch(/- days: .*>=1/);
  });

  it('writes nested paths with dots and indexes', () => {
    const nested = tool({
      name: 'nested',
      description: 'n',
      parameters: z.object({ items: z.array(z.object({ qty: z.number() })) }),
      execute: () => null,
    });
    const parsed = nested.parseArguments('{"items":[{"qty":1},{"qty":"2"}]}');
    expect(parsed.success === false && parsed.message).toMatch(/- items\[1\]\.qty: /);
    expect(nested.parseArguments('[]')).toMatchObject({
      success: false,
      message: expect.stringMatching(/- \(root\): /),
    });
  });

  it('evaluates needsApproval for the arguments', () => {
    expect(weather.requiresApproval({ city: 'Atlantis', unit: 'c' })).toBe(true);
    expect(weather.requiresApproval({ city: 'Oslo', unit: 'c' })).toBe(false);
    const always = tool({
      name: 'rm',
      description: 'd',
      parameters: z.object({}),
      execute: () => 0,
      needsApproval: true,
    });
    expect(always.requiresApproval({})).toBe(true);
  });

  it('executes with the context it is given, always asynchronously', async () => {
    const counter = tool({
      name: 'count',
      description: 'counts calls',
      parameters: z.object({}),
      execute: (_args, context) => {
        const next = Number(context.state.get('count') ?? 0) + 1;
        context.state.set('count', next);
        return next;
      },
    });
    const state = new MemorySessionState({ count: 41 });
    const context = {
      toolCallId: 'c',
      toolName: 'count',
      signal: new AbortController().signal,
      emit: () => {},
      state,
    };
    const result = counter.execute({}, context);
    expect(result).toBeInstanceOf(Promise);
    await expect(result).resolves.toBe(42);
    expect(state.toJSON()).toEqual({ count: 42 });
  });
});
