import { describe, it } from 'vitest';
import { z } from 'zod';
import { StateGraph } from '../graph/state-graph.js';
import { END, START } from '../vocabulary/constants.js';

const app = new StateGraph(z.object({ n: z.number() }))
  .addNode('model', () => ({}))
  .addNode('sub', () => ({}))
  .addEdge(START, 'model')
  .addEdge('model', 'sub')
  .addEdge('sub', END)
  .compile();

describe('nodeOptions types', () => {
  it('accepts the graph node names and paths into subgraphs', () => {
    void app.invoke(
      { n: 1 },
      { nodeOptions: { model: { temperature: 0 }, 'sub/agent/model': { temperature: 1 } } },
    );
    void app.stream({ n: 1 }, { mode: 'updates', nodeOptions: { sub: {} } });
    void app.invoke({ n: 1 }, { kindOptions: { model: { temperature: 0 } } });
  });

  it('rejects a name that is not a node of the graph', () => {
    // @ts-expect-error "modle" is not a node name, and not a path
    void app.invoke({ n: 1 }, { nodeOptions: { modle: { temperature: 0 } } });
    // @ts-expect-error options are an object of call options
    void app.invoke({ n: 1 }, { nodeOptions: { model: 0 } });
  });
});
