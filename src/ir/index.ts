/**
 * The internal representation (IR): the hub every format converts to and from. Plain data only (no
 * classes, no Dates), so it is serialisable and `structuredClone`-able. Import it as a namespace:
 * `import type * as ir from '../ir/index.js'`.
 */
export type * from './content.js'
export type * from './error.js'
export { errorCodeForStatus, errorStatus } from './error.js'
export type * from './format-id.js'
export { budgetForEffort, effortForBudget } from './reasoning.js'
export type * from './request.js'
export type * from './response.js'
export type * from './stream-event.js'
export type * from './warning.js'
