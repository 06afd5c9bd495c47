import { capabilityHandlers, SessionStore } from '../capabilities'
import type { HandlerMap, Sessions } from '../core'
import { chinaHandlers, type IntelligenceServices } from '../intelligence'
import { flightHandlers, type MarketServices, spendHandlers } from '../market-data'
import { signalHandlers, type SignalServices } from '../signals'

export interface Services {
  market: MarketServices
  signals: SignalServices
  intelligence: IntelligenceServices
}

/** All route handlers by catalog id; a catalog route without one answers 501 (free). */
export function createHandlers(services: Services, sessions: Sessions = new SessionStore()): HandlerMap {
  const raw = {
    ...spendHandlers(services.market),
    ...flightHandlers(services.market),
    ...signalHandlers(services.signals),
    ...chinaHandlers(services.intelligence),
  }
  return { ...raw, ...capabilityHandlers({ legs: raw, market: services.market, signals: services.signals, sessions }) }
}

/** Ids of the routes this release serves. Factories only capture services, so none are needed to list them. */
export function implementedRouteIds(): Set<string> {
  return new Set(Object.keys(createHandlers({} as Services)))
}
