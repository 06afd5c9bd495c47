import { cachedAnswer, cachedRows, clusterPassengers, type MarketSnapshot, type Place, placeKey } from '../data'
import { GROWTH_MIN_BASE_PASSENGERS, MAX_AGGREGATE_DESTINATIONS } from '../catalog'
import { ApiError, type HandlerMap, invalidParameter, notFound, type RouteHandler, type RouteInput } from '../core'
import { addMonths, direction, pct, resolveMonth, round, threeMonthYoY } from './common'
import { monthsHandler, type MarketServices } from './market-services'

interface OriginRow {
  origin_city: string
  origin_code: string
  flights: number
  seats: number
  passengers: number
}

function resolveDestination(snap: MarketSnapshot, value: unknown, parameter = 'destination'): Place {
  const text = String(value).trim()
  const place = snap.destinations.get(text.toLowerCase()) ?? snap.destinations.get(placeKey(text))
  if (!place) throw notFound('destination', text, parameter, [...new Set([...snap.destinations.values()].map((p) => p.name))].sort())
  return place
}

function requireData(snap: MarketSnapshot, place: Place, month: string) {
  if (!snap.flightMonths.get(place.name)?.has(month)) throw notFound('destination-month', `${place.name} ${month}`, 'month')
}

/** Monthly totals of one destination, oldest first (aggregated at load): shared by summary and trend. */
const destinationMonthly = (snap: MarketSnapshot, destination: string) => snap.totals.destinations.get(destination) ?? []

/** Origin cities with flights to one destination in one month, busiest first. */
function origins(services: MarketServices, snap: MarketSnapshot, destination: string, month: string) {
  return cachedRows<OriginRow>(
    services,
    snap.flights,
    `flights-origins|${destination}|${month}`,
    `SELECT origin_city, origin_code, scheduled_flights::INTEGER AS flights, seats::INTEGER AS seats,
            estimated_passengers::INTEGER AS passengers
       FROM ${snap.flights.relation} WHERE month = $1 AND destination = $2 AND scheduled_flights > 0
      ORDER BY passengers DESC, origin_city`,
    [month, destination],
  )
}

/** Passengers per destination in one month, busiest first. */
function destinationsIn(services: MarketServices, snap: MarketSnapshot, month: string) {
  return cachedRows<{ destination: string; country: string; passengers: number }>(
    services,
    snap.flights,
    `flights-month|${month}`,
    `SELECT destination, destination_country AS country, SUM(estimated_passengers)::INTEGER AS passengers
       FROM ${snap.flights.relation} WHERE month = $1 GROUP BY destination, destination_country
      ORDER BY passengers DESC, destination`,
    [month],
  )
}

const share = (part: number, total: number) => (total > 0 ? round((part / total) * 100) : 0)

export function flightHandlers(services: MarketServices): HandlerMap {
  return {
    'flights.months': monthsHandler(services, 'flights.months', (snap) => snap.flights),
    'flights.summary': summaryHandler(services),
    'flights.trend': trendHandler(services),
    'flights.top_routes': topRoutesHandler(services),
    'flights.ranking': rankingHandler(services),
    'flights.growth': growthHandler(services),
    'flights.aggregate': aggregateHandler(services),
  }
}

/** The destination and month asked, resolved and known to have data (else a free 404). */
function destinationMonth(services: MarketServices, query: RouteInput['query']) {
  const snap = services.snapshot()
  const place = resolveDestination(snap, query.destination)
  const month = resolveMonth(snap.flights, query.month)
  requireData(snap, place, month)
  return { snap, place, month }
}

/** One destination in one month: volumes, how concentrated its origins are, and month/year changes. */
function summaryHandler(services: MarketServices): RouteHandler {
  return {
    prepare({ query }: RouteInput) {
      const { snap, place, month } = destinationMonth(services, query)
      return cachedAnswer(services, snap.flights, 'flights.summary', `${place.name}|${month}`, async () => {
        const rows = await origins(services, snap, place.name, month)
        const monthly = destinationMonthly(snap, place.name)
        const at = (m: string) => monthly.find((r) => r.month === m)
        const cur = at(month)!
        const shares = rows.map((r) => (cur.passengers > 0 ? r.passengers / cur.passengers : 0))
        return {
          destination: place.name,
          destination_code: place.code,
          country: place.country,
          source_month: month,
          summary: {
            routes: rows.length,
            scheduled_flights: cur.flights,
            seats: cur.seats,
            estimated_passengers: cur.passengers,
            load_factor: cur.seats > 0 ? round(cur.passengers / cur.seats, 3) : 0,
            top_origin_city: rows[0]?.origin_city ?? '',
          },
          concentration: {
            top_origin_share_pct: round((shares[0] ?? 0) * 100),
            top3_origin_share_pct: round(shares.slice(0, 3).reduce((a, b) => a + b, 0) * 100),
            herfindahl_index: round(
              shares.reduce((a, b) => a + b * b, 0),
              4,
            ),
          },
          changes: {
            estimated_passengers_mom_pct: pct(cur.passengers, at(addMonths(month, -1))?.passengers),
            estimated_passengers_yoy_pct: pct(cur.passengers, at(addMonths(month, -12))?.passengers),
          },
        }
      })
    },
  }
}

/** One destination's monthly volumes, latest `limit` months, with its growth direction. */
function trendHandler(services: MarketServices): RouteHandler {
  return {
    prepare({ query }: RouteInput) {
      const snap = services.snapshot()
      const place = resolveDestination(snap, query.destination)
      const limit = Number(query.limit ?? 12)
      return cachedAnswer(services, snap.flights, 'flights.trend', `${place.name}|${limit}`, async () => {
        const monthly = destinationMonthly(snap, place.name)
        return {
          destination: place.name,
          country: place.country,
          direction: direction(threeMonthYoY(monthly.map((r) => ({ month: r.month, value: r.passengers })))),
          points: monthly.slice(-limit).map((row) => ({
            month: row.month,
            scheduled_flights: row.flights,
            seats: row.seats,
            estimated_passengers: row.passengers,
          })),
        }
      })
    },
  }
}

/** The busiest origin cities of one destination in one month, with their share. */
function topRoutesHandler(services: MarketServices): RouteHandler {
  return {
    prepare({ query }: RouteInput) {
      const { snap, place, month } = destinationMonth(services, query)
      const limit = Number(query.limit ?? 10)
      return cachedAnswer(services, snap.flights, 'flights.top_routes', `${place.name}|${month}|${limit}`, async () => {
        const rows = await origins(services, snap, place.name, month)
        const total = rows.reduce((a, r) => a + r.passengers, 0)
        return {
          destination: place.name,
          country: place.country,
          month,
          routes: rows.slice(0, limit).map((route, index) => ({
            rank: index + 1,
            origin_city: route.origin_city,
            origin_code: route.origin_code,
            scheduled_flights: route.flights,
            seats: route.seats,
            estimated_passengers: route.passengers,
            share_pct: share(route.passengers, total),
          })),
        }
      })
    },
  }
}

/** Destinations ranked by passengers in one month, with their share. */
function rankingHandler(services: MarketServices): RouteHandler {
  return {
    prepare({ query }: RouteInput) {
      const snap = services.snapshot()
      const month = resolveMonth(snap.flights, query.month)
      const limit = Number(query.limit ?? 20)
      return cachedAnswer(services, snap.flights, 'flights.ranking', `${month}|${limit}`, async () => {
        const rows = await destinationsIn(services, snap, month)
        const total = rows.reduce((a, r) => a + r.passengers, 0)
        return {
          month,
          destinations: rows.slice(0, limit).map((row, index) => ({
            rank: index + 1,
            destination: row.destination,
            country: row.country,
            estimated_passengers: row.passengers,
            share_pct: share(row.passengers, total),
          })),
        }
      })
    },
  }
}

/** The month before `month`; a free 404 when the dataset has none (growth needs a month to compare with). */
function requirePreviousMonth(snap: MarketSnapshot, month: string): string {
  const previous = addMonths(month, -1)
  if (!snap.flights.periods.includes(previous)) {
    throw new ApiError(
      'not_found',
      `No month before ${month} to compare with; growth is available from ${snap.flights.periods[1]} to ${snap.flights.periods.at(-1)}.`,
      {
        parameter: 'month',
        value: month,
        known: [`${snap.flights.periods[1]} to ${snap.flights.periods.at(-1)}`],
      },
    )
  }
  return previous
}

/** Destinations ranked by month-on-month passenger growth (small bases left out). */
function growthHandler(services: MarketServices): RouteHandler {
  return {
    prepare({ query }: RouteInput) {
      const snap = services.snapshot()
      const month = resolveMonth(snap.flights, query.month)
      const previous = requirePreviousMonth(snap, month)
      const limit = Number(query.limit ?? 20)
      return cachedAnswer(services, snap.flights, 'flights.growth', `${month}|${limit}`, async () => {
        const [now, before] = await Promise.all([destinationsIn(services, snap, month), destinationsIn(services, snap, previous)])
        const prior = new Map(before.map((r) => [r.destination, r.passengers]))
        const ranked = now
          .map((r) => ({ ...r, previous: prior.get(r.destination) ?? 0 }))
          .filter((r) => r.previous >= GROWTH_MIN_BASE_PASSENGERS)
          .map((r) => ({ ...r, change: pct(r.passengers, r.previous)! }))
          .sort((a, b) => b.change - a.change || a.destination.localeCompare(b.destination))
        return {
          month,
          previous_month: previous,
          destinations: ranked.slice(0, limit).map((row, index) => ({
            rank: index + 1,
            destination: row.destination,
            country: row.country,
            estimated_passengers: row.passengers,
            previous_passengers: row.previous,
            mom_change_pct: row.change,
          })),
        }
      })
    },
  }
}

/** The distinct destinations a comma-separated `destinations` parameter names, in the caller's order. */
function aggregateDestinations(snap: MarketSnapshot, value: unknown): Place[] {
  const names = String(value)
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean)
  if (names.length === 0) throw invalidParameter('destinations', 'list at least one destination')
  if (names.length > MAX_AGGREGATE_DESTINATIONS)
    throw invalidParameter('destinations', `at most ${MAX_AGGREGATE_DESTINATIONS} destinations`)
  return [...new Map(names.map((n) => resolveDestination(snap, n, 'destinations')).map((p) => [p.name, p])).values()]
}

/** Passengers, flights and seats of a group of destinations in one month: by origin city and by member. */
function aggregateRows(services: MarketServices, snap: MarketSnapshot, members: string[], month: string) {
  const list = members.map((_, i) => `$${i + 2}`).join(', ')
  const rel = snap.flights.relation
  return Promise.all([
    services.db.all<{ origin_city: string; passengers: number; flights: number; seats: number }>(
      `SELECT origin_city, SUM(estimated_passengers)::INTEGER AS passengers, SUM(scheduled_flights)::INTEGER AS flights,
              SUM(seats)::INTEGER AS seats
         FROM ${rel} WHERE month = $1 AND destination IN (${list}) GROUP BY origin_city ORDER BY passengers DESC, origin_city`,
      [month, ...members],
    ),
    services.db.all<{ destination: string; passengers: number }>(
      `SELECT destination, SUM(estimated_passengers)::INTEGER AS passengers FROM ${rel}
        WHERE month = $1 AND destination IN (${list}) GROUP BY destination ORDER BY passengers DESC, destination`,
      [month, ...members],
    ),
  ])
}

/** Several destinations as one market in one month: combined volumes, growth, and each member's share. */
function aggregateHandler(services: MarketServices): RouteHandler {
  return {
    prepare({ query }: RouteInput) {
      const snap = services.snapshot()
      const places = aggregateDestinations(snap, query.destinations)
      const month = resolveMonth(snap.flights, query.month)
      // Echoed in the caller's order (duplicates such as Tokyo,TYO folded into one).
      const members = places.map((p) => p.name)
      // A blank label (e.g. "  ") would pass minLength and echo back as ""; fall back to the member names.
      const label = String(query.label ?? '').trim() || members.join(' + ')
      return cachedAnswer(services, snap.flights, 'flights.aggregate', `${members.join(',')}|${month}|${label}`, async () => {
        const [byOrigin, byMember] = await aggregateRows(services, snap, members, month)
        const monthly = clusterPassengers(snap.totals, members, month)
        const total = byOrigin.reduce((a, r) => a + r.passengers, 0)
        const yoy = threeMonthYoY(monthly)
        const present = new Map(byMember.map((m) => [m.destination, m.passengers]))
        return {
          label,
          destinations: members,
          month,
          summary: {
            estimated_passengers: total,
            scheduled_flights: byOrigin.reduce((a, r) => a + r.flights, 0),
            seats: byOrigin.reduce((a, r) => a + r.seats, 0),
            top_origin_city: byOrigin[0]?.origin_city ?? '',
            growth_direction: direction(yoy),
            yoy_change_pct: yoy,
          },
          members: members
            .map((d) => ({ destination: d, estimated_passengers: present.get(d) ?? 0, share_pct: share(present.get(d) ?? 0, total) }))
            .sort((a, b) => b.estimated_passengers - a.estimated_passengers),
        }
      })
    },
  }
}
