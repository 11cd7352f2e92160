import type { ZodType } from 'zod';
import type { ValidationIssue } from '../../errors/graph-validation-error.js';
import type { RouterFunction } from '../../pregel/topology.js';
import type { DataflowNodeOptions } from '../../vocabulary/node-options.js';
import type { AnyFieldMapping } from './field-mapping.js';

/** One `addInput` / `addInputWithOptions` / `addDependency` call, on the target's side. */
export interface InputDecl {
  readonly from: string;
  /** What it carries; empty for a dependency (control only). A whole-value input is `['' → '']`. */
  readonly mappings: readonly AnyFieldMapping[];
  /** Whether `from` triggers the target (a control edge); `false` for a data-only input. */
  readonly direct: boolean;
}

/** Everything a workflow builder has recorded: what `lowerWorkflow` turns into a graph spec. */
export interface WorkflowDecl {
  readonly nodes: Map<string, { readonly node: unknown; readonly options: DataflowNodeOptions }>;
  /** By target (a node or END). */
  readonly inputs: Map<string, InputDecl[]>;
  readonly statics: Map<string, Array<{ readonly path: readonly string[]; readonly value: unknown }>>;
  readonly branches: Array<{
    readonly from: string;
    readonly router: RouterFunction;
    readonly targets: readonly string[];
  }>;
  readonly issues: ValidationIssue[];
  inputSchema: ZodType | undefined;
  outputSchema: ZodType | undefined;
  localState: (() => unknown) | undefined;
}

/** A new, empty declaration. */
export function emptyWorkflow(): WorkflowDecl {
  return {
    nodes: new Map(),
    inputs: new Map(),
    statics: new Map(),
    branches: [],
    issues: [],
    inputSchema: undefined,
    outputSchema: undefined,
    localState: undefined,
  };
}
