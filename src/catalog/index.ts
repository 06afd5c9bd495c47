/**
 * The face of catalog/: the route catalog (each paid route's id, price, schemas and description) and the facts derived from it.
 */
import { capabilityRoutes } from './routes/capabilities'
import { chinaRoutes } from './routes/china'
import { flightRoutes } from './routes/flights-routes'
import { signalRoutes } from './routes/signals'
import { spendRoutes } from './routes/spend-routes'
import type { RouteSpec } from './types'

/** The route catalog: every paid route, in the order of the spec. */
export const CATALOG: readonly RouteSpec[] = [...chinaRoutes, ...signalRoutes, ...spendRoutes, ...flightRoutes, ...capabilityRoutes]

export const routeById = new Map(CATALOG.map((r) => [r.id, r]))

export {
  MCP_TOOL_RESOURCE,
  SERVICE,
  SERVICE_ICON_PATH,
  bazaarExtension,
  mcpBazaarExtension,
  serviceMetadata,
  toolName,
  v1OutputSchema,
} from './bazaar'
export type { ServiceMetadata } from './bazaar'
export { COMMON_CAP_ADVICE, COMMON_CLIENT_CAP_USD, overCommonCap, paymentRequiredMessage } from './client-caps'
// The evidence rules are the catalog's published numbers: all of them are public.
export * from './evidence-rules'
export { allowedValues, documentedValue, exampleCall } from './examples'
export { plainSchema, routeInputSchema, successEnvelope } from './json-schema'
export { PLATFORMS, PLATFORM_TOKENS } from './platforms'
export type { Platform } from './platforms'
export {
  DEMAND_LEG_WEIGHTS,
  KOL_SHORTLIST,
  MOMENTUM_POINTS,
  SESSION_TTL_SECONDS,
  VISIBILITY_BANDS,
  VISIBILITY_WEIGHTS,
} from './routes/capabilities'
export type { ENTITY_KINDS } from './routes/china-data'
export { FLAT_BAND_PCT } from './routes/data-quality'
export { GROWTH_MIN_BASE_PASSENGERS, MAX_AGGREGATE_DESTINATIONS } from './routes/flights-routes'
export { ENGAGEMENT_RATE_MIN_VIEWS, MOMENTUM_MIN_BASE, RANK_TYPES, SIGNALS_FRESHNESS } from './routes/signals'
export type { RankEntity } from './routes/signals'
export { SIGNAL_CATEGORIES, SIGNAL_CATEGORY_SLUGS, signalCategory } from './signal-categories'
export type { SignalCategory } from './signal-categories'
export { MEDIA_TYPES, columnsOf, httpQuery } from './table'
export type { AnswerFormat, TableColumn } from './table'
export { FAMILY_TITLES } from './types'
export type { Method, RouteFamily, RouteSpec } from './types'
export { typicalWait, typicalWaitSeconds, usesEvidence } from './waits'
export type { EvidenceMode } from './waits'
