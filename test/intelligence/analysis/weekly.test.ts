/** The weekly reading beside a trend, on constructed series: which weeks count, the direction, and why readings differ. */
import { describe, expect, test } from 'bun:test'
import type { MomentumResult } from '../../../src/intelligence/analysis/momentum'
import { verdictOf, weeklyReading, type WeeklySeries } from '../../../src/intelligence/analysis/weekly'
import { WEEKLY_DECIDES_RATIO } from '../../../src/catalog/evidence-rules'

const AS_OF = new Date('2026-11-16T00:00:00Z')
/** Eight published weeks, Mondays 2026-09-21 .. 2026-11-09, with these posts each. */
function series(posts: number[]): WeeklySeries {
  const published = posts.map((_, i) => new Date(Date.parse('2026-09-21T00:00:00Z') + i * 7 * 86_400_000).toISOString().slice(0, 10))
  return { source: 'signal_topics', measure: 'posts', published, counts: new Map(published.map((w, i) => [w, posts[i]!])) }
}
const window = (items: number) => ({ from: '', to: '', items, weighted_items: items, engagement: 0, covered_days: 28, capped: false })
const trend = (o: Partial<MomentumResult>): MomentumResult => ({
  momentum: 'stable',
  score: 0,
  volume_z: 0.5,
  recent: window(20),
  prior: window(18),
  volume_change_pct: 11.1,
  engagement_change_pct: null,
  reason: null,
  ...o,
})

describe('weekly reading', () => {
  test('28 days are the last four whole weeks against the four before; agreeing readings say so', () => {
    const w = weeklyReading(series([100, 100, 100, 100, 200, 200, 200, 200]), AS_OF, 28, trend({ momentum: 'rising', volume_z: 4 }))!
    expect(w).toMatchObject({
      recent: { from: '2026-10-19', to: '2026-11-15', weeks: 4, per_week: 200 },
      prior: { from: '2026-09-21', to: '2026-10-18', weeks: 4, per_week: 100 },
      change_pct: 100,
      direction: 'rising',
      agrees: true,
    })
    expect(w.note).toEndWith(', in agreement')
  })

  test('a stable trend beside rising weeks says its change is within count noise', () => {
    const w = weeklyReading(series([100, 100, 100, 100, 200, 200, 200, 200]), AS_OF, 28, trend({ volume_z: 0.9, volume_change_pct: 40 }))!
    expect(w.agrees).toBe(false)
    expect(w.note).toContain(
      'they differ because the 20 vs 18 evidence items here are a sample of those posts, and their change (+40%) is within count noise (z 0.9)',
    )
  })

  test('a stable trend whose change is in passing mentions says so beside rising weeks', () => {
    const reason = 'the rise is in passing mentions: the posts about it alone (18 vs 18) score 0, within ±0.15'
    const w = weeklyReading(
      series([100, 100, 100, 100, 200, 200, 200, 200]),
      AS_OF,
      28,
      trend({ volume_z: 2.4, volume_change_pct: 40, reason }),
    )!
    expect(w.note).toContain(`they differ because ${reason}`)
  })

  test('a rising trend beside flat weeks says the weeks stayed flat', () => {
    const w = weeklyReading(series([100, 100, 100, 100, 101, 99, 100, 100]), AS_OF, 28, trend({ momentum: 'rising', volume_z: 3 }))!
    expect(w).toMatchObject({ direction: 'flat', agrees: false })
    expect(w.note).toContain('went up while the whole weeks stayed flat')
  })

  test('no reading when whole weeks cover under half of a window, or the weeks stop before it', () => {
    // 3 days: no whole week fits in either window.
    expect(weeklyReading(series([1, 1, 1, 1, 1, 1, 1, 1]), AS_OF, 3, trend({}))).toBeNull()
    // The published weeks end a month before the trend's windows (a live answer today).
    expect(weeklyReading(series([1, 1, 1, 1, 1, 1, 1, 1]), new Date('2026-12-20T00:00:00Z'), 28, trend({}))).toBeNull()
  })
})

describe('the stronger reading decides the direction', () => {
  const rising = series([100, 100, 100, 100, 200, 200, 200, 200])

  test(`weekly counts at least ${WEEKLY_DECIDES_RATIO} times the evidence items, reading otherwise: their direction is the answer's`, () => {
    const sample = trend({ volume_z: 0.9, volume_change_pct: 40 })
    expect(verdictOf(sample, weeklyReading(rising, AS_OF, 28, sample))).toEqual({
      momentum: 'rising',
      source: 'weekly_ranking',
      counted: { weekly: 1200, evidence: 38 },
    })
    // Weekly counts that rest on no uncovered window decide even where the evidence could not call one.
    const thin = trend({ momentum: 'insufficient_evidence', reason: 'too few items', recent: window(3), prior: window(2) })
    expect(verdictOf(thin, weeklyReading(rising, AS_OF, 28, thin)).momentum).toBe('rising')
  })

  test('the evidence decides when it agrees, when there is no weekly reading, or when the weekly counts are not that much larger', () => {
    const agreeing = trend({ momentum: 'rising', volume_z: 4 })
    expect(verdictOf(agreeing, weeklyReading(rising, AS_OF, 28, agreeing)).source).toBe('evidence')
    expect(verdictOf(trend({}), null)).toEqual({ momentum: 'stable', source: 'evidence' })
    const small = series([2, 2, 2, 2, 4, 4, 4, 4])
    const many = trend({ recent: window(20), prior: window(18), volume_z: 0.9 })
    expect(verdictOf(many, weeklyReading(small, AS_OF, 28, many))).toEqual({ momentum: 'stable', source: 'evidence' })
  })
})
