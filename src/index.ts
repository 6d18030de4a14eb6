export { PartialArguments } from './arguments/partial-arguments.js';
export type { ArgumentKind } from './arguments/partial-arguments.js';
