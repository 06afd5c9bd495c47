import { routeById, SESSION_TTL_SECONDS } from '../catalog'
import type { HandlerMap, RouteHandler, RouteInput, Sessions } from '../core'
import type { MarketServices } from '../market-data'
import type { SignalServices } from '../signals'
import { demandAnswer, demandLegs } from './destination-demand'
import { kolAnswer, kolLegs } from './kol-shortlist'
import { labelled } from '../intelligence'
import { costOf, onSample, prepareLegs, runLegs, sourceSummary, type Leg, type LegOutcome } from './legs'
import { visibilityAnswer, visibilityLegs } from './visibility'

export interface CapabilityServices {
  /** The raw routes' handlers: the legs, called in process. */
  legs: HandlerMap
  market: MarketServices
  signals: SignalServices
  sessions: Sessions
}

/**
 * A wrapper: plan its legs from the input, prepare them before payment (their client errors are free),
 * run them concurrently after payment, and shape the answer. Every answer also carries its cost against
 * the legs bought one by one, a source summary and the session to pass back.
 */
function wrapper(
  services: CapabilityServices,
  routeId: string,
  plan: (input: RouteInput) => { legs: Leg[]; key: string },
  answer: (input: RouteInput, legs: Record<string, LegOutcome>) => Record<string, unknown>,
): RouteHandler {
  const price = routeById.get(routeId)!.priceUsd
  return {
    prepare(input) {
      const { legs, key } = plan(input)
      const prepared = prepareLegs(services.legs, legs)
      const requested = input.query.session as string | undefined
      return {
        key: `${key}|${requested ?? ''}`,
        async run(spend) {
          const { session, resumed } = await services.sessions.open(requested)
          const outcomes = await runLegs(prepared, session, spend)
          await services.sessions.save(session)
          return {
            data: {
              ...labelled(answer(input, outcomes), onSample(outcomes)),
              cost: costOf(price, outcomes),
              source_summary: sourceSummary(outcomes),
              session: {
                id: session.id,
                resumed,
                requested: requested ?? null,
                reused_legs: Object.values(outcomes).filter((o) => o.status === 'reused').length,
                expires_at: new Date(session.expiresAt).toISOString(),
                lifetime_seconds: SESSION_TTL_SECONDS,
              },
            },
          }
        },
      }
    },
  }
}

export function capabilityHandlers(services: CapabilityServices): HandlerMap {
  return {
    'capabilities.destination_demand': wrapper(
      services,
      'capabilities.destination_demand',
      (i) => demandLegs(services.market, services.signals.snapshot().entities, i),
      (_, legs) => demandAnswer(legs),
    ),
    'capabilities.visibility': wrapper(
      services,
      'capabilities.visibility',
      (i) => visibilityLegs(services.signals, i),
      (i, legs) => visibilityAnswer(String(i.query.brand_name).trim(), legs),
    ),
    'capabilities.kol_shortlist': wrapper(
      services,
      'capabilities.kol_shortlist',
      (i) => kolLegs(services.signals.snapshot().entities, i),
      (i, legs) => kolAnswer(String(i.query.brand_name).trim(), String(i.query.category).trim(), legs),
    ),
  }
}
