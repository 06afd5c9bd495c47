/**
 * A larger copy of the market datasets, for benchmarks: the flights and spend files of `from` with
 * `factor` times the rows, imported into `dir` (a copy of `from`) as `data import --replace --sample`
 * would, so the files are validated against their contracts and written as every version file is.
 *
 * The extra rows are more origin (and card-issuing) cities: each city is joined by factor - 1 smaller
 * ones, the k-th sized 1/k of it (city sizes follow Zipf's law), named "<city> <k>" with fresh IATA-shaped
 * codes. The sample's 48 origin cities and 24 card-issuing cities are a fraction of China's (~250 civil
 * airports, ~300 prefecture cities), so a fuller panel grows this way: same destinations, countries and
 * months, ten times the rows behind each of them.
 */
import { cpSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { FLIGHTS, SPEND } from '../../src/data/contracts'
import { readManifest } from '../../src/data/import/datasets'
import { sqlString } from '../../src/data/sql'
import { DuckDb } from '../../src/data/duckdb'
import { importDataset } from '../../src/data/import/refresh'

/** The k-th copy (k = 1 is the original) of the rows, figures scaled by 1/k. */
const copies = (factor: number) => `(SELECT range + 1 AS k FROM range(${factor}))`
const scaled = (column: string, digits?: number) =>
  digits === undefined ? `CAST(round(${column} / k) AS INTEGER)` : `round(${column} / k, ${digits})`
const named = (column: string) => `CASE WHEN k = 1 THEN ${column} ELSE ${column} || ' ' || k END`

export async function scaleMarket(from: string, dir: string, factor: number): Promise<void> {
  cpSync(from, dir, { recursive: true })
  const manifest = readManifest(from)
  const file = (name: string) => sqlString(join(from, manifest.datasets[name]!.file))
  const db = await DuckDb.open()
  try {
    // Fresh codes: three-letter strings no original origin uses, dealt out in order (a table, not a
    // temporary one: the pool's next statement may run on another connection).
    await db.exec(`
      CREATE TABLE codes AS
        WITH cities AS (SELECT origin_code, row_number() OVER (ORDER BY origin_code) - 1 AS i
                          FROM (SELECT DISTINCT origin_code FROM read_parquet(${file(FLIGHTS.name)}))),
             letters AS (SELECT chr(65 + range::INTEGER) AS c FROM range(26)),
             free AS (SELECT code, row_number() OVER (ORDER BY code) AS n
                        FROM (SELECT a.c || b.c || c.c AS code FROM letters a, letters b, letters c)
                       WHERE code NOT IN (SELECT origin_code FROM cities))
        SELECT cities.origin_code, k, CASE WHEN k = 1 THEN cities.origin_code ELSE free.code END AS code
          FROM cities CROSS JOIN ${copies(factor)} LEFT JOIN free ON free.n = cities.i * ${factor} + k`)
    const flights = join(dir, `.scaled-${FLIGHTS.file}`)
    await db.exec(`
      COPY (SELECT month, destination, destination_code, destination_country, destination_country_code,
                   ${named('origin_city')} AS origin_city, codes.code AS origin_code,
                   ${scaled('scheduled_flights')} AS scheduled_flights, ${scaled('seats')} AS seats,
                   ${scaled('estimated_passengers')} AS estimated_passengers
              FROM read_parquet(${file(FLIGHTS.name)}) f JOIN codes USING (origin_code))
        TO ${sqlString(flights)} (FORMAT parquet)`)
    const spend = join(dir, `.scaled-${SPEND.file}`)
    await db.exec(`
      COPY (SELECT month, country, country_code, ${named('source_city')} AS source_city, ${scaled('total_cards')} AS total_cards,
                   ${scaled('luxury_spend_cny', 2)} AS luxury_spend_cny, ${scaled('accommodation_spend_cny', 2)} AS accommodation_spend_cny,
                   ${scaled('dining_spend_cny', 2)} AS dining_spend_cny, ${scaled('retail_spend_cny', 2)} AS retail_spend_cny
              FROM read_parquet(${file(SPEND.name)}), ${copies(factor)})
        TO ${sqlString(spend)} (FORMAT parquet)`)
    for (const [path, contract] of [
      [flights, FLIGHTS],
      [spend, SPEND],
    ] as const) {
      await importDataset(db, dir, path, contract, { replace: true, sample: true })
      rmSync(path)
    }
  } finally {
    db.close()
  }
}
