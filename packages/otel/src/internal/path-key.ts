import { nestedScope } from '@weft/compose';

/** One string per node path (names may hold any character but the unit separator). */
export function pathKey(path: readonly string[]): string {
  return path.join('\u001f');
}

/** The task id inside an interrupt id (`<taskId>:<index>`). */
export function taskOfInterrupt(interruptId: string): string {
  const colon = interruptId.lastIndexOf(':');
  return colon === -1 ? interruptId : interruptId.slice(0, colon);
}

/**
 * The key of a step (`#step`) or task (`#taskId`) of the nested run `scope` at `path`: parallel nested
 * runs at one path (two agent tools called at once) share paths, steps and task ids, not scopes.
 */
export function scopedKey(scope: string | undefined, path: readonly string[], id: number | string): string {
  return `${scope ?? ''}\u001e${pathKey(path)}#${id}`;
}

/**
 * The scope of the run a nested run with `scope` started in: `scope` without the segment its
 * enclosing task (and key) added (see `nestedScope` of `@weft/compose`).
 */
export function outerScope(
  scope: string | undefined,
  parentTaskId: string | undefined,
  key: string | undefined,
): string | undefined {
  if (scope === undefined || parentTaskId === undefined) return undefined;
  const segment = nestedScope(undefined, parentTaskId, key);
  return scope.endsWith(segment) ? scope.slice(0, -segment.length) || undefined : undefined;
}
