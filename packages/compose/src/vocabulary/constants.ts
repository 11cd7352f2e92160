/** The virtual entry node: edges from `START` receive the run's input. */
export const START = '__start__';
/** The virtual exit node: an edge to `END` finishes that path of the run. */
export const END = '__end__';
/** Type of {@link START}. */
export type Start = typeof START;
/** Type of {@link END}. */
export type End = typeof END;
