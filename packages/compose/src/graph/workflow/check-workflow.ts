import type { ZodType } from 'zod';
import type { ValidationIssue } from '../../errors/graph-validation-error.js';
import { END, START } from '../../vocabulary/constants.js';
import type { AnyFieldMapping } from './field-mapping.js';
import { lookupPath, misfit } from './schema-path.js';
import type { WorkflowDecl } from './workflow-decl.js';

/**
 * The workflow-specific problems of a declaration (the graph validator adds the general ones): unknown
 * endpoints, conflicting target paths, data-only inputs with no path of triggering edges behind them,
 * nodes nothing triggers, and mappings the known schemas contradict.
 */
export function checkWorkflow(decl: WorkflowDecl): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  checkEndpoints(decl, issues);
  for (const target of [...decl.nodes.keys(), END]) checkConflicts(decl, target, issues);
  checkTriggers(decl, issues);
  checkDataInputs(decl, issues);
  checkSchemas(decl, issues);
  return issues;
}

function checkEndpoints(decl: WorkflowDecl, issues: ValidationIssue[]): void {
  const names = (): string => [...decl.nodes.keys()].join(', ');
  for (const [target, inputs] of decl.inputs) {
    if (target !== END && !decl.nodes.has(target)) {
      issues.push({
        kind: 'unknown-node',
        at: target,
        message: `an input is added to "${target}", which is not a node (nodes: ${names()})`,
      });
    }
    for (const { from, mappings } of inputs) {
      if (from !== START && !decl.nodes.has(from)) {
        issues.push({
          kind: 'unknown-node',
          at: `${from} -> ${target}`,
          message: `"${target}" takes an input from "${from}", which is not a node (nodes: ${names()}); add it first`,
        });
      }
      for (const mapping of mappings) {
        for (const segment of [...mapping.fromPath, ...mapping.toPath]) {
          if (segment === '' || segment === '__proto__') {
            issues.push({
              kind: 'field-mapping',
              at: `${from} -> ${target}`,
              message: `field path "${mapping.from}" → "${mapping.to}" has an invalid segment ${JSON.stringify(segment)}`,
            });
          }
        }
      }
    }
  }
}

/** Two mappings into one node must not write the same path, or one a path inside the other (Eino's rule). */
function checkConflicts(decl: WorkflowDecl, target: string, issues: ValidationIssue[]): void {
  const written: Array<{ path: readonly string[]; by: string }> = [];
  const add = (path: readonly string[], by: string): void => {
    const clash = written.find(
      (other) =>
        other.path.length === 0 ||
        path.length === 0 ||
        other.path.slice(0, path.length).join('\u0000') === path.slice(0, other.path.length).join('\u0000'),
    );
    if (clash) {
      const show = (p: readonly string[]) => (p.length === 0 ? 'the whole input' : `field "${p.join('.')}"`);
      issues.push({
        kind: 'field-mapping',
        at: target,
        message: `${show(path)} of "${target}" (from ${by}) conflicts with ${show(clash.path)} (from ${clash.by}); map each input path once, and nothing inside a path mapped whole`,
      });
      return;
    }
    written.push({ path, by });
  };
  for (const { from, mappings } of decl.inputs.get(target) ?? []) {
    for (const mapping of mappings) add(mapping.toPath, `"${from}"`);
  }
  for (const { path } of decl.statics.get(target) ?? []) add(path, 'a static value');
}

/** What triggers each node: its direct inputs and dependencies, and the branches that may choose it. */
function controlSuccessors(decl: WorkflowDecl): Map<string, Set<string>> {
  const next = new Map<string, Set<string>>();
  const link = (from: string, to: string): void => {
    let set = next.get(from);
    if (!set) next.set(from, (set = new Set()));
    set.add(to);
  };
  for (const [target, inputs] of decl.inputs)
    for (const input of inputs) if (input.direct) link(input.from, target);
  for (const branch of decl.branches) for (const target of branch.targets) link(branch.from, target);
  return next;
}

function checkTriggers(decl: WorkflowDecl, issues: ValidationIssue[]): void {
  const triggered = new Set<string>();
  for (const targets of controlSuccessors(decl).values()) for (const target of targets) triggered.add(target);
  for (const name of [...decl.nodes.keys(), END]) {
    if (triggered.has(name)) continue;
    const what = name === END ? 'the workflow output (END)' : `"${name}"`;
    issues.push({
      kind: 'missing-entry',
      at: name,
      message: `nothing triggers ${what}: give it an input (addInput("${name}", from, ...)), a dependency (addDependency) or make it a branch target`,
    });
  }
}

/** A data-only input needs a path of triggering edges from its source (Eino's "illegal indirect edge"). */
function checkDataInputs(decl: WorkflowDecl, issues: ValidationIssue[]): void {
  const next = controlSuccessors(decl);
  for (const [target, inputs] of decl.inputs) {
    for (const input of inputs) {
      if (input.direct || reaches(next, input.from, target)) continue;
      issues.push({
        kind: 'invalid-edge',
        at: `${input.from} -> ${target}`,
        message: `"${target}" takes data from "${input.from}" without depending on it directly, but no path of triggering inputs leads from "${input.from}" to "${target}", so its data might not be there; use addInput instead`,
      });
    }
  }
}

function reaches(next: ReadonlyMap<string, ReadonlySet<string>>, from: string, to: string): boolean {
  const seen = new Set<string>([from]);
  const stack = [from];
  while (stack.length > 0) {
    for (const successor of next.get(stack.pop() as string) ?? []) {
      if (successor === to) return true;
      if (!seen.has(successor)) {
        seen.add(successor);
        stack.push(successor);
      }
    }
  }
  return false;
}

function checkSchemas(decl: WorkflowDecl, issues: ValidationIssue[]): void {
  for (const [target, inputs] of decl.inputs) {
    for (const { from, mappings } of inputs) {
      for (const mapping of mappings) {
        const problem = schemaProblem(decl, mapping, from, target);
        if (problem) issues.push({ kind: 'field-mapping', at: `${from} -> ${target}`, message: problem });
      }
    }
  }
}

/** Why `mapping` from `from` into `to` does not fit their schemas, or `undefined` when it does. */
function schemaProblem(
  decl: WorkflowDecl,
  mapping: AnyFieldMapping,
  from: string,
  to: string,
): string | undefined {
  const source: ZodType | undefined =
    from === START ? decl.inputSchema : decl.nodes.get(from)?.options.output;
  const target: ZodType | undefined = to === END ? decl.outputSchema : decl.nodes.get(to)?.options.input;
  const read = source ? lookupPath(source, mapping.fromPath, 'output') : undefined;
  if (read && 'missing' in read) {
    return `field "${mapping.from}" of "${from}" does not exist: its output schema has no "${read.missing}" at ${read.at}`;
  }
  const write = target ? lookupPath(target, mapping.toPath, 'input') : undefined;
  if (write && 'missing' in write) {
    return `field "${mapping.to}" of "${to}" does not exist: its input schema has no "${write.missing}" at ${write.at}`;
  }
  if (read && 'found' in read && write && 'found' in write) {
    const reason = misfit(read.found, write.found);
    const field = (path: string, node: string) =>
      path === '' ? `the whole "${node}"` : `field "${path}" of "${node}"`;
    if (reason) return `${field(mapping.from, from)} does not fit ${field(mapping.to, to)}: ${reason}`;
  }
  return undefined;
}
