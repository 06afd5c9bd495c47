import { routeById } from '../catalog'
import {
  ApiError,
  atomicToUsd,
  type HandlerMap,
  type Prepared,
  type ProviderSpend,
  type RouteInput,
  type Session,
  usdToAtomic,
} from '../core'

/** One underlying route a wrapper calls, in process: not over HTTP and not paid again. */
export interface Leg {
  name: string
  routeId: string
  required: boolean
  /** The leg's request; absent when it does not apply to this call (then `skip` says why). */
  input?: RouteInput
  skip?: string
}

export interface LegOutcome {
  name: string
  route: string
  price_usd: string
  required: boolean
  status: 'ran' | 'reused' | 'skipped' | 'failed'
  reason?: string
  cache_status?: 'hit' | 'miss'
  evidence_mode?: string
  /** The leg's `data`; not part of the answer's source summary. */
  data?: any
}

interface PreparedLeg {
  leg: Leg
  prepared?: Prepared
  skip?: string
}

/**
 * Before payment: prepares every leg with the route's own checks. A required leg's client error is the
 * wrapper's (a free 400/404); an optional leg that cannot run is skipped with the reason.
 */
export function prepareLegs(handlers: HandlerMap, legs: Leg[]): PreparedLeg[] {
  return legs.map((leg) => {
    const handler = handlers[leg.routeId]
    if (!handler || !leg.input) {
      if (leg.required) throw new Error(`wrapper leg ${leg.name} has no ${handler ? 'input' : 'handler'}`)
      return { leg, skip: leg.skip ?? 'not served by this release' }
    }
    try {
      return { leg, prepared: handler.prepare(leg.input) }
    } catch (error) {
      if (leg.required || !(error instanceof ApiError)) throw error
      return { leg, skip: error.message }
    }
  })
}

/**
 * After payment: runs the legs concurrently. A leg already in the session is reused. A failed optional
 * leg degrades the answer (its outcome says why); a failed required leg fails the wrapper, so the
 * payment is released and nothing is charged.
 */
export async function runLegs(legs: PreparedLeg[], session: Session, spend?: ProviderSpend[]): Promise<Record<string, LegOutcome>> {
  const outcomes = await Promise.all(
    legs.map(async ({ leg, prepared, skip }): Promise<LegOutcome> => {
      const route = routeById.get(leg.routeId)!
      const base = { name: leg.name, route: route.path, price_usd: route.priceUsd, required: leg.required }
      if (!prepared) return { ...base, status: 'skipped', reason: skip }
      const key = `${leg.routeId}|${prepared.key}`
      if (session.legs.has(key)) return withMode({ ...base, status: 'reused', data: session.legs.get(key) })
      try {
        const result = await prepared.run(spend)
        session.legs.set(key, result.data)
        return withMode({ ...base, status: 'ran', data: result.data, ...(result.cacheStatus ? { cache_status: result.cacheStatus } : {}) })
      } catch (error) {
        if (leg.required) throw error
        return { ...base, status: 'failed', reason: error instanceof ApiError ? `${error.code}: ${error.message}` : 'internal error' }
      }
    }),
  )
  return Object.fromEntries(outcomes.map((o) => [o.name, o]))
}

const withMode = (o: LegOutcome): LegOutcome => (o.data?.evidence_mode ? { ...o, evidence_mode: o.data.evidence_mode } : o)

/**
 * The wrapper's price against buying the legs that ran (or were reused) one by one. difference_usd is
 * price - separately, signed, so the three figures always add up: positive when the wrapper costs more
 * (it also shapes the answer), negative when it saves.
 */
export function costOf(priceUsd: string, outcomes: Record<string, LegOutcome>) {
  const used = Object.values(outcomes).filter((o) => o.status === 'ran' || o.status === 'reused')
  const separately = used.reduce((sum, o) => sum + usdToAtomic(o.price_usd), 0n)
  const price = usdToAtomic(priceUsd)
  return {
    price_usd: priceUsd,
    legs_bought_separately_usd: atomicToUsd(separately),
    difference_usd: atomicToUsd(price - separately),
    legs_used: used.length,
  }
}

/** The source summary of an answer: every leg, what happened to it and why, without its data. */
export const sourceSummary = (outcomes: Record<string, LegOutcome>) => Object.values(outcomes).map(({ data: _, ...o }) => o)

/** The answer rests on generated sample data: a leg that answered says so (`sample`, or its `data_quality.sample`). */
export const onSample = (outcomes: Record<string, LegOutcome>): boolean =>
  Object.values(outcomes).some(
    (o) => (o.status === 'ran' || o.status === 'reused') && (o.data?.sample === true || o.data?.data_quality?.sample === true),
  )
