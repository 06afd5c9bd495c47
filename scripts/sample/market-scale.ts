/**
 * The market datasets at a larger scale (generate-sample-data.ts --scale N): ten years of months
 * (TEN_YEARS_FROM..END_MONTH) and a panel of `cities` times the origin and card-issuing cities.
 *
 * The contracts keep a month grain (flights: one row per month, destination and origin city; spend: per
 * month, country and source city), so "daily-grain" volume cannot be days: it is the same number of rows
 * a month as a day grain would give, reached through a finer panel. Each city of the model is joined by
 * `cities - 1` smaller ones, the k-th named "<city> <k>" (with a fresh IATA-shaped code for flights), and
 * the model's figures of each row are shared among them by Zipf's law (k-th: 1/k of the first), so a
 * destination's or a country's totals stay those of the model (up to rounding): the same market, counted
 * at a finer grain. The sample's 48 origin cities are a fraction of China's ~250 civil airports, and its
 * 25 card-issuing cities of its ~300 prefecture cities. At --scale 100 the default is 30 cities (about
 * the rows a day grain would give); below, `scale` cities.
 */
import type { DuckDBConnection } from '@duckdb/node-api'
import type { Expand } from './parquet'

/** Cities each model city becomes at a scale (30 at most: a month of days). */
export const defaultCities = (scale: number) => Math.min(30, Math.max(1, Math.round(scale)))

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'

/** Every three-letter code, A..Z order, except `taken`. */
function freeCodes(taken: ReadonlySet<string>): string[] {
  const codes: string[] = []
  for (const a of LETTERS) for (const b of LETTERS) for (const c of LETTERS) if (!taken.has(a + b + c)) codes.push(a + b + c)
  return codes
}

/** Zipf shares of `cities` cities: the k-th (1-based) gets (1/k) / H(cities). */
const zipfShares = (cities: number) => {
  const weights = Array.from({ length: cities }, (_, i) => 1 / (i + 1))
  const total = weights.reduce((sum, w) => sum + w, 0)
  return weights.map((w) => w / total)
}

const sqlString = (text: string): string => `'${text.replaceAll("'", "''")}'`

/**
 * A table `<name>(city, k, split_city, split_code, share)`: each city of `cities` (with its code, when
 * it has one) as `count` cities. New codes are dealt from the free three-letter codes in order of the
 * original code, so the same inputs always give the same codes.
 */
async function splitTable(
  conn: DuckDBConnection,
  name: string,
  cities: readonly { city: string; code: string }[],
  count: number,
  taken: ReadonlySet<string>,
): Promise<void> {
  const free = freeCodes(taken)
  if (free.length < cities.length * (count - 1)) throw new Error(`not enough free codes for ${cities.length} x ${count} cities`)
  const shares = zipfShares(count)
  const sorted = [...cities].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : a.city < b.city ? -1 : 1))
  const values = sorted.flatMap(({ city, code }, cityIndex) =>
    shares.map((share, j) => {
      const k = j + 1
      const splitCode = k === 1 ? code : free[cityIndex * (count - 1) + j - 1]!
      return `(${sqlString(city)}, ${k}, ${sqlString(k === 1 ? city : `${city} ${k}`)}, ${sqlString(splitCode)}, ${share})`
    }),
  )
  await conn.run(`CREATE OR REPLACE TABLE ${name} (city VARCHAR, k INTEGER, split_city VARCHAR, split_code VARCHAR, share DOUBLE)`)
  await conn.run(`INSERT INTO ${name} VALUES ${values.join(', ')}`)
}

const share = (column: string) => `CAST(round(${column} * s.share) AS INTEGER) AS ${column}`
const shareAmount = (column: string) => `round(${column} * s.share, 2) AS ${column}`

async function distinct(conn: DuckDBConnection, sql: string): Promise<{ city: string; code: string }[]> {
  return (await conn.runAndReadAll(sql)).getRowObjectsJS() as { city: string; code: string }[]
}

/** Flights: every origin city as `cities` cities, its flights, seats and passengers shared among them. */
export function expandFlights(cities: number): Expand {
  return async (conn, table) => {
    const origins = await distinct(conn, `SELECT DISTINCT origin_city AS city, origin_code AS code FROM ${table}`)
    await splitTable(conn, 'origin_split', origins, cities, new Set(origins.map((o) => o.code)))
    // Rounding is monotonic, so a route's passengers never exceed its seats.
    return `SELECT month, destination, destination_code, destination_country, destination_country_code,
                   s.split_city AS origin_city, s.split_code AS origin_code,
                   ${share('scheduled_flights')}, ${share('seats')}, ${share('estimated_passengers')}
              FROM ${table} f JOIN origin_split s ON s.city = f.origin_city`
  }
}

/** Spend: every card-issuing city as `cities` cities, its cards and spend shared among them. */
export function expandSpend(cities: number): Expand {
  return async (conn, table) => {
    const sources = await distinct(conn, `SELECT DISTINCT source_city AS city, source_city AS code FROM ${table}`)
    await splitTable(conn, 'source_split', sources, cities, new Set())
    return `SELECT month, country, country_code, s.split_city AS source_city, ${share('total_cards')},
                   ${shareAmount('luxury_spend_cny')}, ${shareAmount('accommodation_spend_cny')},
                   ${shareAmount('dining_spend_cny')}, ${shareAmount('retail_spend_cny')}
              FROM ${table} t JOIN source_split s ON s.city = t.source_city`
  }
}
