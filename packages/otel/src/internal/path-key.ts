/** One string per node path (names may hold any character but the unit separator). */
export function pathKey(path: readonly string[]): string {
  return path.join('\u001f');
}

/** The task id inside an interrupt id (`<taskId>:<index>`). */
export function taskOfInterrupt(interruptId: string): string {
  const colon = interruptId.lastIndexOf(':');
  return colon === -1 ? interruptId : interruptId.slice(0, colon);
}
