import { capabilityRoutes } from './capabilities'
import { chinaRoutes } from './china'
import { flightRoutes } from './flights-routes'
import { signalRoutes } from './signals'
import { spendRoutes } from './spend-routes'
import type { RouteSpec } from './types'

export type { RouteSpec } from './types'

/** The route catalog: every paid route, in the order of the spec. */
export const CATALOG: readonly RouteSpec[] = [...chinaRoutes, ...signalRoutes, ...spendRoutes, ...flightRoutes, ...capabilityRoutes]

export const routeById = new Map(CATALOG.map((r) => [r.id, r]))
