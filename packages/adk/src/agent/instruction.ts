import { AdkError } from '../errors/adk-error.js';

/** What an instruction function receives. */
export interface InstructionContext {
  /** The session state (with this invocation's changes and `temp:` keys). */
  readonly state: Readonly<Record<string, unknown>>;
  /** The agent's name. */
  readonly agentName: string;
}

/**
 * An agent's instruction: a template whose `{key}` placeholders are filled from session state
 * (`{ key }` may have spaces inside, `{key?}` may be missing, `{a.b}` reads a nested field, a
 * placeholder that is not a state name such as `{invalid-key}` stays as written, and `{{` / `}}`
 * are literal braces), or a function of the context.
 */
export type Instruction = string | ((context: InstructionContext) => string | Promise<string>);

const placeholder = /\{\{|\}\}|\{([^{}]*)\}/g;
const identifier = /^[\p{L}_][\p{L}\p{N}_]*$/u;
const scopes = new Set(['app', 'user', 'temp']);

/** Google ADK's rule: an identifier, or `app:` / `user:` / `temp:` followed by one. */
function isStateName(name: string): boolean {
  const parts = name.split(':');
  if (parts.length === 1) return identifier.test(name);
  return parts.length === 2 && scopes.has(parts[0] as string) && identifier.test(parts[1] as string);
}

/** The path a placeholder reads (one key, or a dotted path of keys), or undefined when not a state name. */
function statePath(name: string): readonly string[] | undefined {
  if (isStateName(name)) return [name];
  const keys = name.split('.');
  return keys.length > 1 && keys.every(isStateName) ? keys : undefined;
}

function lookup(state: Readonly<Record<string, unknown>>, name: string, path: readonly string[]): unknown {
  if (name in state) return state[name];
  let current: unknown = state;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || !(key in current)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/**
 * Renders an instruction template against session state, the way Google ADK reads templates:
 * spaces inside a placeholder are ignored, a placeholder that is not a valid state name (an
 * identifier, optionally after `app:`, `user:` or `temp:`, or a dotted path of those) is left as
 * written, and `{{` / `}}` write literal braces.
 *
 * @throws AdkError `INVALID_ARGUMENT` naming the placeholder when a required key is missing.
 * @example
 * ```ts
 * renderInstruction('Help { user:name } with {topic?} in {invalid-key}. Use {{json}}.', { 'user:name': 'Ada' }, 'helper');
 * // 'Help Ada with  in {invalid-key}. Use {json}.'
 * ```
 */
export function renderInstruction(
  template: string,
  state: Readonly<Record<string, unknown>>,
  agentName: string,
): string {
  return template.replace(placeholder, (match, inner: string | undefined) => {
    if (match === '{{') return '{';
    if (match === '}}') return '}';
    let name = (inner as string).trim();
    const optional = name.endsWith('?');
    if (optional) name = name.slice(0, -1).trimEnd();
    const path = statePath(name);
    if (path === undefined) return match;
    const value = lookup(state, name, path);
    if (value === undefined || value === null) {
      if (optional) return '';
      throw new AdkError(
        'INVALID_ARGUMENT',
        `the instruction of agent "${agentName}" uses {${name}}, but the session state has no "${name}"; set it, write {${name}?} to allow it to be missing, or {{ to write a brace`,
      );
    }
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}

/** Resolves an instruction (template or function) to text. */
export async function resolveInstruction(
  instruction: Instruction | undefined,
  context: InstructionContext,
): Promise<string> {
  if (instruction === undefined) return '';
  if (typeof instruction === 'function') return instruction(context);
  return renderInstruction(instruction, context.state, context.agentName);
}
