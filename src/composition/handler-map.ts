import { capabilityHandlers } from '../capabilities/wrappers'
import { SessionStore } from '../capabilities/sessions'
import type { Sessions } from '../core/stores'
import type { HandlerMap } from '../core/route-handler'
import { chinaHandlers } from '../intelligence/china-routes'
import type { IntelligenceServices } from '../intelligence/reports/evidence-answer'
import { flightHandlers } from '../market-data/flights'
import type { MarketServices } from '../market-data/market-services'
import { spendHandlers } from '../market-data/spend'
import { signalHandlers } from '../signals/signal-routes'
import type { SignalServices } from '../signals/signal-services'

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
