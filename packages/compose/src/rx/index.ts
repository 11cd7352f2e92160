// `@weft/compose/rx`: run streams as rxjs Observables. An optional entry: rxjs is an optional peer
// dependency, loaded only by those who import this entry.
export { toObservable } from './to-observable.js';
