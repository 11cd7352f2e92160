import { AdkError } from '../errors/adk-error.js';

/** What an instruction function receives. */
export interface InstructionContext {
  /** The session state (with this invocation's changes and `temp:` keys). */
  readonly state: Readonly<Record<string, unknown>>;
  /** The agent's name. */
  readonly agentName: string;
  /**
   * Loads the text of a session's (or, for a `user:` name, the user's) artifact for `{artifact.name}`:
   * `undefined` when it does not exist. Absent when the Runner has no artifact service.
   */
  readonly artifact?: (name: string) => Promise<string | undefined>;
}

/**
 * An agent's instruction: a template whose `{key}` placeholders are filled from session state
 * (`{ key }` may have spaces inside, `{key?}` may be missing, `{a.b}` reads a nested field, a
 * placeholder that is not a state name such as `{invalid-key}` stays as written, `{artifact.name}` is
 * the text of an artifact, and `{{` / `}}` are literal braces), or a function of the context.
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

/** The prefix of a placeholder that reads an artifact (Google ADK's `{artifact.file_name}`). */
const ARTIFACT_PREFIX = 'artifact.';

/** A placeholder's parts: its name (spaces trimmed) and whether it may be missing. */
function parsePlaceholder(inner: string): { readonly name: string; readonly optional: boolean } {
  const name = inner.trim();
  return name.endsWith('?')
    ? { name: name.slice(0, -1).trimEnd(), optional: true }
    : { name, optional: false };
}

/** What a template is rendered with: the state, and the texts of the artifacts it names (loaded first). */
interface RenderContext {
  readonly state: Readonly<Record<string, unknown>>;
  readonly agentName: string;
  /** Artifact name → text (`undefined`: absent); `undefined` when there is no artifact service. */
  readonly artifacts?: ReadonlyMap<string, string | undefined>;
}

function render(template: string, context: RenderContext): string {
  return template.replace(placeholder, (match, inner: string | undefined) => {
    if (match === '{{') return '{';
    if (match === '}}') return '}';
    const { name, optional } = parsePlaceholder(inner as string);
    if (name.startsWith(ARTIFACT_PREFIX)) return artifactText(name, optional, context);
    const path = statePath(name);
    if (path === undefined) return match;
    if (name in context.state || path.length > 1) {
      const value = lookup(context.state, name, path);
      // A key that is there but holds nothing renders as nothing (ADK: `None` → '').
      if (value === null) return '';
      if (value !== undefined) return typeof value === 'string' ? value : JSON.stringify(value);
    }
    if (optional) return '';
    throw new AdkError(
      'INVALID_ARGUMENT',
      `the instruction of agent "${context.agentName}" uses {${name}}, but the session state has no "${name}"; set it, write {${name}?} to allow it to be missing, or {{ to write a brace`,
    );
  });
}

function artifactText(name: string, optional: boolean, context: RenderContext): string {
  const file = name.slice(ARTIFACT_PREFIX.length);
  const where = `the instruction of agent "${context.agentName}"`;
  if (file === '') throw new AdkError('INVALID_ARGUMENT', `${where} uses {${name}}, which names no artifact`);
  if (!context.artifacts)
    throw new AdkError(
      'INVALID_ARGUMENT',
      `${where} uses {${name}}, but there is no artifact service; give the Runner an artifactService`,
    );
  const text = context.artifacts.get(file);
  if (text !== undefined) return text;
  if (optional) return '';
  throw new AdkError(
    'INVALID_ARGUMENT',
    `${where} uses {${name}}, but the session has no artifact "${file}"; save it first, or write {${name}?} to allow it to be missing`,
  );
}

/**
 * Renders an instruction template against session state, the way Google ADK reads templates:
 * spaces inside a placeholder are ignored, a placeholder that is not a valid state name (an
 * identifier, optionally after `app:`, `user:` or `temp:`, or a dotted path of those) is left as
 * written, and a key that holds `null` renders as nothing. Unlike ADK, `{{` / `}}` write literal
 * braces. `{artifact.name}` needs artifacts: use {@link resolveInstruction}.
 *
 * @throws AdkError `INVALID_ARGUMENT` naming the placeholder when a required key is missing, or for an
 *   `{artifact.name}` placeholder (there is no artifact service here).
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
  return render(template, { state, agentName });
}

/**
 * Resolves an instruction (template or function) to text. A template's `{artifact.name}` placeholders
 * are the texts of the artifacts `context.artifact` loads (all loaded before the template is filled, so
 * an artifact's own braces are kept as written).
 *
 * @throws AdkError `INVALID_ARGUMENT` for a required key or artifact that is missing, an artifact
 *   placeholder without an artifact loader, or one naming no artifact; whatever the loader throws (a
 *   binary artifact, for one).
 * @example
 * ```ts
 * const files = new Map([['style.md', 'Be brief.']]);
 * const text = await resolveInstruction('Style: {artifact.style.md}', {
 *   state: {},
 *   agentName: 'writer',
 *   artifact: async (name) => files.get(name),
 * }); // 'Style: Be brief.'
 * ```
 */
export async function resolveInstruction(
  instruction: Instruction | undefined,
  context: InstructionContext,
): Promise<string> {
  if (instruction === undefined) return '';
  if (typeof instruction === 'function') return instruction(context);
  const names = artifactNames(instruction);
  if (names.length === 0 || !context.artifact) return render(instruction, context);
  const load = context.artifact;
  const texts = await Promise.all(names.map(async (name) => [name, await load(name)] as const));
  return render(instruction, { ...context, artifacts: new Map(texts) });
}

/** The artifact names a template's placeholders read (non-empty, each once). */
function artifactNames(template: string): string[] {
  const names = new Set<string>();
  for (const [match, inner] of template.matchAll(placeholder)) {
    if (inner === undefined || match === '{{' || match === '}}') continue;
    const { name } = parsePlaceholder(inner);
    if (name.startsWith(ARTIFACT_PREFIX) && name.length > ARTIFACT_PREFIX.length)
      names.add(name.slice(ARTIFACT_PREFIX.length));
  }
  return [...names];
}
