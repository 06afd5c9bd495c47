/**
 * Large candidate sets of the sample corpus are read as an evenly drawn sample (corpus-draw.ts): the
 * weights of the rows drawn add up to the exact counts, and the relevant counts they give stay close to
 * those of reading every row.
 */
import { describe, expect, test } from 'bun:test'
import { draw, union, type RowFacts } from '../../src/intelligence/providers/corpus-draw'
import { CorpusSearch, READ_MAX_ROWS } from '../../src/intelligence/providers/corpus'
import { matcherFor } from '../../src/intelligence/relevance'
import { openSampleCorpus, type SampleCorpus } from './support'

const DAY = 86_400_000
const T0 = Date.parse('2026-01-01T00:00:00Z')

/** Rows one hour apart, cycling through `groups` groups, each row standing for `weight(row)` posts (a sampled corpus). */
function facts(rows: number, groups: number, weight: (row: number) => number = () => 1): RowFacts {
  return {
    at: Float64Array.from({ length: rows }, (_, i) => T0 + i * 3_600_000),
    group: Uint8Array.from({ length: rows }, (_, i) => i % groups),
    weight: Float64Array.from({ length: rows }, (_, i) => weight(i)),
    groups: Array.from({ length: groups }, (_, g) => `p${g}|native|`),
  }
}

const all = (n: number) => Int32Array.from({ length: n }, (_, i) => i)

describe('draw', () => {
  test('reads every candidate in the window, unweighted, when there are at most the maximum', () => {
    const f = facts(1_000, 3)
    const window = { from: new Date(T0 + 10 * DAY), to: new Date(T0 + 20 * DAY) }
    const drawn = draw(f, all(1_000), window, 500)
    expect(drawn.rows.length).toBe(240)
    expect([...drawn.rows].every((row) => f.at[row]! >= window.from.getTime() && f.at[row]! < window.to.getTime())).toBe(true)
    expect(new Set(drawn.weights)).toEqual(new Set([1]))
  })

  test('draws one in `step` of each group and window half; the weights of each add up to its exact size', () => {
    const f = facts(10_000, 3)
    // Uneven groups: every row of group 0, every other row of groups 1 and 2.
    const candidates = Int32Array.from([...all(10_000)].filter((row) => row % 3 === 0 || row % 2 === 0))
    const window = { from: new Date(T0), to: new Date(T0 + 10_000 * 3_600_000), split: new Date(T0 + 7_000 * 3_600_000) }
    const drawn = draw(f, candidates, window, 1_000)
    const key = (row: number) => `${f.group[row]}|${f.at[row]! >= window.split.getTime()}`
    const exact = new Map<string, number>()
    for (const row of candidates) exact.set(key(row), (exact.get(key(row)) ?? 0) + 1)
    const weighted = new Map<string, number>()
    drawn.rows.forEach((row, i) => weighted.set(key(row), (weighted.get(key(row)) ?? 0) + drawn.weights[i]!))
    expect(weighted.size).toBe(exact.size)
    for (const [k, n] of exact) expect([k, weighted.get(k)!]).toEqual([k, expect.closeTo(n, 6)])
    // About the maximum read, every row standing for about as many (the same step everywhere).
    expect(drawn.rows.length).toBeGreaterThan(900)
    expect(drawn.rows.length).toBeLessThanOrEqual(1_000 + exact.size)
    expect(Math.max(...drawn.weights) - Math.min(...drawn.weights)).toBeLessThan(1)
    // Evenly through time: each half of the window holds its share of the rows drawn.
    const late = [...drawn.rows].filter((row) => f.at[row]! >= window.split.getTime()).length
    expect(late / drawn.rows.length).toBeCloseTo(0.3, 1)
  })

  test("a sampled corpus's rows: each row read keeps its own weight, and a drawn group's weights add up to the posts it stands for", () => {
    // Group 0's rows stand for 10 posts each, group 1's for 7.5 or 12 by week (a systematic sample's strata).
    const f = facts(10_000, 2, (row) => (row % 2 === 0 ? 10 : Math.floor(row / 168) % 2 ? 7.5 : 12))
    const window = { from: new Date(T0), to: new Date(T0 + 10_000 * 3_600_000) }
    const few = draw(f, all(400), window, 1_000)
    expect([...few.weights]).toEqual([...f.weight.subarray(0, 400)])
    const drawn = draw(f, all(10_000), window, 1_000)
    expect(drawn.rows.length).toBeLessThanOrEqual(1_002)
    const posts: [number, number] = [0, 0]
    f.weight.forEach((w, row) => (posts[row % 2 === 0 ? 0 : 1] += w))
    const weighted: [number, number] = [0, 0]
    drawn.rows.forEach((row, i) => (weighted[row % 2 === 0 ? 0 : 1] += drawn.weights[i]!))
    expect(weighted[0]).toBeCloseTo(posts[0]!, 6)
    expect(weighted[1]).toBeCloseTo(posts[1]!, 6)
  })

  test('the same rows every time', () => {
    const f = facts(5_000, 2)
    const window = { from: new Date(T0), to: new Date(T0 + 5_000 * 3_600_000) }
    expect([...draw(f, all(5_000), window, 700).rows]).toEqual([...draw(f, all(5_000), window, 700).rows])
  })
})

describe('union', () => {
  test('merges ascending rowid lists into one ascending list without repeats', () => {
    expect([...union([Int32Array.from([1, 5, 9]), Int32Array.from([2, 5, 10]), Int32Array.from([])])]).toEqual([1, 2, 5, 9, 10])
    expect([...union([Int32Array.from([3, 4])])]).toEqual([3, 4])
  })
})

describe('a sampled candidate set of the corpus against every row', () => {
  let corpus: SampleCorpus
  openSampleCorpus((opened) => (corpus = opened))

  test('every category over two years: each platform and window within three standard errors of the exact relevant count, totals within 2%', async () => {
    const { db, table, index, knownNames } = corpus
    const sampled = new CorpusSearch(db, table, knownNames)
    const full = new CorpusSearch(db, table, knownNames, Infinity)
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
