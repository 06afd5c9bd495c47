/**
 * The sample corpus's search table: the evidence file as an in-memory DuckDB table, every post of it or,
 * past CORPUS_MAX_ROWS, a stratified sample whose posts carry the weight of the posts they stand for.
 */
import type { LoadedDataset } from '../../data/datasets'
import type { DuckDb } from '../../data/duckdb'
import { sqlString } from '../../data/sql'

/** What the search table holds of a corpus: every post, or a stratified sample (CORPUS_MAX_ROWS). */
export interface CorpusKept {
  /** Posts in the corpus file. */
  rows: number
  /** Posts in the search table. */
  kept: number
  /** About one post in `oneIn` is kept (1: every post). */
  oneIn: number
  /** Whether each creator's weeks are strata of their own: then a creator's post counts are estimates of theirs. */
  creators: boolean
}

/**
 * A sample's strata, each of whose posts' total the weights keep exact: a platform group's week, and
 * within it each creator's own posts (KOL scores read a creator's posts; without a stratum of their own,
 * one in k of them would be all a creator has). One 64-bit hash per stratum, the key of its table.
 */
const stratum = (byCreator: boolean) =>
  `hash(platform, retrieval, about_platform, ${byCreator ? "CASE WHEN retrieval = 'native' THEN author ELSE '' END" : "''"}, date_trunc('week', published_at::TIMESTAMP))`

/** Creators are strata of their own while their weeks take at most this share of CORPUS_MAX_ROWS (each keeps one post). */
const CREATOR_STRATA_SHARE = 0.5
/** The expected sample aims this far below `maxRows`: how many posts are kept varies around it by about its square root. */
const HEADROOM = 0.99
/** A post's draw: a hash of its place in the file, so that no layout of the file (strata taking turns) skews which are kept. */
const drawOf = (row: string) => `hash(${row})`

/**
 * The corpus as an in-memory table, built once per corpus version (a search of the Parquet file itself
 * took twice as long, decoding every query). A corpus of more than `maxRows` posts is kept as a
 * stratified sample: of each stratum one post drawn at random (so none is lost) and every post whose
 * draw is a multiple of k, about one in k; each post kept weighs its stratum's posts over those kept of
 * it, so every stratum keeps its exact total. Two passes over the file: the strata (a few columns), then
 * the posts kept. Memory and every read then stay those of about `maxRows` posts however large the
 * corpus (at least one post per platform's week): 18.8M posts kept whole took 205 s to index and 6 GB.
 * One connection throughout: temporary tables live on the connection that made them.
 */
export async function searchTable(db: DuckDb, dataset: LoadedDataset, maxRows: number): Promise<{ table: string; kept: CorpusKept }> {
  const table = `${dataset.relation}_search`
  const [{ n }] = (await db.all<{ n: number }>(`SELECT count(*)::DOUBLE AS n FROM ${dataset.relation}`)) as [{ n: number }]
  if (n <= maxRows) {
    // No ORDER BY: the file is written in publication order (the contract's sortBy) and the scan keeps it.
    await db.exec(`CREATE OR REPLACE TABLE ${table} AS SELECT *, 1::DOUBLE AS weight FROM ${dataset.relation}`)
    return { table, kept: { rows: n, kept: n, oneIn: 1, creators: true } }
  }
  const file = `read_parquet(${sqlString(dataset.file)}, file_row_number = true)`
  const strata = `${table}_strata`
  const columns = dataset.contract.columns.map((c) => `CAST(d.${c.name} AS ${c.type}) AS ${c.name}`).join(', ')
  return db.withConnection(async (session) => {
    const strataOf = async (byCreator: boolean) => {
      await session.exec(`CREATE OR REPLACE TEMP TABLE ${strata} AS
        SELECT ${stratum(byCreator)} AS s, count(*)::DOUBLE AS posts, arg_min(file_row_number, ${drawOf('file_row_number')}) AS one FROM ${file} GROUP BY 1`)
      const [{ count }] = (await session.all<{ count: number }>(`SELECT count(*)::DOUBLE AS count FROM ${strata}`)) as [{ count: number }]
      return count
    }
    let creators = true
    let count = await strataOf(true)
    if (count > maxRows * CREATOR_STRATA_SHARE) [creators, count] = [false, await strataOf(false)]
    // Expected posts kept: one per stratum, and about one in k of the rest. With more platform weeks than
    // that allows (a tiny CORPUS_MAX_ROWS over years), each still keeps one.
    const room = maxRows * HEADROOM - count
    const oneIn = room > 0 ? Math.max(2, Math.ceil((n - count) / room)) : Math.ceil(n / maxRows)
    await session.exec(`CREATE OR REPLACE TEMP TABLE ${table}_drawn AS
        SELECT ${columns}, d.file_row_number AS r, st.s, st.posts
        FROM (SELECT *, ${stratum(creators)} AS s FROM ${file}) d JOIN ${strata} st ON st.s = d.s
        WHERE d.file_row_number = st.one OR ${drawOf('d.file_row_number')} % ${oneIn} = 0;
      CREATE OR REPLACE TABLE ${table} AS
        SELECT * EXCLUDE (r, s, posts), posts / count(*) OVER (PARTITION BY s) AS weight FROM ${table}_drawn ORDER BY r;
      DROP TABLE ${table}_drawn; DROP TABLE ${strata}`)
    const [{ kept }] = (await session.all<{ kept: number }>(`SELECT count(*)::DOUBLE AS kept FROM ${table}`)) as [{ kept: number }]
    return { table, kept: { rows: n, kept, oneIn, creators } }
  })
}
