// The bench graph for the reference server: two nodes writing a reply word by word (custom events), as
// the Weft one in weft-graph.ts.
import { Annotation, END, START, StateGraph } from '@langchain/langgraph';

const State = Annotation.Root({
  topic: Annotation<string>,
  words: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  done: Annotation<boolean>,
});

export const graph = new StateGraph(State)
  .addNode('plan', (state) => ({ words: [`about ${state.topic}`] }))
  .addNode('write', () => ({ words: ['one', 'two', 'three'], done: true }))
  .addEdge(START, 'plan')
  .addEdge('plan', 'write')
  .addEdge('write', END)
  .compile();
