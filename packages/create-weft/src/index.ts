export { type RunCreateOptions, runCreate } from './cli.js';
export { type ScaffoldOptions, scaffold, VERSION } from './scaffold.js';
