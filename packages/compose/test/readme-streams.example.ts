import { END, Graph, runnable, START } from '@weft/compose';

const upper = runnable({
  transform: async function* (chunks: AsyncIterable<string>) {
    for await (const chunk of chunks) yield chunk.toUpperCase();
  },
});
const app = new Graph<string, string>()
  .addNode('model', async function* (prompt: string) {
    for (const word of prompt.split(' ')) yield `${word} `;
  })
  .addNode('parser', upper)
  .addEdge(START, 'model')
  .addEdge('model', 'parser')
  .addEdge('parser', END)
  .compile();

for await (const { node, chunk } of app.stream('streams flow through', { mode: 'messages' }))
  console.log(node, chunk); // model 'streams ', model 'flow ', parser 'STREAMS ', model 'through ', …
console.log(await app.invoke('a b')); // 'A B '
