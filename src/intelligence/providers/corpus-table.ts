/**
 * The sample corpus's search table: the evidence file as an in-memory DuckDB table, every post of it or,
 * past CORPUS_MAX_ROWS, a stratified sample whose posts carry the weight of the posts they stand for.
 */
import type { LoadedDataset } from '../../data/datasets'
import type { DuckDb } from '../../data/duckdb'
import { sqlString } from '../../data/sql'

/** What the search table holds of a corpus: every post, or an evenly drawn sample (CORPUS_MAX_ROWS). */
export interface CorpusKept {
  /** Posts in the corpus file. */
  rows: number
  /** Posts in the search table. */
  kept: number
  /** One post in `oneIn` is kept (1: every post). */
  oneIn: number
}

/**
 * A sample's strata, each of whose posts' total the weights keep exact: a platform group's week, and
 * within it each creator's own posts (KOL scores read a creator's posts; without a stratum of their own,
 * one in k of them would be all a creator has). Creators are dropped from the strata when there are too
 * many of them for `maxRows` (a long tail of authors), then only the group's week is kept exact.
 */
const stratum = (byCreator: boolean) =>
  // One 64-bit hash to partition by: a window over 18.8M rows sorts 1.6 times faster than by the five columns.
  `hash(platform, retrieval, about_platform, ${byCreator ? "CASE WHEN retrieval = 'native' THEN author ELSE '' END" : "''"}, date_trunc('week', published_at::TIMESTAMP))`

/** The smallest k for which one post in k of every stratum (at least its first) is at most `maxRows` posts; null when no k is. */
function oneInFor(sizes: readonly number[], maxRows: number): number | null {
  if (sizes.length > maxRows) return null
  const kept = (k: number) => sizes.reduce((sum, n) => sum + Math.ceil(n / k), 0)
  let [low, high] = [1, Math.max(1, ...sizes)]
  while (low < high) {
    const mid = Math.floor((low + high) / 2)
    if (kept(mid) <= maxRows) high = mid
    else low = mid + 1
  }
  return low
}

/**
 * The corpus as an in-memory table, built once per corpus version (a search of the Parquet file itself
 * took twice as long, decoding every query). A corpus of more than `maxRows` posts is kept as a
 * stratified systematic sample: in each stratum, its first post and then one in k in file (publication)
 * order, each weighted by the stratum's posts over those kept of it, so that every stratum keeps its
 * exact total and none is lost. Memory and every read then stay those of `maxRows` posts however large
 * the corpus: 18.8M posts kept whole took 205 s to index and 6 GB (BENCHMARKS.md).
 */
export async function searchTable(db: DuckDb, dataset: LoadedDataset, maxRows: number): Promise<{ table: string; kept: CorpusKept }> {
  const table = `${dataset.relation}_search`
  const [{ n }] = (await db.all<{ n: number }>(`SELECT count(*)::DOUBLE AS n FROM ${dataset.relation}`)) as [{ n: number }]
  if (n <= maxRows) {
    // No ORDER BY: the file is written in publication order (the contract's sortBy) and the scan keeps it.
    await db.exec(`CREATE OR REPLACE TABLE ${table} AS SELECT *, 1::DOUBLE AS weight FROM ${dataset.relation}`)
    return { table, kept: { rows: n, kept: n, oneIn: 1 } }
  }
  const sizesOf = async (byCreator: boolean) =>
    (await db.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${dataset.relation} GROUP BY ${stratum(byCreator)}`)).map((r) => r.n)
  let byCreator = true
  let oneIn = oneInFor(await sizesOf(true), maxRows)
  // More platform weeks than maxRows (a tiny CORPUS_MAX_ROWS over years): each still keeps its first post.
  if (oneIn === null) [byCreator, oneIn] = [false, oneInFor(await sizesOf(false), maxRows) ?? Math.ceil(n / maxRows)]
  const file = `read_parquet(${sqlString(dataset.file)}, file_row_number = true)`
  const columns = dataset.contract.columns.map((c) => `CAST(${c.name} AS ${c.type}) AS ${c.name}`).join(', ')
  // Which rows, from the few columns the strata need; then only those rows are read whole.
  await db.exec(`CREATE OR REPLACE TEMP TABLE ${table}_kept AS
      SELECT file_row_number AS r, count(*) OVER stratum AS posts, row_number() OVER (stratum ORDER BY file_row_number) AS k
      FROM ${file} WINDOW stratum AS (PARTITION BY ${stratum(byCreator)}) QUALIFY (k - 1) % ${oneIn} = 0;
    CREATE OR REPLACE TABLE ${table} AS
      SELECT ${columns}, (kept.posts / ceil(kept.posts / ${oneIn}))::DOUBLE AS weight
      FROM ${file} JOIN ${table}_kept kept ON kept.r = file_row_number ORDER BY file_row_number;
    DROP TABLE ${table}_kept`)
  const [{ kept }] = (await db.all<{ kept: number }>(`SELECT count(*)::DOUBLE AS kept FROM ${table}`)) as [{ kept: number }]
  return { table, kept: { rows: n, kept, oneIn } }
}
