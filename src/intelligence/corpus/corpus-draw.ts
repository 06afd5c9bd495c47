/**
 * Which candidate rows of the evidence corpus an answer reads. A window's candidates come per platform
 * group and window half (corpus-index.ts: each is a range of rows), so their counts are exact; only the
 * rows drawn are read with their texts. A set larger than `readMax` is read as an evenly drawn sample,
 * each row drawn standing for the rows it was drawn from (its weight).
 */

/** The candidates of one platform group and window half: how many, and the first and every `step`th after it (publication order). */
export interface CandidateSet {
  count: number
  take(step: number): Int32Array | Promise<Int32Array>
}

/** A candidate set held as its rowids (ascending). */
export const listed = (rows: Int32Array): CandidateSet => ({
  count: rows.length,
  take: (step) => (step === 1 ? rows : Int32Array.from({ length: Math.ceil(rows.length / step) }, (_, i) => rows[i * step]!)),
})

/** The rows drawn from candidate sets, with the weight of each (1: it stands for itself). */
export interface Drawn {
  rows: Int32Array
  weights: Float64Array
}

/**
 * Every candidate when there are at most `readMax`; else one in `step` of each set, in publication
 * order, the same step for all. A row read stands for its set's candidates over the rows drawn from it:
 * the weights of a set add up to its count.
 */
export async function draw(sets: readonly CandidateSet[], readMax: number): Promise<Drawn> {
  const total = sets.reduce((n, set) => n + set.count, 0)
  const step = Math.max(1, Math.ceil(total / readMax))
  const rows: number[] = []
  const weights: number[] = []
  for (const set of sets) {
    if (!set.count) continue
    const drawn = await set.take(step)
    for (const row of drawn) {
      rows.push(row)
      weights.push(set.count / drawn.length)
    }
  }
  return { rows: Int32Array.from(rows), weights: Float64Array.from(weights) }
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

/** The rows of ascending `rows` that are also in ascending `among`. */
export function intersect(rows: Int32Array, among: Int32Array): Int32Array {
  const out: number[] = []
  for (let i = 0, j = 0; i < rows.length && j < among.length; ) {
    if (rows[i]! < among[j]!) i++
    else if (rows[i]! > among[j]!) j++
    else [out.push(rows[i]!), i++, j++]
  }
  return Int32Array.from(out)
}
