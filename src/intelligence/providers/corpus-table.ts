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
 * one in k of them would be all a creator has). One 64-bit hash per stratum, the key of its table.
 */
const stratum = (byCreator: boolean) =>
  `hash(platform, retrieval, about_platform, ${byCreator ? "CASE WHEN retrieval = 'native' THEN author ELSE '' END" : "''"}, date_trunc('week', published_at::TIMESTAMP))`

/** Creators are strata of their own while their weeks take at most this share of CORPUS_MAX_ROWS (each keeps its first post). */
const CREATOR_STRATA_SHARE = 0.5
/** The expected sample aims this far below `maxRows`: which posts are kept varies around it by about its square root. */
const HEADROOM = 0.99

/**
 * The corpus as an in-memory table, built once per corpus version (a search of the Parquet file itself
 * took twice as long, decoding every query). A corpus of more than `maxRows` posts is kept as a
 * stratified sample: of each stratum its first post, and each later post whose place in the file (in
 * publication order) is a multiple of k from it, about one in k; each post kept weighs its stratum's
 * posts over those kept of it, so every stratum keeps its exact total and none is lost. Two passes over
 * the file: the strata (few columns), then the posts kept. Memory and every read then stay those of
 * `maxRows` posts however large the corpus: 18.8M posts kept whole took 205 s to index and 6 GB.
 */
export async function searchTable(db: DuckDb, dataset: LoadedDataset, maxRows: number): Promise<{ table: string; kept: CorpusKept }> {
  const table = `${dataset.relation}_search`
  const [{ n }] = (await db.all<{ n: number }>(`SELECT count(*)::DOUBLE AS n FROM ${dataset.relation}`)) as [{ n: number }]
  if (n <= maxRows) {
    // No ORDER BY: the file is written in publication order (the contract's sortBy) and the scan keeps it.
    await db.exec(`CREATE OR REPLACE TABLE ${table} AS SELECT *, 1::DOUBLE AS weight FROM ${dataset.relation}`)
    return { table, kept: { rows: n, kept: n, oneIn: 1 } }
  }
  const file = `read_parquet(${sqlString(dataset.file)}, file_row_number = true)`
  const strata = `${table}_strata`
  const strataOf = async (byCreator: boolean) => {
    await db.exec(`CREATE OR REPLACE TEMP TABLE ${strata} AS
      SELECT ${stratum(byCreator)} AS s, count(*)::DOUBLE AS posts, min(file_row_number) AS first FROM ${file} GROUP BY 1`)
    const [{ count }] = (await db.all<{ count: number }>(`SELECT count(*)::DOUBLE AS count FROM ${strata}`)) as [{ count: number }]
    return count
  }
  let byCreator = true
  let count = await strataOf(true)
  if (count > maxRows * CREATOR_STRATA_SHARE) [byCreator, count] = [false, await strataOf(false)]
  // Expected posts kept: every stratum's first, and about one in k of the rest. With more platform weeks
  // than that allows (a tiny CORPUS_MAX_ROWS over years), each still keeps its first.
  const room = maxRows * HEADROOM - count
  const oneIn = room > 0 ? Math.max(2, Math.ceil((n - count) / room)) : Math.ceil(n / maxRows)
  const columns = dataset.contract.columns.map((c) => `CAST(d.${c.name} AS ${c.type}) AS ${c.name}`).join(', ')
  await db.exec(`CREATE OR REPLACE TEMP TABLE ${table}_drawn AS
      SELECT ${columns}, d.file_row_number AS r, st.s, st.posts
      FROM (SELECT *, ${stratum(byCreator)} AS s FROM ${file}) d JOIN ${strata} st ON st.s = d.s
      WHERE (d.file_row_number - st.first) % ${oneIn} = 0;
    CREATE OR REPLACE TABLE ${table} AS
      SELECT * EXCLUDE (r, s, posts), posts / count(*) OVER (PARTITION BY s) AS weight FROM ${table}_drawn ORDER BY r;
    DROP TABLE ${table}_drawn; DROP TABLE ${strata}`)
  const [{ kept }] = (await db.all<{ kept: number }>(`SELECT count(*)::DOUBLE AS kept FROM ${table}`)) as [{ kept: number }]
  return { table, kept: { rows: n, kept, oneIn } }
}
