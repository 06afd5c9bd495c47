import type { DuckDb } from './duckdb'
import type { LoadedDataset } from './import/datasets'

/** One destination's flights in one month, summed over its origin cities. */
export interface DestinationMonth {
  month: string
  flights: number
  seats: number
  passengers: number
}

/** One country's card spend in one month, summed over its source cities. */
export interface CountryMonth {
  month: string
  cards: number
  luxury: number
  accommodation: number
  dining: number
  retail: number
}

/**
 * Monthly totals of every destination and every country, aggregated once per dataset version at load
 * and held in memory (entities x months: a few thousand rows, whatever the number of origin cities).
 * A query per entity scanned every month of the file, so the first answer for a place grew with the
 * data (~3x slower at 10x the rows); these are the same sums, grouped the same way.
 */
export interface MarketTotals {
  /** Per destination, oldest month first. */
  destinations: Map<string, DestinationMonth[]>
  /** Per country, oldest month first. */
  countries: Map<string, CountryMonth[]>
}

function byEntity<T extends { entity: string }>(rows: T[]): Map<string, Omit<T, 'entity'>[]> {
  const out = new Map<string, Omit<T, 'entity'>[]>()
  for (const { entity, ...row } of rows) {
    let list = out.get(entity)
    if (!list) out.set(entity, (list = []))
    list.push(row)
  }
  return out
}

export async function aggregateTotals(db: DuckDb, flights: LoadedDataset, spend: LoadedDataset): Promise<MarketTotals> {
  const [destinations, countries] = await Promise.all([
    db.all<DestinationMonth & { entity: string }>(
      `SELECT destination AS entity, month, SUM(scheduled_flights)::INTEGER AS flights, SUM(seats)::INTEGER AS seats,
              SUM(estimated_passengers)::INTEGER AS passengers
         FROM ${flights.relation} GROUP BY destination, month ORDER BY destination, month`,
    ),
    db.all<CountryMonth & { entity: string }>(
      `SELECT country AS entity, month, SUM(total_cards)::INTEGER AS cards, SUM(luxury_spend_cny)::DOUBLE AS luxury,
              SUM(accommodation_spend_cny)::DOUBLE AS accommodation, SUM(dining_spend_cny)::DOUBLE AS dining,
              SUM(retail_spend_cny)::DOUBLE AS retail
         FROM ${spend.relation} GROUP BY country, month ORDER BY country, month`,
    ),
  ])
  return { destinations: byEntity(destinations), countries: byEntity(countries) }
}

/** Passengers per month of several destinations together, up to `month`, oldest first. */
export function clusterPassengers(totals: MarketTotals, members: readonly string[], month: string): { month: string; value: number }[] {
  const sums = new Map<string, number>()
  for (const m of members) {
    for (const r of totals.destinations.get(m) ?? []) if (r.month <= month) sums.set(r.month, (sums.get(r.month) ?? 0) + r.passengers)
  }
  return [...sums].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([m, value]) => ({ month: m, value }))
}
