/**
 * Large candidate sets of the sample corpus are read as an evenly drawn sample (corpus-draw.ts): the
 * weights of the rows drawn add up to the exact counts, and the relevant counts they give stay close to
 * those of reading every row.
 */
import { describe, expect, test } from 'bun:test'
import { draw, intersect, listed, union } from '../../../src/intelligence/corpus/corpus-draw'
import { CorpusSearch, READ_MAX_ROWS } from '../../../src/intelligence/corpus/corpus'
import { matcherFor } from '../../../src/intelligence/analysis/relevance'
import { openSampleCorpus, type SampleCorpus } from '../../../support/china-evidence'

const DAY = 86_400_000

/** The rowids of `n` rows from `first` on, every `every`th row. */
const rowids = (n: number, first = 0, every = 1) => Int32Array.from({ length: n }, (_, i) => first + i * every)
const set = (n: number, first = 0, every = 1) => listed(rowids(n, first, every))

describe('draw', () => {
  test('reads every candidate, unweighted, when there are at most the maximum', async () => {
    const drawn = await draw([set(100), set(140, 1_000)], 500)
    expect(drawn.rows.length).toBe(240)
    expect(new Set(drawn.weights)).toEqual(new Set([1]))
  })

  test('draws one in `step` of each set; the weights of each add up to its exact size', async () => {
    const lists = [rowids(5_000, 0, 2), rowids(2_500, 20_000, 3), rowids(2_500, 40_000), rowids(7, 60_000)]
    const drawn = await draw(lists.map(listed), 1_000)
    const sizes = lists.map((l) => l.length)
    const weighted = lists.map((l) => [...drawn.rows].reduce((sum, row, i) => (l.includes(row) ? sum + drawn.weights[i]! : sum), 0))
    weighted.forEach((w, i) => expect(w).toBeCloseTo(sizes[i]!, 6))
    // About the maximum read, each set's rows standing for about as many (the same step everywhere).
    expect(drawn.rows.length).toBeGreaterThan(900)
    expect(drawn.rows.length).toBeLessThanOrEqual(1_000 + lists.length)
    const large = drawn.weights.subarray(0, -1) // the set of 7 rows is read in one row
    expect(Math.max(...large) - Math.min(...large)).toBeLessThan(1)
    // Evenly through each set: its first and last rows' halves hold about the same share.
    const first = [...drawn.rows].filter((row) => row < 10_000)
    expect(first.filter((row) => row < 5_000).length / first.length).toBeCloseTo(0.5, 1)
  })

  test('the same rows every time', async () => {
    const twice = [await draw([set(5_000), set(3_000, 9_000)], 700), await draw([set(5_000), set(3_000, 9_000)], 700)]
    expect([...twice[0]!.rows]).toEqual([...twice[1]!.rows])
  })
})

describe('union and intersect', () => {
  test('merge ascending rowid lists into one ascending list without repeats', () => {
    expect([...union([Int32Array.from([1, 5, 9]), Int32Array.from([2, 5, 10]), Int32Array.from([])])]).toEqual([1, 2, 5, 9, 10])
    expect([...union([Int32Array.from([3, 4])])]).toEqual([3, 4])
  })

  test('keep the rows of one ascending list that the other holds', () => {
    expect([...intersect(Int32Array.from([1, 2, 5, 9, 12]), Int32Array.from([2, 3, 9, 10, 12]))]).toEqual([2, 9, 12])
    expect([...intersect(Int32Array.from([1]), Int32Array.from([]))]).toEqual([])
  })
})

describe('a sampled candidate set of the corpus against every row', () => {
  let corpus: SampleCorpus
  openSampleCorpus((opened) => (corpus = opened))

  test('every category over two years: each platform and window within three standard errors of the exact relevant count, totals within 2%', async () => {
    const { file, index } = corpus
    const sampled = new CorpusSearch(file)
    const full = new CorpusSearch(file, Infinity)
    const to = new Date('2026-11-16T00:00:00Z')
    const split = new Date(to.getTime() - 365 * DAY)
    const from = new Date(to.getTime() - 730 * DAY)
    const categories = index.entities.filter((e) => e.kind === 'category')
    expect(categories.length).toBeGreaterThanOrEqual(10)
    let drawnFrom = 0
    for (const category of categories) {
      const match = matcherFor({ kind: 'entity', entity: category, via: category.name }, index)
      const [some, every] = await Promise.all([
        sampled.candidates(match.prefilter, from, to, split),
        full.candidates(match.prefilter, from, to, split),
      ])
      // Per platform, retrieval and window: rows read, relevant rows read, and the relevant count they stand for.
      const groups = (rows: typeof some) => {
        const out = new Map<string, { read: number; relevant: number; count: number; weight: number }>()
        for (const row of rows) {
          const key = `${row.platform}|${row.retrieval}|${row.about_platform}|${row.published_at >= split.toISOString()}`
          const g = out.get(key) ?? { read: 0, relevant: 0, count: 0, weight: row.weight ?? 1 }
          g.read++
          if (match.relevance(row) > 0) {
            g.relevant++
            g.count += row.weight ?? 1
          }
          out.set(key, g)
        }
        return out
      }
      const [estimated, exact] = [groups(some), groups(every)]
      expect(some.length).toBeLessThanOrEqual(READ_MAX_ROWS + 14)
      if (every.length > READ_MAX_ROWS) drawnFrom++
      let [estimatedTotal, exactTotal] = [0, 0]
      for (const [key, { count: n }] of exact) {
        const g = estimated.get(key) ?? { read: 0, relevant: 0, count: 0, weight: 1 }
        // The binomial standard error of a count scaled from `read` rows (the share +1 smoothed: a sample with no
        // off-topic row does not prove there is none), plus one row's weight for rounding.
        const share = (g.relevant + 1) / (g.read + 2)
        const bound = 3 * g.weight * Math.sqrt(g.read * share * (1 - share)) + g.weight
        expect([category.id, key, Math.abs(g.count - n) <= bound]).toEqual([category.id, key, true])
        estimatedTotal += g.count
        exactTotal += n
      }
      expect([category.id, Math.abs(estimatedTotal / exactTotal - 1) <= 0.02]).toEqual([category.id, true])
    }
    // Most categories are larger than what one answer reads.
    expect(drawnFrom).toBeGreaterThanOrEqual(8)
  }, 60_000)
})
