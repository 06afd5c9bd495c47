import { CONFIDENCE, DEMAND_LEG_WEIGHTS, MAX_AGGREGATE_DESTINATIONS } from '../catalog'
import { type MarketSnapshot, type Place, placeKey } from '../data'
import type { RouteInput } from '../core'
import type { MarketServices } from '../market-data'
import { type EntityIndex, read } from '../intelligence'
import { onSample, type Leg, type LegOutcome } from './legs'

type Country = { name: string; code: string }

/**
 * A country of the market data and its destinations in the flights data: by the spend data's country
 * names and aliases (what the spend routes accept), else by a destination's own country name or code.
 */
function countryOf(snap: MarketSnapshot, name: string): { country: Country; members: Place[] } | undefined {
  const key = placeKey(name)
  const places = [...new Map([...snap.destinations.values()].map((p) => [p.name, p])).values()]
  const spend = snap.countries.get(key)
  const members = spend
    ? places.filter((p) => p.countryCode === spend.code || p.country === spend.name)
    : places.filter((p) => placeKey(p.country) === key || placeKey(p.countryCode) === key)
  if (members.length === 0) return undefined
  const country = spend ?? { name: members[0]!.country, code: members[0]!.countryCode }
  // Sorted, so every spelling of the country is one request (and one session leg); the sample's largest country has 6.
  return { country, members: members.sort((a, b) => a.name.localeCompare(b.name)).slice(0, MAX_AGGREGATE_DESTINATIONS) }
}

/**
 * The place a destination names: as the market data spells it (names, aliases, codes in any case), else
 * as the entity resolver reads it (München, KualaLumpur, 越南旅游, Seoul trip, a clear slip such as
 * Instanbul). A near miss of a place's name is the free 404 with the places it may mean.
 */
function placeName(snap: MarketSnapshot, entities: EntityIndex, destination: string): string {
  if (snap.destinations.has(placeKey(destination)) || countryOf(snap, destination)) return destination
  const resolved = read(entities, destination, 'destination', { places: true })
  return resolved.kind === 'entity' && (resolved.entity.kind === 'destination' || resolved.entity.kind === 'country')
    ? resolved.entity.name
    : destination
}

/**
 * A city answers from its flights summary and trend; a country (that is not also a city, like Singapore)
 * from the flights aggregate over its destinations. Either adds the country's spend trends when the spend
 * data has that market. An unknown name is the required leg's free 404, before payment.
 */
export function demandLegs(market: MarketServices, entities: EntityIndex, { query }: RouteInput): { legs: Leg[]; key: string } {
  const snap = market.snapshot()
  const destination = placeName(snap, entities, String(query.destination).trim())
  const place = snap.destinations.get(placeKey(destination))
  const cluster = place ? undefined : countryOf(snap, destination)
  const countryName = place?.country ?? cluster?.country.name
  const spendCountry = countryName ? snap.countries.get(placeKey(countryName)) : undefined
  const spend: Leg = {
    name: 'spend_trends',
    routeId: 'spend.trends',
    required: false,
    input: spendCountry ? { query: { country: spendCountry.name }, params: {} } : undefined,
    skip: `the spend dataset has no market for ${countryName ?? destination}, so spend context is not included`,
  }
  if (cluster) {
    const destinations = cluster.members.map((p) => p.name).join(',')
    const aggregate: Leg = {
      name: 'flights_aggregate',
      routeId: 'flights.aggregate',
      required: true,
      input: { query: { destinations, label: cluster.country.name }, params: {} },
    }
    return { legs: [aggregate, spend], key: `country:${cluster.country.code}` }
  }
  const legs: Leg[] = [
    { name: 'flights_summary', routeId: 'flights.summary', required: true, input: { query: { destination }, params: {} } },
    { name: 'flights_trend', routeId: 'flights.trend', required: false, input: { query: { destination }, params: {} } },
    spend,
  ]
  return { legs, key: place?.code ?? destination }
}

const pct = (n: number | null | undefined) => (n === null || n === undefined ? 'n/a' : `${n > 0 ? '+' : ''}${n}%`)

type Direction = 'up' | 'down' | 'flat'

/** The flight figures a demand answer reads, from a city's summary and trend or a country's aggregate. */
interface FlightsView {
  scope: 'city' | 'country'
  destination: string
  country: string
  destinations: string[]
  month: string
  passengers: number
  loadFactor: number
  topOrigin: string
  direction: Direction
  yoy: number | null
  signals: string[]
  /** Origin concentration: a city's summary has it, a country's aggregate does not. */
  concentration?: { top1: number; top3: number }
}

function cityView(summary: any, trend: any): FlightsView {
  const figures = summary.summary
  const yoy: number | null = summary.changes.estimated_passengers_yoy_pct
  const signals = [
    `${figures.estimated_passengers.toLocaleString('en-US')} estimated passengers from mainland China in ${summary.source_month} (${pct(summary.changes.estimated_passengers_mom_pct)} month on month, ${pct(yoy)} year on year) on ${figures.routes} routes.`,
    `Load factor ${Math.round(figures.load_factor * 100)}%; ${summary.concentration.top_origin_share_pct}% of passengers come from ${figures.top_origin_city}, ${summary.concentration.top3_origin_share_pct}% from the top three origin cities.`,
  ]
  if (trend) signals.push(`Scheduled-flight trend (latest three months against a year before): ${trend.direction}.`)
  return {
    scope: 'city',
    destination: summary.destination,
    country: summary.country,
    destinations: [summary.destination],
    month: summary.source_month,
    passengers: figures.estimated_passengers,
    loadFactor: figures.load_factor,
    topOrigin: figures.top_origin_city,
    direction: trend?.direction ?? (yoy === null ? 'flat' : yoy > 3 ? 'up' : yoy < -3 ? 'down' : 'flat'),
    yoy,
    signals,
    concentration: { top1: summary.concentration.top_origin_share_pct, top3: summary.concentration.top3_origin_share_pct },
  }
}

function countryView(agg: any): FlightsView {
  const figures = agg.summary
  const members = agg.members as { destination: string; estimated_passengers: number; share_pct: number }[]
  const loadFactor = figures.seats > 0 ? figures.estimated_passengers / figures.seats : 0
  return {
    scope: 'country',
    destination: agg.label,
    country: agg.label,
    destinations: members.map((m) => m.destination),
    month: agg.month,
    passengers: figures.estimated_passengers,
    loadFactor,
    topOrigin: figures.top_origin_city,
    direction: figures.growth_direction,
    yoy: figures.yoy_change_pct,
    signals: [
      `${figures.estimated_passengers.toLocaleString('en-US')} estimated passengers from mainland China in ${agg.month} across ${members.length} destinations: ${members.map((m) => `${m.destination} ${m.share_pct}%`).join(', ')}.`,
      `Load factor ${Math.round(loadFactor * 100)}%; the leading origin city is ${figures.top_origin_city}.`,
      `Scheduled-flight trend (latest three months against a year before): ${figures.growth_direction} (${pct(figures.yoy_change_pct)}).`,
    ],
  }
}

/** Turns the legs into the decision-ready answer. Every statement is derived from a figure the legs returned. */
export function demandAnswer(legs: Record<string, LegOutcome>) {
  const aggregate = legs.flights_aggregate?.data
  const view = aggregate ? countryView(aggregate) : cityView(legs.flights_summary!.data, legs.flights_trend?.data)
  const spend = legs.spend_trends?.data
  const { direction, yoy } = view

  const signals = [...view.signals]
  if (spend) {
    signals.push(
      `Card spend in ${spend.country}: ${spend.direction}; cards ${pct(spend.changes.total_cards_yoy_pct)} year on year, ${pct(spend.recovery_vs_2019_pct)} against 2019.`,
    )
  }

  const opportunities: string[] = []
  const risks: string[] = []
  if (view.loadFactor >= 0.85)
    opportunities.push('Seats are nearly full: capacity partnerships and early-booking offers meet demand that airlines cannot yet carry.')
  if (direction === 'up')
    opportunities.push(
      `Demand is growing: campaigns in ${view.topOrigin} and the other leading origin cities reach travellers already booking.`,
    )
  if (view.concentration) {
    const { top1, top3 } = view.concentration
    if (top1 >= 35 || top3 >= 70)
      risks.push(
        `Concentrated demand: ${top1}% of passengers from ${view.topOrigin}, ${top3}% from the top three cities; a route cut there moves the whole market.`,
      )
    else if (top3 < 50) opportunities.push('Demand is spread over many origin cities: second-tier city campaigns can scale.')
  }
  if (spend) {
    if ((spend.changes.average_accommodation_spend_yoy_pct ?? 0) > 3)
      opportunities.push(
        `Accommodation spend per card is up ${pct(spend.changes.average_accommodation_spend_yoy_pct)}: premium stays and packages.`,
      )
    if ((spend.changes.average_luxury_spend_yoy_pct ?? 0) < -3)
      risks.push(`Luxury spend per card is down ${pct(spend.changes.average_luxury_spend_yoy_pct)}: shopping-led offers convert less.`)
    if ((spend.recovery_vs_2019_pct ?? 0) < -10) risks.push(`Spend is still ${pct(spend.recovery_vs_2019_pct)} against 2019.`)
  }
  if (direction === 'down') risks.push('Passenger demand is falling against a year ago.')
  if (view.scope === 'city' && yoy !== null && yoy < -10 && direction !== 'down')
    risks.push(`Passengers are ${pct(yoy)} year on year in the latest month.`)

  const action = direction === 'up' ? 'expand' : direction === 'down' ? 'monitor' : 'maintain'
  const priority = [
    direction === 'up'
      ? `Increase China-facing marketing for ${view.destination} ahead of the next peak, starting in ${view.topOrigin}.`
      : `Hold spend for ${view.destination} steady and watch the monthly passenger figures.`,
    risks.length > 0 ? `Address first: ${risks[0]}` : 'No material risk in the figures; review again after the next monthly release.',
    spend
      ? 'Match offers to the spend mix (accommodation vs luxury vs retail) shown in the spend trend.'
      : `Spend data is not available for ${view.country}; use flights as the demand signal.`,
  ]
  // The sample datasets are generated: their answers keep CONFIDENCE.sampleShare of it.
  const confidence =
    Object.entries(DEMAND_LEG_WEIGHTS).reduce((sum, [name, w]) => sum + (['ran', 'reused'].includes(legs[name]?.status ?? '') ? w : 0), 0) *
    (onSample(legs) ? CONFIDENCE.sampleShare : 1)
  const where =
    view.scope === 'country' ? `${view.country} (${view.destinations.length} destinations)` : `${view.destination} (${view.country})`
  return {
    destination: view.destination,
    country: view.country,
    scope: view.scope,
    destinations: view.destinations,
    source_month: view.month,
    summary: `${where}: demand from mainland China is ${direction === 'up' ? 'rising' : direction === 'down' ? 'falling' : 'flat'}; ${view.passengers.toLocaleString('en-US')} estimated passengers in ${view.month} (${pct(yoy)} year on year${view.scope === 'country' ? ' over the latest three months' : ''})${spend ? `, card spend ${spend.direction}` : ', no spend data for this market'}.`,
    demand_direction: direction,
    notable_signals: signals,
    opportunity_areas: opportunities,
    risks,
    priority_actions: priority,
    recommendation: { action, reason: `Passenger trend ${direction}${spend ? ` and spend ${spend.direction}` : ''}.` },
    confidence: Math.round(confidence * 100) / 100,
  }
}
