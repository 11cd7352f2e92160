// The entry's types: every `create*` function's options and result, and the types those name, can be
// written down by a user from `@weft/prebuilt` alone.
import type { ChatModelAgent, Team } from '@weft/adk';
import { describe, expectTypeOf, test } from 'vitest';
import type {
  AgentRoleOptions,
  ApprovableTool,
  Backend,
  BackendCallOptions,
  DeepAgentOptions,
  DeepPromptLanguage,
  FileEntry,
  HostAgent,
  HostAgentTemplateOptions,
  PlanExecuteAgent,
  PlanExecuteOptions,
  PlanExecutePrompts,
  PlanExecuteRole,
  ReactAgentOptions,
  Shell,
  ShellResult,
  SupervisorOptions,
  SupervisorOutputMode,
  TemplateCompaction,
} from './index.js';
import {
  createDeepAgent,
  createHostAgent,
  createPlanExecute,
  createReactAgent,
  createSupervisor,
  type LocalShell,
  type MemoryBackend,
} from './index.js';

describe('the create* signatures are named by the entry', () => {
  test('options and results', () => {
    expectTypeOf(createDeepAgent).parameter(0).toEqualTypeOf<DeepAgentOptions>();
    expectTypeOf(createDeepAgent).returns.toEqualTypeOf<ChatModelAgent>();
    expectTypeOf(createReactAgent).parameter(0).toEqualTypeOf<ReactAgentOptions>();
    expectTypeOf(createSupervisor).parameter(0).toEqualTypeOf<SupervisorOptions>();
    expectTypeOf(createSupervisor).returns.toEqualTypeOf<Team<ChatModelAgent>>();
    expectTypeOf(createPlanExecute).parameter(0).toEqualTypeOf<PlanExecuteOptions>();
    expectTypeOf(createPlanExecute).returns.toEqualTypeOf<PlanExecuteAgent>();
    expectTypeOf(createHostAgent).parameter(0).toEqualTypeOf<HostAgentTemplateOptions>();
    expectTypeOf(createHostAgent).returns.toEqualTypeOf<HostAgent>();
  });

  test('the types the options name', () => {
    expectTypeOf<DeepAgentOptions['backend']>().toEqualTypeOf<Backend | undefined>();
    expectTypeOf<DeepAgentOptions['shell']>().toEqualTypeOf<Shell | undefined>();
    expectTypeOf<DeepAgentOptions['approve']>().toEqualTypeOf<readonly ApprovableTool[] | undefined>();
    expectTypeOf<DeepAgentOptions['language']>().toEqualTypeOf<DeepPromptLanguage | undefined>();
    expectTypeOf<ReactAgentOptions['compaction']>().toEqualTypeOf<TemplateCompaction | undefined>();
    expectTypeOf<SupervisorOptions['supervisor']>().toEqualTypeOf<AgentRoleOptions>();
    expectTypeOf<SupervisorOptions['outputMode']>().toEqualTypeOf<SupervisorOutputMode | undefined>();
    expectTypeOf<PlanExecuteOptions['planner']>().toEqualTypeOf<PlanExecuteRole>();
    expectTypeOf<PlanExecuteOptions['prompts']>().toEqualTypeOf<Partial<PlanExecutePrompts> | undefined>();
    expectTypeOf<Awaited<ReturnType<Shell['run']>>>().toEqualTypeOf<ShellResult>();
    expectTypeOf<Awaited<ReturnType<Backend['ls']>>>().toEqualTypeOf<FileEntry[]>();
    expectTypeOf<Parameters<Backend['ls']>[1]>().toEqualTypeOf<BackendCallOptions | undefined>();
  });

  test('the implementations are what the options take', () => {
    expectTypeOf<MemoryBackend>().toMatchTypeOf<Backend>();
    expectTypeOf<LocalShell>().toMatchTypeOf<Shell>();
    // @ts-expect-error a shell is not a backend
    expectTypeOf<LocalShell>().toMatchTypeOf<Backend>();
  });
});
