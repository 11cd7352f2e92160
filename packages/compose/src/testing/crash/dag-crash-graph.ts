import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { z } from 'zod';
import type { Checkpointer } from '../../checkpoint/checkpointer.js';
import { StateGraph } from '../../graph/state-graph.js';
import { appendReducer } from '../../state/reducers.js';
import { END, START } from '../../vocabulary/constants.js';

/** Layers of the DAG crash graph, and nodes per layer (each node joins the whole layer before it). */
export const dagLayers = 8;
export const dagWidth = 3;
/** Nodes of the DAG crash graph. */
export const dagCrashNodes = dagLayers * dagWidth;
/** The node that never finishes in the run that is killed (the middle of layer 4). */
export const dagBlockingNode = 'n4_1';
/** Side effects logged before the kill: every node of layers 0–4 starts (the blocking one never ends). */
export const dagLoggedBeforeKill = 5 * dagWidth;

/** Appends a line to a file and flushes it to disk before returning (the side effect a kill can cut). */
export function appendDurably(file: string, line: string): void {
  const fd = openSync(file, 'a');
  try {
    writeSync(fd, `${line}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

const name = (layer: number, position: number): string => `n${layer}_${position}`;

/**
 * `dagLayers` layers of `dagWidth` parallel nodes in DAG mode; each node of a layer waits for every node
 * of the layer before. A node appends its task id to `sideEffectLog` (durably) and then writes its name.
 * With `block`, {@link dagBlockingNode} logs and then never finishes, so a crash test can kill the process
 * at a known place without timing: its siblings may or may not have been recorded.
 */
export function buildDagCrashGraph(
  checkpointer: Checkpointer | undefined,
  sideEffectLog: string,
  block: boolean,
) {
  const graph = new StateGraph(z.object({ trail: z.array(z.string()).default([]) }), {
    reducers: { trail: appendReducer },
  });
  for (let layer = 0; layer < dagLayers; layer++) {
    for (let position = 0; position < dagWidth; position++) {
      const node = name(layer, position);
      graph.addNode(node, async (_state, ctx) => {
        appendDurably(sideEffectLog, ctx.taskId);
        if (block && node === dagBlockingNode) await new Promise(() => undefined);
        await new Promise((resolve) => setImmediate(resolve));
        return { trail: node };
      });
      if (layer === 0) graph.addEdge(START, node as never);
      else
        graph.addEdge(Array.from({ length: dagWidth }, (_, p) => name(layer - 1, p)) as never, node as never);
      if (layer === dagLayers - 1) graph.addEdge(node as never, END);
    }
  }
  return graph.compile({ name: 'dag-crash', mode: 'dag', ...(checkpointer ? { checkpointer } : {}) });
}
