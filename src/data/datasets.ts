import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { FLIGHTS, SPEND, type DatasetContract } from './contracts'
import type { DuckDb } from './duckdb'

/** manifest.json entry of one dataset, as written by the generator (and, later, by `data import`). */
export interface ManifestEntry {
  file: string
  schema_version: number
  rows: number
  period: { from: string; to: string }
  sha256: string
  version: string
}

export interface Manifest {
  sample: boolean
  note?: string
  datasets: Record<string, ManifestEntry>
}

/** One loaded dataset version: where it is, what it covers, and the SQL relation that reads it. */
export interface LoadedDataset {
  contract: DatasetContract
  entry: ManifestEntry
  /** SQL relation over the Parquet file; an identifier we generate, never user input. */
  relation: string
  sample: boolean
  notice: string
  months: string[]
}

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
  destinations: Map<string, Place>
  countries: Map<string, { name: string; code: string }>
  /** `<destination>|<month>` and `<country>|<month>` pairs that have rows, for checks before payment. */
  flightMonths: Set<string>
  spendMonths: Set<string>
}

export class DatasetUnavailableError extends Error {}

const SAMPLE_NOTICE = 'Generated, deterministic sample data with real place names; the figures are not real observations.'

const quote = (s: string) => `'${s.replaceAll("'", "''")}'`

export function readManifest(dir: string): Manifest {
  const path = join(dir, 'manifest.json')
  if (!existsSync(path)) throw new DatasetUnavailableError(`no manifest.json in ${dir}`)
  return JSON.parse(readFileSync(path, 'utf8')) as Manifest
}

export async function loadDataset(db: DuckDb, dir: string, manifest: Manifest, contract: DatasetContract): Promise<LoadedDataset> {
  const entry = manifest.datasets[contract.name]
  if (!entry) throw new DatasetUnavailableError(`manifest.json lists no "${contract.name}" dataset`)
  const file = join(dir, entry.file)
  if (!existsSync(file)) throw new DatasetUnavailableError(`${file} is missing`)
  const relation = `${contract.name}_${entry.version.replace(/[^A-Za-z0-9_]/g, '_')}`
  await db.exec(`CREATE OR REPLACE VIEW ${relation} AS SELECT * FROM read_parquet(${quote(file)})`)
  const months = (await db.all<{ month: string }>(`SELECT DISTINCT month FROM ${relation} ORDER BY month`)).map((r) => r.month)
  return { contract, entry, relation, sample: manifest.sample, notice: manifest.sample ? SAMPLE_NOTICE : (manifest.note ?? ''), months }
}

/** Loads flights and spend from a datasets folder and indexes their names for lookups before payment. */
export async function loadMarketSnapshot(db: DuckDb, dir: string): Promise<MarketSnapshot> {
  const manifest = readManifest(dir)
  const [flights, spend] = await Promise.all([loadDataset(db, dir, manifest, FLIGHTS), loadDataset(db, dir, manifest, SPEND)])

  const destinations = new Map<string, Place>()
  const places = await db.all<{ destination: string; destination_code: string; destination_country: string; destination_country_code: string }>(
    `SELECT DISTINCT destination, destination_code, destination_country, destination_country_code FROM ${flights.relation}`,
  )
  for (const p of places) {
    const place = { name: p.destination, code: p.destination_code, country: p.destination_country, countryCode: p.destination_country_code }
    destinations.set(p.destination.toLowerCase(), place)
    destinations.set(p.destination_code.toLowerCase(), place)
  }
  const countries = new Map<string, { name: string; code: string }>()
  for (const c of await db.all<{ country: string; country_code: string }>(`SELECT DISTINCT country, country_code FROM ${spend.relation}`)) {
    const country = { name: c.country, code: c.country_code }
    countries.set(c.country.toLowerCase(), country)
    countries.set(c.country_code.toLowerCase(), country)
  }
  const pairs = async (sql: string) => new Set((await db.all<{ k: string }>(sql)).map((r) => r.k))
  const flightMonths = await pairs(`SELECT DISTINCT destination || '|' || month AS k FROM ${flights.relation}`)
  const spendMonths = await pairs(`SELECT DISTINCT country || '|' || month AS k FROM ${spend.relation}`)
  return { flights, spend, destinations, countries, flightMonths, spendMonths }
}

/** The data-quality block every dataset answer carries. */
export function dataQuality(d: LoadedDataset) {
  return {
    sample: d.sample,
    notice: d.notice,
    dataset: d.contract.name,
    dataset_version: d.entry.version,
    schema_version: d.entry.schema_version,
    source_period: { from: d.months[0] ?? d.entry.period.from, to: d.months.at(-1) ?? d.entry.period.to },
  }
}
