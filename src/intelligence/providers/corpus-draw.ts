/**
 * Which candidate rows of the sample corpus an answer reads. Counting needs only each row's publication
 * time and group (platform, retrieval, the platform a web page is about), kept for every row in two typed
 * arrays (~1.7 MB for the 190,000 rows): a window's counts come from them, and only the rows drawn are
 * fetched with their texts. A set larger than `readMax` is read as an evenly drawn sample, each row drawn
 * standing for the rows it was drawn from (its weight).
 */
import type { DuckDb } from '../../data/duckdb'
import { eachSliced } from '../turns'

/** Publication time and group of every row of the search table, by rowid. */
export interface RowFacts {
  at: Float64Array
  group: Uint8Array
  /** How many corpus posts each row stands for: 1, or more in a sampled corpus (corpus-table.ts). */
  weight: Float64Array
  /** Per group code: `platform|retrieval|about_platform`. */
  groups: string[]
}

/** Rows read per query while building. */
const CHUNK_ROWS = 16_384

export async function readRowFacts(db: DuckDb, table: string): Promise<RowFacts> {
  const group = `platform || '|' || retrieval || '|' || about_platform`
  const groups = (await db.all<{ g: string }>(`SELECT DISTINCT ${group} AS g FROM ${table} ORDER BY g`)).map((r) => r.g)
  if (groups.length > 255) throw new Error(`${table}: more than 255 platform groups`)
  const [{ n }] = (await db.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${table}`)) as [{ n: number }]
  const facts: RowFacts = { at: new Float64Array(n), group: new Uint8Array(n), weight: new Float64Array(n), groups }
  const codes = groups.map((g) => `'${g.replaceAll("'", "''")}'`).join(', ')
  for (let from = 0; from < n; from += CHUNK_ROWS) {
    // Numbers only (strings cost three times as much to convert): the time in ms and the group's index.
    const chunk = await db.all<{ r: number; t: number; g: number; w: number }>(
      `SELECT rowid::INTEGER AS r, epoch_ms(published_at::TIMESTAMP)::DOUBLE AS t, list_position([${codes}], ${group})::INTEGER - 1 AS g,
         weight AS w
       FROM ${table} WHERE rowid >= ${from} AND rowid < ${from + CHUNK_ROWS}`,
    )
    await eachSliced(chunk, ({ r, t, g, w }) => {
      facts.at[r] = t
      facts.group[r] = g
      facts.weight[r] = w
    })
  }
  return facts
}

/** The rows drawn from a candidate set, with the weight of each (1: it stands for itself). */
export interface Drawn {
  rows: Int32Array
  weights: Float64Array
}

/**
 * The candidates (rowids, ascending) in [from, to), every one when there are at most `readMax`; else one
 * in `step` of each group and window half (`split`), in rowid order (publication order), the same step
 * for all. A row read stands for the posts it stands for itself (its weight: 1, or more in a sampled
 * corpus) scaled by its group's posts over those of the rows drawn from it: the weights of a group add up
 * to its count, and a row keeps its share of it (shares and means over unweighted rows are close only
 * where the rows' own weights are alike, as in a corpus kept whole).
 */
export function draw(facts: RowFacts, candidates: Int32Array, window: { from: Date; to: Date; split?: Date }, readMax: number): Drawn {
  const [from, to, split] = [window.from.getTime(), window.to.getTime(), window.split?.getTime() ?? Infinity]
  const inside: number[] = []
  for (const row of candidates) if (facts.at[row]! >= from && facts.at[row]! < to) inside.push(row)
  const step = Math.max(1, Math.ceil(inside.length / readMax))
  if (step === 1) return { rows: Int32Array.from(inside), weights: Float64Array.from(inside, (row) => facts.weight[row]!) }
  const keyOf = (row: number) => facts.group[row]! * 2 + (facts.at[row]! >= split ? 1 : 0)
  const sums = new Map<number, { posts: number; drawn: number }>()
  const seen = new Map<number, number>()
  const rows: number[] = []
  for (const row of inside) {
    const key = keyOf(row)
    const sum = sums.get(key) ?? { posts: 0, drawn: 0 }
    sums.set(key, sum)
    sum.posts += facts.weight[row]!
    const seenBefore = seen.get(key) ?? 0
    seen.set(key, seenBefore + 1)
    if (seenBefore % step !== 0) continue
    sum.drawn += facts.weight[row]!
    rows.push(row)
  }
  const weights = Float64Array.from(rows, (row) => {
    const sum = sums.get(keyOf(row))!
    return (facts.weight[row]! * sum.posts) / sum.drawn
  })
  return { rows: Int32Array.from(rows), weights }
}

/** The union of ascending rowid lists, ascending. */
export function union(lists: readonly Int32Array[]): Int32Array {
  if (lists.length === 1) return lists[0]!
  const all = new Int32Array(lists.reduce((n, list) => n + list.length, 0))
  let at = 0
  for (const list of lists) {
    all.set(list, at)
    at += list.length
  }
  all.sort()
  let kept = 0
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[kept++] = all[i]!
  return all.subarray(0, kept)
}

/**
 * A list of rowids as one SQL parameter: `rowid IN (SELECT unnest(string_split($n, ',')::INTEGER[]))`.
 * A VARCHAR is cast in DuckDB three times faster than a list value is built item by item in JavaScript.
 */
export const rowidList = (rows: ArrayLike<number>): string => Array.prototype.join.call(rows, ',')
export const ROWID_IN = (param: number) => `rowid IN (SELECT unnest(string_split($${param}, ',')::INTEGER[]))`
