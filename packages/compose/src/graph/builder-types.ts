import type { End, Start } from '../vocabulary/constants.js';
import type { Send } from '../vocabulary/send.js';

/** A type-level error message shown where an illegal builder call is made. */
export type BuilderError<TMessage extends string> = `✖ ${TMessage}`;

/**
 * Accepts a new node name, or turns it into a readable type error when it is taken or reserved. When
 * the name or the existing names are plain `string` (a graph built in a loop), only `compile()` checks.
 */
export type NewNodeName<TName extends string, TExisting extends string> = string extends TName
  ? TName
  : string extends TExisting
    ? TName
    : TName extends Start | End
      ? BuilderError<`"${TName}" is reserved`>
      : TName extends TExisting
        ? BuilderError<`a node named "${TName}" already exists`>
        : TName;

/** What a router may return: a target, a `Send`, or a list of them (or a promise of those). */
export type RouterResult<TTarget extends string, TNodes extends string> =
  | TTarget
  | Send<TNodes>
  | ReadonlyArray<TTarget | Send<TNodes>>
  | Promise<TTarget | Send<TNodes> | ReadonlyArray<TTarget | Send<TNodes>>>;
