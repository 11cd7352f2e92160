import { WeftError } from '../errors/weft-error.js';
import { Command, PARENT } from '../vocabulary/command.js';
import { END } from '../vocabulary/constants.js';
import type { Send } from '../vocabulary/send.js';

/**
 * Thrown out of a subgraph's run when one of its nodes returned `Command({ graph: Command.PARENT })`:
 * the subgraph stops there (the step's other tasks are cancelled, nothing is recorded as failed) and
 * the task that runs the subgraph in the parent ends with the command, as that task's own output.
 */
export class ParentCommand {
  constructor(
    /** The command, addressed to the parent. */
    readonly command: Command,
    /** The node inside the subgraph that returned it. */
    readonly node: string,
    /** The path of the subgraph the node is in (its last element is the subgraph's node in the parent). */
    readonly path: readonly string[],
  ) {}
}

/**
 * What a node's `Command` with a `graph` becomes: a {@link ParentCommand} to throw out of the subgraph,
 * or an error when there is no parent or the graph is not {@link Command.PARENT}.
 *
 * @throws never; returns the error to throw.
 *
 * @example
 * ```ts
 * const command = new Command({ graph: Command.PARENT, goto: 'billing' }); // returned by node 'handoff'
 * const signal = toParent(command, 'handoff', ['support']); // a ParentCommand for the "support" node's task
 * toParent(new Command({ goto: 'billing' }), 'handoff', ['support']); // a WeftError: no graph to send to
 * ```
 */
export function toParent(command: Command, node: string, path: readonly string[]): ParentCommand | WeftError {
  if (command.graph !== PARENT) {
    return new WeftError(
      'INVALID_UPDATE',
      `node "${node}" returned a Command for graph "${String(command.graph)}"; the only graph a Command may name is Command.PARENT`,
    );
  }
  if (path.length === 0) {
    return new WeftError(
      'INVALID_UPDATE',
      `node "${node}" returned a Command for Command.PARENT, but its graph is the top-level graph, which has no parent; use Command.PARENT only in a graph run as a subgraph`,
    );
  }
  return new ParentCommand(command, node, path);
}

/**
 * The output of the parent's task that ran the subgraph: the command without its `graph`, after checking
 * that each `goto` names a node of the parent (or END).
 *
 * @throws WeftError `INVALID_UPDATE` naming the node, the subgraph and the unknown target.
 */
export function parentOutput(
  signal: ParentCommand,
  parentNodes: ReadonlyMap<string, unknown> | undefined,
): Command {
  const { command } = signal;
  const subgraph = signal.path[signal.path.length - 1] as string;
  if (parentNodes) {
    for (const target of command.goto) {
      const name = typeof target === 'string' ? target : (target as Send).node;
      if (name === END || parentNodes.has(name)) continue;
      throw new WeftError(
        'INVALID_UPDATE',
        `node "${signal.node}" in subgraph "${subgraph}" sent Command.PARENT with goto "${name}", which is not a node of the parent graph (nodes: ${[...parentNodes.keys()].join(', ')})`,
      );
    }
  }
  return new Command({ update: command.update, goto: command.goto });
}
