import type { HandlerMap } from './http/handler'
import { chinaHandlers } from './intelligence/handlers'
import type { IntelligenceServices } from './intelligence/services'
import { flightHandlers } from './market-data/flights'
import type { MarketServices } from './market-data/services'
import { spendHandlers } from './market-data/spend'

/** All route handlers by catalog id; a catalog route without one answers 501 (free). */
export function createHandlers(market: MarketServices, intelligence: IntelligenceServices): HandlerMap {
  return { ...spendHandlers(market), ...flightHandlers(market), ...chinaHandlers(intelligence) }
}

/** Ids of the routes this release serves. Factories only capture services, so none are needed to list them. */
export function implementedRouteIds(): Set<string> {
  return new Set(Object.keys(createHandlers(undefined as never, undefined as never)))
}
