/**
 * The stdio servers this process started and has not closed. When the process exits, each is killed
 * (a server that ignores the end of its stdin would otherwise outlive us). One `exit` listener serves all.
 */
const live = new Set<() => number | null>();
let listening = false;

function killAll(): void {
  for (const pidOf of live) {
    const pid = pidOf();
    if (pid === null) continue;
    try {
      process.kill(pid);
    } catch {
      // already gone
    }
  }
}

/** Registers a child's pid getter; returns the function that forgets it. */
export function trackChild(pidOf: () => number | null): () => void {
  if (!listening) {
    listening = true;
    process.once('exit', killAll);
  }
  live.add(pidOf);
  return () => {
    live.delete(pidOf);
  };
}
