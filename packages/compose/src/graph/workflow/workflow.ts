import type { ZodType } from 'zod';
import type { GraphSpec } from '../../pregel/topology.js';
import { END, type End, START, type Start } from '../../vocabulary/constants.js';
import type { NodeOptions, StateHandlers } from '../../vocabulary/node-options.js';
import type { NewNodeName } from '../builder-types.js';
import { type CompileOptions, compileSpec } from '../compile.js';
import type { CompiledGraph } from '../compiled-graph.js';
import type { DataflowNode, InputOf, NodeIO, OutputOf } from '../graph.js';
import { passthrough } from '../passthrough.js';
import { type AnyFieldMapping, isFieldMapping } from './field-mapping.js';
import { lowerWorkflow } from './lower-workflow.js';
import type { CheckMappings, MappedShape, WholeCheck } from './mapping-types.js';
import { emptyWorkflow, type InputDecl } from './workflow-decl.js';

/** Options of a {@link Workflow}. */
export interface WorkflowOptions {
  /** Validates the run input; field mappings from START are checked against it at `compile()`. */
  readonly input?: ZodType;
  /** Describes the output: field mappings into END are checked against it at `compile()`. */
  readonly output?: ZodType;
  /** Creates the workflow's local state for each run (see `GraphOptions.localState`). */
  readonly localState?: () => unknown;
}

/** Options of `addInputWithOptions` (Eino's `WorkflowAddInputOpt`). */
export interface AddInputOptions {
  /**
   * Carry the data without making the node wait for `from` directly (Eino's `WithNoDirectDependency`):
   * a path of triggering inputs must lead from `from` to the node. Needed across a branch, where a
   * direct dependency would run the node even when the branch did not choose it.
   */
  readonly noDirectDependency?: boolean;
}

/** A passthrough node of a workflow: it fits any input, and its output is what its mappings built. */
interface WorkflowPassthrough extends NodeIO {
  readonly input: unknown;
  readonly passthrough: true;
}

/** The workflow type after an input into `TTo`: a passthrough target gains what the mappings carry. */
type AfterInput<
  TInput,
  TOutput,
  TNodes extends Record<string, NodeIO>,
  TTo,
  TSource,
  TMappings extends readonly unknown[],
> = TTo extends keyof TNodes
  ? TNodes[TTo] extends WorkflowPassthrough
    ? Workflow<
        TInput,
        TOutput,
        Omit<TNodes, TTo> & {
          [K in TTo & string]: {
            input: unknown;
            output: TNodes[TTo]['output'] & MappedShape<TSource, TMappings>;
            passthrough: true;
          };
        }
      >
    : Workflow<TInput, TOutput, TNodes>
  : Workflow<TInput, TOutput, TNodes>;

type Source<TNodes> = Start | (keyof TNodes & string);
type Target<TNodes> = (keyof TNodes & string) | End;

/**
 * A workflow (Eino's `Workflow`): a DAG whose nodes declare where each part of their input comes from.
 * `addInput(to, from, ...mappings)` takes fields of a predecessor's output (or all of it) into fields of
 * the node's input (or all of it), and makes the node wait for `from`; `addInputWithOptions(..., {
 * noDirectDependency: true })` only carries data; `addDependency(to, from)` only orders. A node runs
 * when every predecessor finished or was skipped by a branch. Mappings are type-checked where the types
 * are known, checked against zod schemas at `compile()`, and read at run time with errors naming node
 * and field. Compiles to an ordinary graph in DAG mode.
 *
 * @example
 * ```ts
 * const app = new Workflow<{ user: { name: string }; city: string }, { text: string }>()
 *   .addNode('greet', ({ name }: { name: string }) => `Hello, ${name}`)
 *   .addNode('weather', (city: string) => ({ sky: city === 'Oslo' ? 'grey' : 'blue' }))
 *   .addInput('greet', START, mapFields('user.name', 'name'))
 *   .addInput('weather', START, fromField('city'))
 *   .addNode('say', (input: { hello: string; sky: string }) => `${input.hello}; the sky is ${input.sky}`)
 *   .addInput('say', 'greet', toField('hello'))
 *   .addInput('say', 'weather', mapFields('sky', 'sky'))
 *   .addInput(END, 'say', toField('text'))
 *   .compile();
 * await app.invoke({ user: { name: 'Ada' }, city: 'Oslo' }); // { text: 'Hello, Ada; the sky is grey' }
 * ```
 */
export class Workflow<TInput, TOutput, TNodes extends Record<string, NodeIO> = {}> {
  readonly #decl = emptyWorkflow();

  constructor(options: WorkflowOptions = {}) {
    this.#decl.inputSchema = options.input;
    this.#decl.outputSchema = options.output;
    this.#decl.localState = options.localState;
  }

  /** Adds a node (a function, a `Runnable` or a compiled graph); wire its input with `addInput`. */
  addNode<const TName extends string, TIn, TOut>(
    name: NewNodeName<TName, keyof TNodes & string>,
    node: DataflowNode<TIn, TOut>,
    options?: NodeOptions & StateHandlers<NoInfer<TIn>, NoInfer<TOut>>,
  ): Workflow<TInput, TOutput, TNodes & { [K in TName]: { input: TIn; output: TOut } }> {
    this.#add(name, node, options ?? {});
    return this as never;
  }

  /**
   * Adds a passthrough node (Eino's `AddPassthroughNode`): its output is the input its mappings built,
   * typed from them; a place to branch from or to gather fields at.
   */
  addPassthrough<const TName extends string>(
    name: NewNodeName<TName, keyof TNodes & string>,
    options?: Pick<NodeOptions, 'metadata'>,
  ): Workflow<
    TInput,
    TOutput,
    TNodes & { [K in TName]: { input: unknown; output: unknown; passthrough: true } }
  > {
    this.#add(name, passthrough, { kind: 'passthrough', ...options });
    return this as never;
  }

  /**
   * Takes `to`'s input (or fields of it) from `from`'s output (or fields of it), and makes `to` wait for
   * `from` (Eino's `AddInput`). No mapping: the whole output is the whole input. A field that does not
   * exist, or whose type does not fit, is a type error where the types are known.
   */
  addInput<
    const TTo extends Target<TNodes>,
    const TFrom extends Source<TNodes>,
    const TMappings extends readonly AnyFieldMapping[],
  >(
    to: TTo,
    from: TFrom,
    ...mappings: TMappings extends readonly []
      ? WholeCheck<OutputOf<TNodes, TInput, TFrom>, InputOf<TNodes, TOutput, TTo>, TFrom, TTo>
      : TMappings &
          CheckMappings<OutputOf<TNodes, TInput, TFrom>, InputOf<TNodes, TOutput, TTo>, TFrom, TTo, TMappings>
  ): AfterInput<TInput, TOutput, TNodes, TTo, OutputOf<TNodes, TInput, TFrom>, TMappings> {
    return this.#input(to, from, mappings as readonly unknown[], true) as never;
  }

  /**
   * `addInput` with options (Eino's `AddInputWithOptions`): `{ noDirectDependency: true }` carries the
   * data without making `to` wait for `from` directly.
   */
  addInputWithOptions<
    const TTo extends Target<TNodes>,
    const TFrom extends Source<TNodes>,
    const TMappings extends readonly AnyFieldMapping[],
  >(
    to: TTo,
    from: TFrom,
    mappings: TMappings &
      CheckMappings<OutputOf<TNodes, TInput, TFrom>, InputOf<TNodes, TOutput, TTo>, TFrom, TTo, TMappings>,
    options: AddInputOptions = {},
  ): AfterInput<TInput, TOutput, TNodes, TTo, OutputOf<TNodes, TInput, TFrom>, TMappings> {
    return this.#input(to, from, mappings, options.noDirectDependency !== true) as never;
  }

  /** Makes `to` wait for `from` without taking any of its output (Eino's `AddDependency`). */
  addDependency(to: Target<TNodes>, from: Source<TNodes>): this {
    this.#inputsOf(to).push({ from, mappings: [], direct: true });
    return this;
  }

  /**
   * Sets a fixed value at a path of `to`'s input (Eino's `SetStaticValue`); it conflicts with a mapping
   * into the same path.
   */
  setStaticValue(to: Target<TNodes>, path: string | readonly string[], value: unknown): this {
    const segments = typeof path === 'string' ? (path === '' ? [] : path.split('.')) : [...path];
    const list = this.#decl.statics.get(to) ?? [];
    list.push({ path: segments, value });
    this.#decl.statics.set(to, list);
    return this;
  }

  /**
   * Adds a branch after `from` (Eino's `AddBranch`): `router` reads `from`'s output and returns the
   * target(s) that run; the others are skipped, and skips cascade. Targets do not receive `from`'s
   * output through the branch: each maps its own inputs (with `noDirectDependency` across the branch).
   */
  addBranch<const TFrom extends Source<TNodes>, const TTarget extends Target<TNodes>>(
    from: TFrom,
    router: (output: OutputOf<TNodes, TInput, TFrom>) => NoInfer<TTarget> | readonly NoInfer<TTarget>[],
    targets: readonly TTarget[],
  ): this {
    if (typeof router !== 'function' || !Array.isArray(targets) || targets.length === 0) {
      this.#decl.issues.push({
        kind: 'invalid-edge',
        at: `${from} -> ?`,
        message: 'addBranch needs a router function and a non-empty list of targets',
      });
      return this;
    }
    this.#decl.branches.push({ from, router: router as never, targets: [...targets] });
    return this;
  }

  /** The graph spec this workflow compiles to (a dataflow graph run in DAG mode). */
  get spec(): GraphSpec {
    return lowerWorkflow(this.#decl);
  }

  /**
   * Validates the workflow (its own rules and the graph's) and returns its runtime, in DAG mode.
   *
   * @throws GraphValidationError with every problem at once, each naming the node and field at fault.
   */
  compile(
    options: Omit<CompileOptions<keyof TNodes & string>, 'mode'> = {},
  ): CompiledGraph<TInput, TOutput, keyof TNodes & string, unknown> {
    return compileSpec(lowerWorkflow(this.#decl), {
      ...options,
      name: options.name ?? 'workflow',
      mode: 'dag',
    });
  }

  #add(name: string, node: unknown, options: object): void {
    if (this.#decl.nodes.has(name) || name === START || name === END) {
      this.#decl.issues.push({
        kind: name === START || name === END ? 'reserved-name' : 'duplicate-node',
        at: name,
        message:
          name === START || name === END
            ? `"${name}" is reserved; choose another node name`
            : `a node named "${name}" already exists; rename one of them`,
      });
      return;
    }
    this.#decl.nodes.set(name, { node, options });
  }

  #inputsOf(to: string): InputDecl[] {
    let list = this.#decl.inputs.get(to);
    if (!list) this.#decl.inputs.set(to, (list = []));
    return list;
  }

  #input(to: string, from: string, mappings: readonly unknown[], direct: boolean): this {
    const bad = mappings.find((m) => !isFieldMapping(m));
    if (bad !== undefined) {
      this.#decl.issues.push({
        kind: 'field-mapping',
        at: `${from} -> ${to}`,
        message: `${String(bad)} is not a field mapping; use mapFields, fromField, toField or mapFieldPaths`,
      });
      return this;
    }
    const list =
      (mappings as readonly AnyFieldMapping[]).length > 0
        ? (mappings as readonly AnyFieldMapping[])
        : [whole];
    this.#inputsOf(to).push({ from, mappings: list, direct });
    return this;
  }
}

const whole: AnyFieldMapping = { from: '', to: '', fromPath: [], toPath: [] };
