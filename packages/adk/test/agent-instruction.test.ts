import { expect, test } from 'vitest';
import { renderInstruction } from '../src/agent-graph.js';
import { AdkError } from '../src/index.js';

// Cases mirror Google ADK's inject_session_state tests (tests/unittests/utils/test_instructions_utils.py).
const render = (template: string, state: Record<string, unknown> = {}): string =>
  renderInstruction(template, state, 'agent');

test('fills plain and scoped keys', () => {
  expect(
    render('Hello {user_name}, you are in {app_state} state.', { user_name: 'Foo', app_state: 'active' }),
  ).toBe('Hello Foo, you are in active state.');
  expect(render('Hello {app:user_name}!', { 'app:user_name': 'Foo' })).toBe('Hello Foo!');
  expect(render('{user:n} {temp:t}', { 'user:n': 1, 'temp:t': { a: 1 } })).toBe('1 {"a":1}');
});

test('spaces inside a placeholder are ignored', () => {
  expect(
    render('Hello { user_name }, { app:mode }, { later ? }.', { user_name: 'Foo', 'app:mode': 'x' }),
  ).toBe('Hello Foo, x, .');
});

test('a placeholder that is not a state name is left as written', () => {
  expect(render('Hello {invalid-key}!', { user_name: 'Foo' })).toBe('Hello {invalid-key}!');
  expect(render('Hello {invalid:key}!', { user_name: 'Foo' })).toBe('Hello {invalid:key}!');
  expect(render('Invalid: {user.profile[unclosed}', { user: {} })).toBe('Invalid: {user.profile[unclosed}');
  expect(render('code: function f() { return 1; } and {}')).toBe('code: function f() { return 1; } and {}');
});

test('optional keys may be missing; required ones fail naming the key', () => {
  expect(render('Optional value: {optional_value?}')).toBe('Optional value: ');
  expect(() => render('Hello {missing_key}!', { user_name: 'Foo' })).toThrow(AdkError);
  expect(() => render('Hello {missing_key}!')).toThrow(/missing_key/);
});

test('dotted paths read nested state', () => {
  const state = { user: { profile: { name: 'John Doe', age: 30 } } };
  expect(render('User name: {user.profile.name}, Age: {user.profile.age}', state)).toBe(
    'User name: John Doe, Age: 30',
  );
  expect(render('Optional nested: {user.profile.nickname?}', state)).toBe('Optional nested: ');
  expect(() => render('Missing: {user.profile.missing}', state)).toThrow(/user\.profile\.missing/);
  expect(render('{a.b}', { 'a.b': 'flat wins' })).toBe('flat wins');
});

test('{{ and }} stay the literal-brace escape', () => {
  expect(render('Use {{json}} and {{ "a": {x} }}.', { x: 1 })).toBe('Use {json} and { "a": 1 }.');
  expect(render('{{invalid-key}}')).toBe('{invalid-key}');
});
