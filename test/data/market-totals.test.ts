/**
 * The monthly totals aggregated at load replace a query per destination, per country and per cluster.
 * Every answer built from them must stay exactly what those queries gave: here each entity's totals are
 * compared, to the last bit of every double, with the per-entity SQL the routes ran before, on the same
 * dataset version.
 */
import { resolve } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { DuckDb } from '../../src/data/duckdb'
import type { MarketSnapshot } from '../../src/data/market-snapshot'
import { clusterPassengers } from '../../src/data/market-totals'
import { DatasetStore, type ClosableIndex } from '../../src/data/store'
import { datasetIndexers } from '../../src/composition/runtime'

let db: DuckDb
let store: DatasetStore<unknown, ClosableIndex>
let snap: MarketSnapshot

beforeAll(async () => {
  db = await DuckDb.open(2)
  store = await DatasetStore.open(db, resolve(import.meta.dir, '../../datasets'), datasetIndexers())
  snap = store.current().market
})
afterAll(() => {
  store?.close()
  db?.close()
})

const names = (m: Map<string, { name: string }>) => [...new Set([...m.values()].map((p) => p.name))].sort()

test('every destination and every country has totals, and their months are the months checked before payment', () => {
  expect([...snap.totals.destinations.keys()].sort()).toEqual(names(snap.destinations))
  expect([...snap.totals.countries.keys()].sort()).toEqual(names(snap.countries))
  for (const [d, rows] of snap.totals.destinations) expect(new Set(rows.map((r) => r.month))).toEqual(snap.flightMonths.get(d)!)
  for (const [c, rows] of snap.totals.countries) expect(new Set(rows.map((r) => r.month))).toEqual(snap.spendMonths.get(c)!)
})

/**
 * Each entity's totals against `query` run for that entity alone ($1), which must find rows.
 * toEqual compares numbers with Object.is: a sum added in another order would differ here.
 */
async function expectTotalsOfEachEqual(totals: Map<string, unknown>, entities: string[], query: string) {
  for (const entity of entities) {
    const queried = await db.all(query, [entity])
    expect(queried.length).toBeGreaterThan(0)
    expect(totals.get(entity)).toEqual(queried)
  }
}

test("each destination's monthly totals equal its own query", async () => {
  await expectTotalsOfEachEqual(
    snap.totals.destinations,
    names(snap.destinations),
    `SELECT month, SUM(scheduled_flights)::INTEGER AS flights, SUM(seats)::INTEGER AS seats,
            SUM(estimated_passengers)::INTEGER AS passengers
       FROM ${snap.flights.relation} WHERE destination = $1 GROUP BY month ORDER BY month`,
  )
})

test("each country's monthly totals equal its own query, doubles to the last bit", async () => {
  await expectTotalsOfEachEqual(
    snap.totals.countries,
    names(snap.countries),
    `SELECT month, SUM(total_cards)::INTEGER AS cards, SUM(luxury_spend_cny)::DOUBLE AS luxury,
            SUM(accommodation_spend_cny)::DOUBLE AS accommodation, SUM(dining_spend_cny)::DOUBLE AS dining,
            SUM(retail_spend_cny)::DOUBLE AS retail
       FROM ${snap.spend.relation} WHERE country = $1 GROUP BY month ORDER BY month`,
  )
})

test("a cluster's monthly passengers equal the aggregate route's query, up to the asked month", async () => {
  const all = names(snap.destinations)
  const clusters = [['Tokyo', 'Osaka', 'Seoul'], ['Paris'], all.slice(0, 10), all.slice(-7), all.filter((_, i) => i % 9 === 4)]
  for (const members of clusters) {
    for (const month of [snap.flights.periods.at(-1)!, '2024-05', snap.flights.periods[0]!]) {
      const list = members.map((_, i) => `$${i + 2}`).join(', ')
      const queried = await db.all(
        `SELECT month, SUM(estimated_passengers)::INTEGER AS value FROM ${snap.flights.relation}
          WHERE month <= $1 AND destination IN (${list}) GROUP BY month ORDER BY month`,
        [month, ...members],
      )
      expect(queried.length).toBeGreaterThan(0)
      expect(clusterPassengers(snap.totals, members, month)).toEqual(queried as never)
    }
  }
})
