import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { DatasetContract } from '../contracts'
import type { DuckDb } from '../duckdb'
import { sqlString } from '../sql'

/** How a delivery was read: a Parquet file, or CSV (gzipped or not). */
export type DeliveryFormat = 'parquet' | 'csv' | 'csv.gz'

/**
 * What a dataset version was built from (`built_from` in manifest.json). Periods are months, or
 * week_start dates for the weekly datasets. Entries written before provenance was recorded have none.
 */
export interface BuiltFrom {
  /** merge: the delivery's periods merged into `base`; replace: the delivery is the whole dataset. */
  mode: 'merge' | 'replace' | 'generated'
  /** Base name of the delivered file. */
  file?: string
  format?: DeliveryFormat
  /** Of the delivered bytes (the version's own sha256 is that of the Parquet file written from them). */
  sha256?: string
  /** Rows delivered. */
  rows?: number
  /** Version merged onto. Only a record: each version file holds all its rows, so the base may be pruned. */
  base?: string
  /** Periods the previous version lacked. */
  added?: string[]
  /** Periods whose rows the delivery replaced. */
  replaced?: string[]
  /** replace only: periods of the previous version the new one no longer has. */
  removed?: string[]
}

/** manifest.json entry of one dataset version, as written by the generator and by `data import`. */
export interface ManifestEntry {
  file: string
  schema_version: number
  rows: number
  /** First and last period covered: months (YYYY-MM) or days (first week_start, last week_end). */
  period: { from: string; to: string }
  sha256: string
  /** `<dataset>-<first 12 hex of sha256>`: content-addressed, so the same file is always the same version. */
  version: string
  /** Set by `data import`; absent on the generated sample. */
  imported_at?: string
  /** Whether this version is generated sample data; the manifest's `sample` when absent. */
  sample?: boolean
  /** Caveat shown in data_quality for non-sample data (`data import --notice`). */
  notice?: string
  /** Set by `data import`: the delivery and base the version was built from. */
  built_from?: BuiltFrom
  /** An instance's copy of a publication: the dataset's search index installed beside its file (publication.ts PUBLISHED_INDEX). */
  index?: { file: string; sha256: string }
}

export interface Manifest {
  sample: boolean
  note?: string
  generated_by?: string
  datasets: Record<string, ManifestEntry>
  /** Earlier versions per dataset, newest first, kept for `data rollback`. */
  history?: Record<string, ManifestEntry[]>
  /** An instance's verified copy of a publication (DATA_SOURCE_URL, follow.ts): which one it holds. */
  publication?: FollowedPublication
}

export interface FollowedPublication {
  /** The publication's URL, without credentials. */
  source: string
  sequence: number
  published_at: string
  key_id: string
  /** Of the signed document's bytes: another document under the same sequence is a replay. */
  payload_sha256: string
  /** When this instance verified and installed it. */
  installed_at: string
}

/** One loaded dataset version: where it is, what it covers, and the SQL relation that reads it. */
export interface LoadedDataset {
  contract: DatasetContract
  entry: ManifestEntry
  /** SQL view over the Parquet file, named after the version; an identifier we generate, never user input. */
  relation: string
  /** The Parquet file, absolute. */
  file: string
  sample: boolean
  notice: string
  /** Distinct values of the period column, oldest first: months, or week starts. */
  periods: string[]
  sourcePeriod: { from: string; to: string }
}

export class DatasetUnavailableError extends Error {}

const SAMPLE_NOTICE =
  'Generated, deterministic sample data (real place names, invented brands and creators); the figures are not real observations.'
const IMPORTED_NOTICE = 'Figures as delivered by the data team for this dataset version.'

export const isSample = (manifest: Manifest, entry: ManifestEntry) => entry.sample ?? manifest.sample

export function readManifest(dir: string): Manifest {
  const path = join(dir, 'manifest.json')
  if (!existsSync(path)) throw new DatasetUnavailableError(`no manifest.json in ${dir}`)
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Manifest
  } catch (error) {
    throw new DatasetUnavailableError(`${path} is not valid JSON: ${(error as Error).message}`)
  }
}

const addDays = (isoDate: string, days: number) =>
  new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

/**
 * Creates the version's view and reads its periods. The view casts every contract column to its
 * declared type, so a file written with wider integer types still answers with plain numbers.
 */
export async function loadDataset(db: DuckDb, dir: string, manifest: Manifest, contract: DatasetContract): Promise<LoadedDataset> {
  const entry = manifest.datasets[contract.name]
  if (!entry) throw new DatasetUnavailableError(`manifest.json lists no "${contract.name}" dataset`)
  const file = join(dir, entry.file)
  if (!existsSync(file)) throw new DatasetUnavailableError(`${file} is missing`)
  const relation = `${contract.name}_${entry.version.replace(/[^A-Za-z0-9_]/g, '_')}`
  const columns = contract.columns.map((c) => `CAST(${c.name} AS ${c.type}) AS ${c.name}`).join(', ')
  const axis = contract.period.column
  let periods: string[]
  try {
    await db.exec(`CREATE OR REPLACE VIEW ${relation} AS SELECT ${columns} FROM read_parquet(${sqlString(file)})`)
    periods = (await db.all<{ p: string }>(`SELECT DISTINCT ${axis} AS p FROM ${relation} ORDER BY p`)).map((r) => r.p)
  } catch (error) {
    // Not Parquet, or not this dataset's columns: `data validate` names every defect.
    throw new DatasetUnavailableError(
      `${file} cannot be read as the ${contract.name} dataset (${(error as Error).message.split('\n')[0]}); run \`data validate\` on it`,
    )
  }
  const first = periods[0] ?? entry.period.from
  const last = periods.at(-1) ?? entry.period.to
  const sourcePeriod = contract.period.kind === 'week' ? { from: first, to: addDays(last, 6) } : { from: first, to: last }
  const sample = isSample(manifest, entry)
  return {
    contract,
    entry,
    relation,
    file,
    sample,
    notice: sample ? SAMPLE_NOTICE : (entry.notice ?? IMPORTED_NOTICE),
    periods,
    sourcePeriod,
  }
}

/** The data-quality block every dataset answer carries. */
export function dataQuality(dataset: LoadedDataset) {
  return {
    sample: dataset.sample,
    notice: dataset.notice,
    dataset: dataset.contract.name,
    dataset_version: dataset.entry.version,
    schema_version: dataset.entry.schema_version,
    source_period: dataset.sourcePeriod,
  }
}
