import { ApiError } from '../core'

/**
 * Null once the datasets are indexed; until then, the start-up build (it rejects if the build failed).
 * Every answer of a paid route (the 404 and the 402 included) is resolved against the indexes, so it
 * waits for them: the build's own promise bounds the wait (~300 ms after start), and no request is ever
 * read against half of an index.
 */
export type Indexing = () => Promise<void> | null

/** Seconds a buyer is told to wait when the start-up build failed (a fixed manifest reloads in the background). */
const RETRY_SECONDS = 5

/** The build failed: refused before any payment was verified or claimed. */
export const notIndexed = (error: unknown) =>
  new ApiError(
    'dataset_unavailable',
    'The datasets could not be indexed, so this request cannot be answered; no payment was taken or claimed. /ready says why.',
    { reason: String(error instanceof Error ? error.message : error).slice(0, 200) },
    { retryAfterSeconds: RETRY_SECONDS },
  )
