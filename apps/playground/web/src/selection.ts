/** What the inspector shows: a step of the run, one event, or a checkpoint of the thread's history. */
export type Selection =
  | { readonly kind: 'step'; readonly key: string }
  | { readonly kind: 'event'; readonly seq: number }
  | { readonly kind: 'checkpoint'; readonly id: string }
  | undefined;
