import type { BuilderError } from '@weft/compose';
import type { Agent } from '../agent/agent.js';
import type { HandBackAgent } from './deterministic-transfer.js';
import type { TeamMember } from './team-member.js';

/** A team member with its sub-agents' types (a `ChatModelAgent`), matched by shape. */
type MemberWith<TName extends string, TSubAgents extends readonly Agent[]> = TeamMember &
  Agent<TName> & { readonly subAgents: TSubAgents };

/**
 * The names of the agents of a team rooted at `TAgent`: chat-model agents and their sub-agents,
 * recursively (a workflow agent is one member; its own sub-agents are inside it). `string` when the
 * names are not literal types.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const billing = new ChatModelAgent({ name: 'billing', model: new ScriptedChatModel(['Refunded.']) });
 * const tech = new ChatModelAgent({ name: 'tech', model: new ScriptedChatModel(['Restart it.']) });
 * const triage = new ChatModelAgent({ name: 'triage', model: new ScriptedChatModel(['Hi!']), subAgents: [billing, tech] });
 * type Names = TeamAgentNames<typeof triage>; // 'triage' | 'billing' | 'tech'
 * ```
 */
export type TeamAgentNames<TAgent> =
  TAgent extends HandBackAgent<infer TInner, string>
    ? TeamAgentNames<TInner>
    : TAgent extends MemberWith<infer TName, infer TSubAgents>
      ? // The default `readonly Agent[]` means "no sub-agents given", not "any names".
        TName | (readonly Agent[] extends TSubAgents ? never : TeamAgentNames<TSubAgents[number]>)
      : TAgent extends Agent<infer TName>
        ? TName
        : never;

/**
 * Where the agents of a team wrapped by `withDeterministicTransfer` hand back to.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const researcher = new ChatModelAgent({ name: 'researcher', model: new ScriptedChatModel(['Facts: …']) });
 * const supervisor = new ChatModelAgent({
 *   name: 'supervisor',
 *   model: new ScriptedChatModel(['Done.']),
 *   subAgents: [withDeterministicTransfer(researcher, 'supervisor')],
 * });
 * type Targets = HandBackTargets<typeof supervisor>; // 'supervisor'
 * ```
 */
export type HandBackTargets<TAgent> =
  TAgent extends HandBackAgent<infer TInner, infer TTo>
    ? TTo | HandBackTargets<TInner>
    : TAgent extends MemberWith<string, infer TSubAgents>
      ? HandBackTargets<TSubAgents[number]>
      : never;

/**
 * `{}` when every hand-back target of the team is one of its agents, else a type whose `__error`
 * names the unknown target (intersected with `createTeam`'s root, so the call shows the message).
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const researcher = new ChatModelAgent({ name: 'researcher', model: new ScriptedChatModel(['Facts: …']) });
 * const supervisor = new ChatModelAgent({
 *   name: 'supervisor',
 *   model: new ScriptedChatModel(['Done.']),
 *   subAgents: [withDeterministicTransfer(researcher, 'supervisor')],
 * });
 * type Ok = CheckHandBacks<typeof supervisor>; // {}
 * ```
 */
export type CheckHandBacks<TRoot> = [Exclude<HandBackTargets<TRoot>, TeamAgentNames<TRoot>>] extends [never]
  ? {}
  : {
      readonly __error: BuilderError<`withDeterministicTransfer hands back to "${Exclude<HandBackTargets<TRoot>, TeamAgentNames<TRoot>> & string}", which is not an agent of this team`>;
    };
