/**
 * Which candidate rows of the evidence corpus an answer reads. A window's candidates come per platform
 * group and window half (corpus-index.ts: each is a range of rows), so their counts are exact; only the
 * rows drawn are read with their texts. A set larger than `readMax` is read as an evenly drawn sample,
 * each row drawn standing for the rows it was drawn from (its weight).
 */

/** The candidates (rowids, ascending: publication order) of one platform group and window half. */
export interface CandidateSet {
  rows: Int32Array
}

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
export function draw(sets: readonly CandidateSet[], readMax: number): Drawn {
  const total = sets.reduce((n, set) => n + set.rows.length, 0)
  const step = Math.max(1, Math.ceil(total / readMax))
  const rows: number[] = []
  const weights: number[] = []
  for (const set of sets) {
    const drawn = Math.ceil(set.rows.length / step)
    for (let i = 0; i < set.rows.length; i += step) {
      rows.push(set.rows[i]!)
      weights.push(set.rows.length / drawn)
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
