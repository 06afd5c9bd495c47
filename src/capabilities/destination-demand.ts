import { placeKey } from '../data/aliases'
import type { RouteInput } from '../http/handler'
import type { MarketServices } from '../market-data/services'
import type { Leg, LegOutcome } from './legs'

/** Confidence of a destination answer: the weight of the legs that answered (documented in the catalog). */
export const DEMAND_LEG_WEIGHTS = { flights_summary: 0.5, flights_trend: 0.25, spend_trends: 0.25 } as const

export function demandLegs(market: MarketServices, { query }: RouteInput): { legs: Leg[]; key: string } {
  const destination = String(query.destination).trim()
  const snap = market.snapshot()
  const place = snap.destinations.get(placeKey(destination))
  const country = place ? snap.countries.get(placeKey(place.country)) : undefined
  const legs: Leg[] = [
    { name: 'flights_summary', routeId: 'flights.summary', required: true, input: { query: { destination }, params: {} } },
    { name: 'flights_trend', routeId: 'flights.trend', required: false, input: { query: { destination }, params: {} } },
    {
      name: 'spend_trends',
      routeId: 'spend.trends',
      required: false,
      input: country ? { query: { country: country.name }, params: {} } : undefined,
      skip: `the spend dataset has no market for ${place?.country ?? destination}, so spend context is not included`,
    },
  ]
  return { legs, key: place?.code ?? destination }
}

const pct = (n: number | null | undefined) => (n === null || n === undefined ? 'n/a' : `${n > 0 ? '+' : ''}${n}%`)

/** Turns the legs into the decision-ready answer. Every statement is derived from a figure the legs returned. */
export function demandAnswer(legs: Record<string, LegOutcome>) {
  const summary = legs.flights_summary!.data
  const trend = legs.flights_trend?.data
  const spend = legs.spend_trends?.data
  const s = summary.summary
  const yoy: number | null = summary.changes.estimated_passengers_yoy_pct
  const direction: 'up' | 'down' | 'flat' = trend?.direction ?? (yoy === null ? 'flat' : yoy > 3 ? 'up' : yoy < -3 ? 'down' : 'flat')

  const signals = [
    `${s.estimated_passengers.toLocaleString('en-US')} estimated passengers from mainland China in ${summary.source_month} (${pct(summary.changes.estimated_passengers_mom_pct)} month on month, ${pct(yoy)} year on year) on ${s.routes} routes.`,
    `Load factor ${Math.round(s.load_factor * 100)}%; ${summary.concentration.top_origin_share_pct}% of passengers come from ${s.top_origin_city}, ${summary.concentration.top3_origin_share_pct}% from the top three origin cities.`,
  ]
  if (trend) signals.push(`Scheduled-flight trend (latest three months against a year before): ${trend.direction}.`)
  if (spend) {
    signals.push(`Card spend in ${spend.country}: ${spend.direction}; cards ${pct(spend.changes.total_cards_yoy_pct)} year on year, ${pct(spend.recovery_vs_2019_pct)} against 2019.`)
  }

  const opportunities: string[] = []
  const risks: string[] = []
  if (s.load_factor >= 0.85) opportunities.push('Seats are nearly full: capacity partnerships and early-booking offers meet demand that airlines cannot yet carry.')
  if (direction === 'up') opportunities.push(`Demand is growing: campaigns in ${s.top_origin_city} and the other leading origin cities reach travellers already booking.`)
  const { top_origin_share_pct: top1, top3_origin_share_pct: top3 } = summary.concentration
  if (top1 >= 35 || top3 >= 70) risks.push(`Concentrated demand: ${top1}% of passengers from ${s.top_origin_city}, ${top3}% from the top three cities; a route cut there moves the whole market.`)
  else if (top3 < 50) opportunities.push('Demand is spread over many origin cities: second-tier city campaigns can scale.')
  if (spend) {
    if ((spend.changes.average_accommodation_spend_yoy_pct ?? 0) > 3) opportunities.push(`Accommodation spend per card is up ${pct(spend.changes.average_accommodation_spend_yoy_pct)}: premium stays and packages.`)
    if ((spend.changes.average_luxury_spend_yoy_pct ?? 0) < -3) risks.push(`Luxury spend per card is down ${pct(spend.changes.average_luxury_spend_yoy_pct)}: shopping-led offers convert less.`)
    if ((spend.recovery_vs_2019_pct ?? 0) < -10) risks.push(`Spend is still ${pct(spend.recovery_vs_2019_pct)} against 2019.`)
  }
  if (direction === 'down') risks.push('Passenger demand is falling against a year ago.')
  if (yoy !== null && yoy < -10 && direction !== 'down') risks.push(`Passengers are ${pct(yoy)} year on year in the latest month.`)

  const action = direction === 'up' ? 'expand' : direction === 'down' ? 'monitor' : 'maintain'
  const priority = [
    direction === 'up' ? `Increase China-facing marketing for ${summary.destination} ahead of the next peak, starting in ${s.top_origin_city}.` : `Hold spend for ${summary.destination} steady and watch the monthly passenger figures.`,
    risks.length > 0 ? `Address first: ${risks[0]}` : 'No material risk in the figures; review again after the next monthly release.',
    spend ? 'Match offers to the spend mix (accommodation vs luxury vs retail) shown in the spend trend.' : `Spend data is not available for ${summary.country}; use flights as the demand signal.`,
  ]
  const confidence = Object.entries(DEMAND_LEG_WEIGHTS).reduce((sum, [name, w]) => sum + (['ran', 'reused'].includes(legs[name]?.status ?? '') ? w : 0), 0)
  return {
    destination: summary.destination,
    country: summary.country,
    source_month: summary.source_month,
    summary: `${summary.destination} (${summary.country}): demand from mainland China is ${direction === 'up' ? 'rising' : direction === 'down' ? 'falling' : 'flat'}; ${s.estimated_passengers.toLocaleString('en-US')} estimated passengers in ${summary.source_month} (${pct(yoy)} year on year)${spend ? `, card spend ${spend.direction}` : ', no spend data for this market'}.`,
    demand_direction: direction,
    notable_signals: signals,
    opportunity_areas: opportunities,
    risks,
    priority_actions: priority,
    recommendation: { action, reason: `Passenger trend ${direction}${spend ? ` and spend ${spend.direction}` : ''}.` },
    confidence: Math.round(confidence * 100) / 100,
  }
}
