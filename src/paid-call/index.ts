/**
 * The face of paid-call/: one paid call for every transport, from the raw input to the envelope.
 */
export { paidCaller } from './call'
export type { PaidCaller, PaidResult } from './call'
export type { Indexing } from './indexing'
export { RateLimiter } from './rate-limit'
export type { RateLimits } from './rate-limit'
