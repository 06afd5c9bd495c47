import { COUNTRY_ALIASES, DESTINATION_ALIASES, placeKey } from './aliases'
import type { DuckDb } from './duckdb'
import type { LoadedDataset } from './import/datasets'
import { aggregateTotals, type MarketTotals } from './market-totals'

export interface Place {
  name: string
  code: string
  country: string
  countryCode: string
}

/** Everything the market-data routes read, frozen at one version of each dataset. */
export interface MarketSnapshot {
  flights: LoadedDataset
  spend: LoadedDataset
  /** Every accepted spelling (placeKey) -> place; see src/data/aliases.ts. */
  destinations: Map<string, Place>
  countries: Map<string, { name: string; code: string }>
  /** Months with rows per destination and per country, for checks before payment (no string built per request). */
  flightMonths: Map<string, Set<string>>
  spendMonths: Map<string, Set<string>>
  /** Monthly totals per destination and per country, aggregated at load. */
  totals: MarketTotals
}

const monthsOf = (totals: Map<string, { month: string }[]>) =>
  new Map([...totals].map(([k, rows]) => [k, new Set(rows.map((r) => r.month))]))

/** Indexes the names of flights and spend, with their aliases, for lookups before payment, and aggregates their monthly totals. */
export async function indexMarket(db: DuckDb, flights: LoadedDataset, spend: LoadedDataset): Promise<MarketSnapshot> {
  const [places, spendCountries, totals] = await Promise.all([
    db.all<{ destination: string; destination_code: string; destination_country: string; destination_country_code: string }>(
      `SELECT DISTINCT destination, destination_code, destination_country, destination_country_code FROM ${flights.relation}`,
    ),
    db.all<{ country: string; country_code: string }>(`SELECT DISTINCT country, country_code FROM ${spend.relation}`),
    aggregateTotals(db, flights, spend),
  ])
  const destinations = new Map<string, Place>()
  for (const p of places) {
    const place = { name: p.destination, code: p.destination_code, country: p.destination_country, countryCode: p.destination_country_code }
    for (const name of [p.destination, p.destination_code, ...(DESTINATION_ALIASES.get(p.destination_code) ?? [])])
      destinations.set(placeKey(name), place)
  }
  const countries = new Map<string, { name: string; code: string }>()
  for (const c of spendCountries) {
    const country = { name: c.country, code: c.country_code }
    for (const name of [c.country, c.country_code, ...(COUNTRY_ALIASES.get(c.country_code) ?? [])]) countries.set(placeKey(name), country)
  }
  return {
    flights,
    spend,
    destinations,
    countries,
    flightMonths: monthsOf(totals.destinations),
    spendMonths: monthsOf(totals.countries),
    totals,
  }
}
