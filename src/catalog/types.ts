import type { TObject, TSchema } from '@sinclair/typebox'

export type Method = 'GET' | 'POST'

/** Which array of a route's `data` is its table; for an array of plain values, the column's name. */
export interface TableSpec {
  field: string
  column?: string
}

export type RouteFamily = 'china' | 'signals' | 'spend' | 'flights' | 'capabilities'

/** Each family's title, in the catalog's order: OpenAPI's tags, `llms.txt` and the front door's sections. */
export const FAMILY_TITLES: Record<RouteFamily, string> = {
  china: 'China intelligence (trends, sentiment, KOLs)',
  signals: 'Weekly signal rankings and snapshots',
  spend: 'Destination spend data (monthly)',
  flights: 'Flight-arrivals data (monthly)',
  capabilities: 'Capability wrappers (decision-ready answers)',
}

/** How a route produces its answer; drives caching and the typical wait. */
export type RouteKind = 'dataset' | 'evidence' | 'orchestrated'

/** One paid route, declared once. Elysia routes, 402 requirements, OpenAPI and the README derive from it. */
export interface RouteSpec {
  /** Stable id, e.g. `spend.summary`; also the handler key. */
  id: string
  family: RouteFamily
  kind: RouteKind
  /** GET takes the query string; POST (wrappers) takes the same fields as a JSON body. */
  methods: readonly Method[]
  /** Elysia path, `:name` for path parameters. */
  path: string
  /** Decimal USD string: the price lives here and nowhere else. */
  priceUsd: string
  summary: string
  description: string
  /** Query (and, for POST, body) parameters. */
  query: TObject
  /** Path parameters, when the path has any. */
  params?: TObject
  /** Shape of `data` in the success envelope. */
  data: TSchema
  /** Typical seconds to answer with live providers; the payment window (`maxTimeoutSeconds`) covers it plus a margin. */
  typicalWaitSeconds: number
  /** The array of `data` that is a table: the route also answers CSV and Arrow (see table.ts). */
  table?: TableSpec
  /** Searches the China evidence through its legs (wrappers); `evidence` routes do so by kind. See waits.ts. */
  usesEvidence?: true
}
