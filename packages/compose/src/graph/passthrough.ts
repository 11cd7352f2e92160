/**
 * The function of a passthrough node: its output is its input. One shared function, so a passthrough
 * is recognisable (`kind: 'passthrough'`) and costs one call.
 */
export function passthrough<T>(input: T): T {
  return input;
}

/** The function of a passthrough node in a state graph: it writes nothing. */
export function statePassthrough(): undefined {
  return undefined;
}
