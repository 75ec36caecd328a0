/** An operation as a module writes it (docs/ARCHITECTURE.md#service-style): its shared state first. */
type Operation<S> = (state: S, ...args: never[]) => unknown;

/** The operations as other modules call them: the state given once, the rest of the arguments as written. */
export type WithState<S, Ops extends Record<string, Operation<S>>> = {
  [K in keyof Ops]: Ops[K] extends (state: S, ...args: infer A) => infer R ? (...args: A) => R : never;
};

/**
 * The service object of a module: each operation under its public name, over one shared state.
 * Only gathers: a reader finds what an operation does in the file it is exported from.
 */
export function withState<S, Ops extends Record<string, Operation<S>>>(
  state: S,
  ops: Ops,
): WithState<S, Ops> {
  const bound: Record<string, unknown> = {};
  for (const [name, op] of Object.entries(ops)) {
    bound[name] = (...args: never[]) => op(state, ...args);
  }
  return bound as WithState<S, Ops>;
}
