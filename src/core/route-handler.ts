import type { ApiError } from './errors'
import type { ProviderSpend } from './provider-spend'

/** What a route handler receives: validated query (or body) and path parameters. */
export interface RouteInput {
  query: Record<string, unknown>
  params: Record<string, string>
}

export interface HandlerResult {
  data: unknown
  cacheStatus?: 'hit' | 'miss'
}

/**
 * A request checked and resolved before payment. `key` is the canonical form of the request (resolved
 * names, defaults applied): the payment fingerprint and the cache key, so `tokyo` and `TYO` are one request.
 */
export interface Prepared {
  key: string
  /** A free answer already known for this request (no evidence, asked again): given before the 402. */
  known?(): ApiError | undefined
  /** `spend`: where provider requests made for the answer are added (live evidence; see intelligence/lanes.ts). */
  run(spend?: ProviderSpend[]): Promise<HandlerResult>
}

/** `prepare` runs before the payment gate and may only throw client errors (400/404): those are free. */
export interface RouteHandler {
  prepare(input: RouteInput): Prepared
}

export type HandlerMap = Record<string, RouteHandler>
