import { capabilityRoutes } from './routes/capabilities'
import { chinaRoutes } from './routes/china'
import { flightRoutes } from './routes/flights-routes'
import { signalRoutes } from './routes/signals'
import { spendRoutes } from './routes/spend-routes'
import type { RouteSpec } from './types'

export type { RouteSpec } from './types'

/** The route catalog: every paid route, in the order of the spec. */
export const CATALOG: readonly RouteSpec[] = [...chinaRoutes, ...signalRoutes, ...spendRoutes, ...flightRoutes, ...capabilityRoutes]

export const routeById = new Map(CATALOG.map((r) => [r.id, r]))
