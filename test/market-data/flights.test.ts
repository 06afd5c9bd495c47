/**
 * The seven flight-arrivals routes over the shipped sample data. Expected figures come from a separate
 * DuckDB that reads datasets/flights.parquet directly, never from the code under test.
 */
import { describe, expect, test } from 'bun:test'
import { MAX_AGGREGATE_DESTINATIONS } from '../../src/catalog/routes/flights-routes'
import { describeAnswerCache, describeMonthsRoute, describeSharedContract, testFreeErrors } from './support'
import { directionOf, expectRoundedFrom, expectUnknownName, LATEST_MONTH, pctChange, rowOfMonth, sameAnswerFor } from './support'
import { startApiAndReader } from '../../support/api-during-tests'
import type { Parquet } from '../../support/parquet'
import { bounds, expectClientError, type Client, type Query } from '../../support/paying-client'

let api: Client
let pq: Parquet
startApiAndReader((client, reader) => ([api, pq] = [client, reader]))

interface MonthTotals {
  month: string
  flights: number
  seats: number
  passengers: number
}

interface OriginRow {
  origin_city: string
  origin_code: string
  flights: number
  seats: number
  passengers: number
}

/** Monthly totals of one destination (or a cluster), oldest first, straight from the Parquet. */
async function monthlyTotals(...destinations: string[]): Promise<MonthTotals[]> {
  const list = destinations.map((_, i) => `$${i + 1}`).join(', ')
  return pq.rows<MonthTotals>(
    `SELECT month, SUM(scheduled_flights)::BIGINT AS flights, SUM(seats)::BIGINT AS seats, SUM(estimated_passengers)::BIGINT AS passengers
       FROM flights WHERE destination IN (${list}) GROUP BY month ORDER BY month`,
    destinations,
  )
}

/** Origin cities with scheduled flights to a destination in a month, busiest first. */
async function originsOf(destination: string, month: string): Promise<OriginRow[]> {
  return pq.rows<OriginRow>(
    `SELECT origin_city, origin_code, scheduled_flights AS flights, seats, estimated_passengers AS passengers
       FROM flights WHERE destination = $1 AND month = $2 AND scheduled_flights > 0
      ORDER BY passengers DESC, origin_city`,
    [destination, month],
  )
}

/** Passengers of every destination in a month, busiest first. */
async function destinationsIn(month: string) {
  return pq.rows<{ destination: string; country: string; passengers: number }>(
    `SELECT destination, destination_country AS country, SUM(estimated_passengers)::BIGINT AS passengers
       FROM flights WHERE month = $1 GROUP BY destination, destination_country ORDER BY passengers DESC, destination`,
    [month],
  )
}

const at = rowOfMonth<MonthTotals>
const sumPassengers = (rows: MonthTotals[], months: string[]) => months.reduce((t, m) => t + at(rows, m).passengers, 0)

describe('every flights route', () => {
  const samples: [string, Query][] = [
    ['flights.months', {}],
    ['flights.summary', { destination: 'Tokyo' }],
    ['flights.trend', { destination: 'Tokyo' }],
    ['flights.top_routes', { destination: 'Tokyo' }],
    ['flights.ranking', {}],
    ['flights.growth', {}],
    ['flights.aggregate', { destinations: 'Tokyo,Osaka,Seoul', label: 'North Asia' }],
  ]
  describeSharedContract(() => api, 'flights', samples)
})

describeMonthsRoute(
  () => api,
  () => pq,
  'flights',
)

describe('GET /v1/market-data/flights/summary', () => {
  test("reports Tokyo's routes, flights, seats, passengers, load factor and top origin city as in the Parquet", async () => {
    const cur = at(await monthlyTotals('Tokyo'), '2025-07')
    const origins = await originsOf('Tokyo', '2025-07')
    const data = await api.data('flights.summary', { destination: 'Tokyo', month: '2025-07' })
    expect([data.destination, data.destination_code, data.country, data.source_month]).toEqual(['Tokyo', 'TYO', 'Japan', '2025-07'])
    expect(data.summary.estimated_passengers).toBe(cur.passengers)
    expect(data.summary.scheduled_flights).toBe(cur.flights)
    expect(data.summary.seats).toBe(cur.seats)
    expect(data.summary.routes).toBe(origins.length)
    expect(data.summary.top_origin_city).toBe(origins[0]!.origin_city)
    expectRoundedFrom(data.summary.load_factor, cur.passengers / cur.seats, 3)
  })

  test('measures origin concentration from the origin cities’ passenger shares', async () => {
    const origins = await originsOf('Tokyo', '2025-07')
    const total = origins.reduce((t, o) => t + o.passengers, 0)
    const shares = origins.map((o) => o.passengers / total)
    const { concentration } = await api.data('flights.summary', { destination: 'Tokyo', month: '2025-07' })
    expectRoundedFrom(concentration.top_origin_share_pct, shares[0]! * 100, 1)
    expectRoundedFrom(concentration.top3_origin_share_pct, (shares[0]! + shares[1]! + shares[2]!) * 100, 1)
    expectRoundedFrom(
      concentration.herfindahl_index,
      shares.reduce((t, s) => t + s * s, 0),
      4,
    )
  })

  test('computes month-over-month and year-over-year passenger changes from the neighbouring months', async () => {
    const rows = await monthlyTotals('Tokyo')
    const { changes } = await api.data('flights.summary', { destination: 'Tokyo', month: '2025-07' })
    expect(changes.estimated_passengers_mom_pct).toBe(pctChange(at(rows, '2025-07').passengers, at(rows, '2025-06').passengers))
    expect(changes.estimated_passengers_yoy_pct).toBe(pctChange(at(rows, '2025-07').passengers, at(rows, '2024-07').passengers))
  })

  test('has no year-over-year change in the first year of data', async () => {
    const { changes } = await api.data('flights.summary', { destination: 'Tokyo', month: '2019-03' })
    expect(changes.estimated_passengers_yoy_pct).toBeNull()
  })

  test('uses the latest month when month is omitted', async () => {
    const data = await api.data('flights.summary', { destination: 'Tokyo' })
    expect(data.source_month).toBe(LATEST_MONTH)
    expect(data.summary.estimated_passengers).toBe(at(await monthlyTotals('Tokyo'), LATEST_MONTH).passengers)
  })

  test('matches the destination by name in any case and by IATA code', async () => {
    const answer = await sameAnswerFor(api, 'flights.summary', [
      { destination: 'tokyo', month: '2025-07' },
      { destination: 'TOKYO', month: '2025-07' },
      { destination: 'TYO', month: '2025-07' },
    ])
    expect(answer.destination).toBe('Tokyo')
  })

  test('an unknown destination is a free 404 naming destination and listing at least 60 known ones', async () => {
    const known = await expectUnknownName(api, 'flights.summary', { destination: 'Atlantis' }, 'destination', 'Tokyo')
    expect(known.length).toBeGreaterThanOrEqual(60)
  })

  testFreeErrors(() => api, 'flights.summary', [
    ['a month without data is a free 404 naming month', { destination: 'Tokyo', month: '2031-01' }, 404, 'month'],
    ['a malformed month is a free 400 naming month', { destination: 'Tokyo', month: '2026-13' }, 400, 'month'],
  ])
})

describe('GET /v1/market-data/flights/trend', () => {
  const limit = bounds('flights.trend', 'limit')

  test(`returns the latest ${limit.default} months by default, oldest first, with the Parquet totals`, async () => {
    const expected = (await monthlyTotals('Tokyo')).slice(-limit.default)
    const data = await api.data('flights.trend', { destination: 'Tokyo' })
    expect(data.points).toEqual(
      expected.map((r) => ({ month: r.month, scheduled_flights: r.flights, seats: r.seats, estimated_passengers: r.passengers })),
    )
    expect(data.points.at(-1).month).toBe(LATEST_MONTH)
  })

  test(`returns every month (up to ${limit.maximum}) at the maximum limit and rejects more for free, naming limit`, async () => {
    const all = await monthlyTotals('Tokyo')
    const data = await api.data('flights.trend', { destination: 'Tokyo', limit: limit.maximum })
    expect(data.points).toHaveLength(Math.min(all.length, limit.maximum))
    expect(data.points[0].month).toBe('2019-01')
    expectClientError(await api.free('flights.trend', { destination: 'Tokyo', limit: limit.maximum + 1 }), 400, 'limit')
  })

  test('shows the 2021 collapse: Tokyo passengers that year are far below 2019', async () => {
    const data = await api.data('flights.trend', { destination: 'TYO', limit: limit.maximum })
    const year = (y: string) =>
      data.points
        .filter((p: { month: string }) => p.month.startsWith(y))
        .reduce((t: number, p: { estimated_passengers: number }) => t + p.estimated_passengers, 0)
    expect(year('2019')).toBeGreaterThan(0)
    expect(year('2021')).toBeLessThan(year('2019') * 0.25)
  })

  test('gives the direction of the latest three months against the same months a year before', async () => {
    const rows = await monthlyTotals('Tokyo')
    const change = pctChange(sumPassengers(rows, ['2026-08', '2026-09', '2026-10']), sumPassengers(rows, ['2025-08', '2025-09', '2025-10']))
    expect((await api.data('flights.trend', { destination: 'Tokyo' })).direction).toBe(directionOf(change))
  })

  test('an unknown destination is a free 404 naming destination', async () => {
    expectClientError(await api.free('flights.trend', { destination: 'El Dorado' }), 404, 'destination')
  })
})

describe('GET /v1/market-data/flights/top-routes', () => {
  const limit = bounds('flights.top_routes', 'limit')

  test(`ranks the top ${limit.default} origin cities by passengers, as in the Parquet`, async () => {
    const expected = (await originsOf('Tokyo', '2026-07')).slice(0, limit.default)
    const data = await api.data('flights.top_routes', { destination: 'Tokyo', month: '2026-07' })
    expect(data.month).toBe('2026-07')
    expect(data.routes).toHaveLength(limit.default)
    expect(
      data.routes.map((r: any) => [r.rank, r.origin_city, r.origin_code, r.scheduled_flights, r.seats, r.estimated_passengers]),
    ).toEqual(expected.map((o, i) => [i + 1, o.origin_city, o.origin_code, o.flights, o.seats, o.passengers]))
  })

  test("gives each origin's share of the destination's passengers, summing to about 100 % over all origins", async () => {
    const total = at(await monthlyTotals('Tokyo'), '2026-07').passengers
    const data = await api.data('flights.top_routes', { destination: 'Tokyo', month: '2026-07', limit: limit.maximum })
    expect(data.routes).toHaveLength((await originsOf('Tokyo', '2026-07')).length)
    data.routes.forEach((r: { share_pct: number; estimated_passengers: number }) =>
      expectRoundedFrom(r.share_pct, (r.estimated_passengers / total) * 100, 1),
    )
    const sum = data.routes.reduce((t: number, r: { share_pct: number }) => t + r.share_pct, 0)
    expect(Math.abs(sum - 100)).toBeLessThanOrEqual(0.05 * data.routes.length)
  })

  test('uses the latest month when month is omitted', async () => {
    expect((await api.data('flights.top_routes', { destination: 'Tokyo' })).month).toBe(LATEST_MONTH)
  })

  testFreeErrors(() => api, 'flights.top_routes', [
    ['a limit above the maximum is a free 400 naming limit', { destination: 'Tokyo', limit: limit.maximum + 1 }, 400, 'limit'],
    ['an unknown destination is a free 404 naming destination', { destination: 'Shangri-La' }, 404, 'destination'],
  ])

  test('the busiest destinations draw on at least 40 distinct origin cities', async () => {
    const busiest = (await api.data('flights.ranking', { limit: 5 })).destinations.map((d: { destination: string }) => d.destination)
    const origins = new Set<string>()
    for (const destination of busiest) {
      const data = await api.data('flights.top_routes', { destination, limit: limit.maximum })
      for (const r of data.routes) origins.add(r.origin_city)
    }
    expect(origins.size).toBeGreaterThanOrEqual(40)
  })
})

describe('GET /v1/market-data/flights/ranking', () => {
  const limit = bounds('flights.ranking', 'limit')

  test('ranks every destination of the month by passengers, as in the Parquet', async () => {
    const expected = await destinationsIn('2025-02')
    const total = expected.reduce((t, r) => t + r.passengers, 0)
    const data = await api.data('flights.ranking', { month: '2025-02', limit: limit.maximum })
    expect(data.month).toBe('2025-02')
    expect(data.destinations.map((d: any) => [d.rank, d.destination, d.country, d.estimated_passengers])).toEqual(
      expected.slice(0, limit.maximum).map((r, i) => [i + 1, r.destination, r.country, r.passengers]),
    )
    data.destinations.forEach((d: { share_pct: number; estimated_passengers: number }) =>
      expectRoundedFrom(d.share_pct, (d.estimated_passengers / total) * 100, 1),
    )
  })

  test(`returns ${limit.default} destinations of the latest month by default`, async () => {
    const expected = (await destinationsIn(LATEST_MONTH)).slice(0, limit.default).map((r) => r.destination)
    const data = await api.data('flights.ranking')
    expect(data.month).toBe(LATEST_MONTH)
    expect(data.destinations.map((d: { destination: string }) => d.destination)).toEqual(expected)
  })

  test('covers at least 60 destinations', async () => {
    const data = await api.data('flights.ranking', { limit: limit.maximum })
    expect(data.destinations.length).toBeGreaterThanOrEqual(60)
  })

  testFreeErrors(() => api, 'flights.ranking', [
    ['a limit above the maximum is a free 400 naming limit', { limit: limit.maximum + 1 }, 400, 'limit'],
    ['a month without data is a free 404 naming month', { month: '2031-01' }, 404, 'month'],
  ])
})

describe('GET /v1/market-data/flights/growth', () => {
  const limit = bounds('flights.growth', 'limit')

  /** Expected growth list: MoM change, destinations under 1,000 previous passengers left out. */
  async function expectedGrowth(month: string, previous: string) {
    const [now, before] = await Promise.all([destinationsIn(month), destinationsIn(previous)])
    const prior = new Map(before.map((r) => [r.destination, r.passengers]))
    const all = now
      .map((r) => ({ ...r, previous: prior.get(r.destination) ?? 0 }))
      .map((r) => ({ ...r, change: pctChange(r.passengers, r.previous) }))
    const listed = all.filter((r) => r.previous >= 1000).sort((a, b) => b.change! - a.change! || a.destination.localeCompare(b.destination))
    return { all, listed }
  }

  test('ranks destinations by month-over-month passenger change, as computed from the Parquet', async () => {
    const { listed } = await expectedGrowth('2024-04', '2024-03')
    const data = await api.data('flights.growth', { month: '2024-04', limit: limit.maximum })
    expect(data.previous_month).toBe('2024-03')
    expect(
      data.destinations.map((d: any) => [d.rank, d.destination, d.estimated_passengers, d.previous_passengers, d.mom_change_pct]),
    ).toEqual(listed.slice(0, limit.maximum).map((r, i) => [i + 1, r.destination, r.passengers, r.previous, r.change]))
  })

  test('leaves out destinations with fewer than 1,000 passengers in the previous month, even when they grew fastest', async () => {
    const { all, listed } = await expectedGrowth('2020-07', '2020-06')
    const data = await api.data('flights.growth', { month: '2020-07', limit: limit.maximum })
    const names = data.destinations.map((d: { destination: string }) => d.destination)
    // the sample has tiny-base destinations that would top the list without the rule
    const tinyFastest = all.filter((r) => r.previous < 1000 && r.change !== null && r.change > listed[0]!.change!).map((r) => r.destination)
    expect(tinyFastest.length).toBeGreaterThan(0)
    for (const name of tinyFastest) expect(names).not.toContain(name)
    expect(data.destinations.every((d: { previous_passengers: number }) => d.previous_passengers >= 1000)).toBe(true)
    expect(names).toEqual(listed.map((r) => r.destination))
  })

  test(`returns ${limit.default} destinations of the latest month against the month before by default, fastest first`, async () => {
    const data = await api.data('flights.growth')
    expect([data.month, data.previous_month]).toEqual([LATEST_MONTH, '2026-09'])
    expect(data.destinations).toHaveLength(limit.default)
    const changes = data.destinations.map((d: { mom_change_pct: number }) => d.mom_change_pct)
    expect(changes).toEqual([...changes].sort((a, b) => b - a))
  })

  testFreeErrors(() => api, 'flights.growth', [
    ['the first month of data has no previous month: a free 404 naming month', { month: '2019-01' }, 404, 'month'],
    ['a limit above the maximum is a free 400 naming limit', { limit: limit.maximum + 1 }, 400, 'limit'],
  ])
})

describe('GET /v1/market-data/flights/aggregate', () => {
  const NORTH_ASIA = { destinations: 'Tokyo,Osaka,Seoul', label: 'North Asia' }

  test('echoes the label and the destinations and carries the spec summary fields', async () => {
    const data = await api.data('flights.aggregate', NORTH_ASIA)
    expect(data.label).toBe('North Asia')
    expect(data.destinations).toEqual(['Tokyo', 'Osaka', 'Seoul'])
    expect(data.month).toBe(LATEST_MONTH)
    expect(Number.isInteger(data.summary.estimated_passengers)).toBe(true)
    expect(typeof data.summary.top_origin_city).toBe('string')
    expect(['up', 'down', 'flat']).toContain(data.summary.growth_direction)
  })

  test('sums the members’ flights, seats and passengers as in the Parquet and names the cluster’s top origin', async () => {
    const cur = at(await monthlyTotals('Tokyo', 'Osaka', 'Seoul'), '2024-05')
    const top = await pq.one<{ origin_city: string }>(
      `SELECT origin_city FROM flights WHERE month = '2024-05' AND destination IN ('Tokyo', 'Osaka', 'Seoul')
        GROUP BY origin_city ORDER BY SUM(estimated_passengers) DESC, origin_city LIMIT 1`,
    )
    const { summary, month } = await api.data('flights.aggregate', { ...NORTH_ASIA, month: '2024-05' })
    expect(month).toBe('2024-05')
    expect([summary.estimated_passengers, summary.scheduled_flights, summary.seats]).toEqual([cur.passengers, cur.flights, cur.seats])
    expect(summary.top_origin_city).toBe(top.origin_city)
  })

  test('reports a summary equal to the sum of its members, each matching its own summary route', async () => {
    const data = await api.data('flights.aggregate', { ...NORTH_ASIA, month: '2024-05' })
    expect(data.members.reduce((t: number, m: { estimated_passengers: number }) => t + m.estimated_passengers, 0)).toBe(
      data.summary.estimated_passengers,
    )
    for (const m of data.members) {
      const own = await api.data('flights.summary', { destination: m.destination, month: '2024-05' })
      expect(m.estimated_passengers).toBe(own.summary.estimated_passengers)
      expectRoundedFrom(m.share_pct, (m.estimated_passengers / data.summary.estimated_passengers) * 100, 1)
    }
  })

  test('gives the growth direction of the latest three months against the same months a year before', async () => {
    const rows = await monthlyTotals('Tokyo', 'Osaka', 'Seoul')
    const change = pctChange(sumPassengers(rows, ['2026-08', '2026-09', '2026-10']), sumPassengers(rows, ['2025-08', '2025-09', '2025-10']))
    const { summary } = await api.data('flights.aggregate', NORTH_ASIA)
    expect(summary.yoy_change_pct).toBe(change)
    expect(summary.growth_direction).toBe(directionOf(change))
  })

  test('matches members by name in any case and by IATA code', async () => {
    const canonical = await api.data('flights.aggregate', NORTH_ASIA)
    const mixed = await api.data('flights.aggregate', { destinations: 'tyo, OSAKA ,sel', label: 'North Asia' })
    expect(mixed).toEqual(canonical)
  })

  test('names the cluster after its members when the label is omitted or blank', async () => {
    expect((await api.data('flights.aggregate', { destinations: 'Tokyo,Seoul' })).label).toBe('Tokyo + Seoul')
    expect((await api.data('flights.aggregate', { destinations: 'Tokyo,Seoul', label: '   ' })).label).toBe('Tokyo + Seoul')
  })

  test('echoes the destinations in the caller’s order, with a name given twice (Tokyo, TYO) folded into one', async () => {
    expect((await api.data('flights.aggregate', { destinations: 'Seoul,Tokyo,TYO' })).destinations).toEqual(['Seoul', 'Tokyo'])
  })

  test(`more than ${MAX_AGGREGATE_DESTINATIONS} destinations is a free 400 naming destinations`, async () => {
    const names = (await pq.rows<{ destination: string }>('SELECT DISTINCT destination FROM flights ORDER BY destination')).map(
      (r) => r.destination,
    )
    expect(names.length).toBeGreaterThan(MAX_AGGREGATE_DESTINATIONS)
    const tooMany = names.slice(0, MAX_AGGREGATE_DESTINATIONS + 1).join(',')
    expectClientError(await api.free('flights.aggregate', { destinations: tooMany }), 400, 'destinations')
    // exactly the maximum is still served
    expect(
      (await api.data('flights.aggregate', { destinations: names.slice(0, MAX_AGGREGATE_DESTINATIONS).join(',') })).destinations,
    ).toHaveLength(MAX_AGGREGATE_DESTINATIONS)
  })

  test('one unknown destination in the list is a free 404 naming it', async () => {
    const a = await api.free('flights.aggregate', { destinations: 'Tokyo,Atlantis,Seoul' })
    expectClientError(a, 404, 'destinations')
    expect(a.body.error.details.value).toBe('Atlantis')
    expect(a.body.error.message).toContain('Atlantis')
  })
})

describeAnswerCache(['flights.summary', { destination: 'Osaka', month: '2024-05' }], {
  title: 'the same destination by IATA code is the same answer, served from the cache',
  id: 'flights.top_routes',
  name: { destination: 'Bangkok', month: '2025-01' },
  code: { destination: 'bkk', month: '2025-01' },
})
