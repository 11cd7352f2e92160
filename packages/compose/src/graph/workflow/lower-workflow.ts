import type { IndexedGraphSpec } from '../../pregel/spec-index.js';
import type { WiringSpec } from '../../pregel/topology.js';
import { END } from '../../vocabulary/constants.js';
import { SpecBuilder } from '../spec-builder.js';
import { checkWorkflow } from './check-workflow.js';
import type { AnyFieldMapping } from './field-mapping.js';
import { type InputPlan, inputMerge } from './mapped-input.js';
import type { InputDecl, WorkflowDecl } from './workflow-decl.js';

/**
 * Turns a workflow into a dataflow graph spec (run in DAG mode): each node gets a `merge` that builds
 * its input from its field mappings; an input that triggers becomes an edge (which also carries the
 * value), a data-only input a data edge (carries, does not trigger), a dependency an edge whose value
 * no mapping reads. A branch is a conditional edge whose targets get no value from it (as in Eino, each
 * target maps its own inputs). The workflow's own problems join the graph validator's at `compile()`.
 */
export function lowerWorkflow(decl: WorkflowDecl): IndexedGraphSpec {
  const builder = new SpecBuilder('dataflow', undefined);
  builder.setSchemas(decl.inputSchema, undefined);
  builder.setLocalState(decl.localState);
  for (const issue of [...decl.issues, ...checkWorkflow(decl)]) builder.addIssue(issue);
  for (const [name, { node, options }] of decl.nodes) {
    // A node fed one whole output needs no merge: its input is that output, which can then stream in.
    const merge = wholeFromOne(decl, name) ? {} : { merge: inputMerge(planOf(decl, name)) };
    builder.addNode(name, node, { ...options, ...merge });
  }
  builder.setEndMerge(inputMerge(planOf(decl, END)));
  for (const [target, inputs] of decl.inputs) {
    const direct = new Set(inputs.filter((input) => input.direct).map((input) => input.from));
    for (const from of direct) builder.addEdge(from, target);
    const dataOnly = new Set(
      inputs.filter((input) => !input.direct && input.mappings.length > 0).map((input) => input.from),
    );
    // A source that also triggers the node already delivers its value on that edge.
    for (const from of dataOnly) if (!direct.has(from)) builder.addDataEdge(from, target);
  }
  for (const branch of decl.branches) builder.addBranch(branch.from, branch.router, branch.targets);
  return { ...builder.spec(), wiring: wiringOf(decl) };
}

/** The declared inputs as `toJSON()` draws them: one entry per source and target, mappings merged. */
function wiringOf(decl: WorkflowDecl): WiringSpec[] {
  const wiring: WiringSpec[] = [];
  for (const [to, inputs] of decl.inputs) {
    const bySource = new Map<string, { direct: boolean; mappings: Array<{ from: string; to: string }> }>();
    for (const input of inputs) {
      const entry = bySource.get(input.from) ?? { direct: false, mappings: [] };
      entry.direct ||= input.direct;
      for (const mapping of input.mappings) entry.mappings.push({ from: mapping.from, to: mapping.to });
      bySource.set(input.from, entry);
    }
    for (const [from, entry] of bySource) wiring.push({ from, to, ...entry });
  }
  return wiring;
}

/**
 * True when a node's only input is one triggering source's whole output (`addInput(node, from)`), with no
 * static value and no branch picking it: the default inbox gives exactly that, and a streaming source
 * can pipe into it (ADR 022).
 */
function wholeFromOne(decl: WorkflowDecl, node: string): boolean {
  const inputs = decl.inputs.get(node) ?? [];
  if (inputs.length !== 1 || (decl.statics.get(node)?.length ?? 0) > 0) return false;
  // A branch delivers its source's output to the target it picks; the merge is what ignores it.
  if (decl.branches.some((branch) => branch.targets.includes(node))) return false;
  const [input] = inputs as [InputDecl];
  const [mapping, ...more] = input.mappings;
  return input.direct && more.length === 0 && mapping?.fromPath.length === 0 && mapping.toPath.length === 0;
}

function planOf(decl: WorkflowDecl, node: string): InputPlan {
  const bySource = new Map<string, AnyFieldMapping[]>();
  for (const { from, mappings } of decl.inputs.get(node) ?? []) {
    if (mappings.length === 0) continue;
    const list = bySource.get(from);
    if (list) list.push(...mappings);
    else bySource.set(from, [...mappings]);
  }
  return { node, bySource, statics: decl.statics.get(node) ?? [] };
}
