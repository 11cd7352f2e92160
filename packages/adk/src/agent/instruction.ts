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
 * (`{key?}` may be missing; `{{` and `}}` are literal braces), or a function of the context.
 */
export type Instruction = string | ((context: InstructionContext) => string | Promise<string>);

const placeholder = /\{\{|\}\}|\{([A-Za-z_][\w:.-]*)(\?)?\}/g;

/**
 * Renders an instruction template against session state.
 *
 * @throws AdkError `INVALID_ARGUMENT` naming the placeholder when a required key is missing.
 * @example
 * ```ts
 * renderInstruction('Help {user:name} with {topic?}. Use {{json}}.', { 'user:name': 'Ada' }, 'helper');
 * // 'Help Ada with . Use {json}.'
 * ```
 */
export function renderInstruction(
  template: string,
  state: Readonly<Record<string, unknown>>,
  agentName: string,
): string {
  return template.replace(placeholder, (match, key: string | undefined, optional: string | undefined) => {
    if (match === '{{') return '{';
    if (match === '}}') return '}';
    const value = state[key as string];
    if (value === undefined || value === null) {
      if (optional) return '';
      throw new AdkError(
        'INVALID_ARGUMENT',
        `the instruction of agent "${agentName}" uses {${key}}, but the session state has no "${key}"; set it, write {${key}?} to allow it to be missing, or {{ to write a brace`,
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
