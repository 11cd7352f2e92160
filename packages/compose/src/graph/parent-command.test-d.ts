import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { appendReducer } from '../state/reducers.js';
import { Command, type ParentBoundCommand } from '../vocabulary/command.js';
import { START } from '../vocabulary/constants.js';
import { StateGraph } from './state-graph.js';

const Team = z.object({ log: z.array(z.string()), owner: z.string() });
type TeamUpdate = { log?: string | string[]; owner?: string };
type TeamNode = 'alice' | 'bob';

describe('Command.PARENT', () => {
  it('is a literal, and a Command carries its graph in its type', () => {
    expectTypeOf(Command.PARENT).toEqualTypeOf<'__parent__'>();
    const up = new Command({ graph: Command.PARENT, goto: 'bob', update: { owner: 'bob' } });
    expectTypeOf(up.graph).toEqualTypeOf<'__parent__'>();
    expectTypeOf(up).toMatchTypeOf<ParentBoundCommand>();
  });

  it('lets a subgraph node name parent nodes and keys its own graph does not have', () => {
    new StateGraph(Team, { reducers: { log: appendReducer } })
      .addNode('decide', () => new Command({ graph: Command.PARENT, goto: 'bob', update: { elsewhere: 1 } }))
      .addEdge(START, 'decide');
  });

  it('still checks a node’s own Commands against its own graph', () => {
    new StateGraph(Team, { reducers: { log: appendReducer } })
      // @ts-expect-error — without graph: Command.PARENT, goto must name a node of this graph
      .addNode('decide', () => new Command({ goto: 'bob' }))
      .addEdge(START, 'decide');
  });

  it('checks the parent’s node names and update where the generics give them', () => {
    new Command<TeamUpdate, TeamNode, typeof Command.PARENT>({
      graph: Command.PARENT,
      goto: 'bob',
      update: { log: 'hand-off' },
    });
    // @ts-expect-error — "carol" is not a parent node
    new Command<TeamUpdate, TeamNode, typeof Command.PARENT>({ graph: Command.PARENT, goto: 'carol' });
    const mood = { mood: 'x' };
    // @ts-expect-error — the parent has no key "mood"
    new Command<TeamUpdate, TeamNode, typeof Command.PARENT>({ graph: Command.PARENT, update: mood });
    // @ts-expect-error — a graph other than Command.PARENT
    new Command<TeamUpdate, TeamNode, typeof Command.PARENT>({ graph: 'grandparent', goto: 'bob' });
  });
});
