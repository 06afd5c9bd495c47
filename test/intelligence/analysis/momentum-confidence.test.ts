/** Momentum and confidence on constructed evidence, against the documented formulas. */
import { describe, expect, test } from 'bun:test'
import { CONFIDENCE, MOMENTUM, RELEVANCE } from '../../../src/catalog/evidence-rules'
import { confidence } from '../../../src/intelligence/analysis/confidence'
import type { EvidenceItem } from '../../../src/intelligence/evidence'
import { momentum } from '../../../src/intelligence/analysis/momentum'
import { evidenceSummary } from '../../../src/intelligence/reports/report'

const DAY = 86_400_000
const AS_OF = new Date('2026-11-16T00:00:00Z')

function item(daysAgo: number, o: Partial<EvidenceItem> & { n?: number } = {}): EvidenceItem {
  return {
    id: `i-${daysAgo}-${o.n ?? 0}`,
    url: null,
    platform: 'douyin',
    retrieval: 'native',
    sourceKind: 'video',
    author: `a${(o.n ?? 0) % 20}`,
    authorFollowers: 1000,
    authorCity: null,
    publishedAt: new Date(AS_OF.getTime() - daysAgo * DAY - 3_600_000),
    title: '',
    text: '露营',
    language: 'zh',
    engagement: { likes: 100, comments: 10, shares: 5, views: 1000 },
    provider: 'test',
    ...o,
  }
}

/** `perDay(d)` items on each of the last `days` days (d = 0 is the newest day). */
function items(days: number, perDay: (d: number) => number, o: Partial<EvidenceItem> = {}): EvidenceItem[] {
  const out: EvidenceItem[] = []
  for (let d = 0; d < days; d++) for (let n = 0; n < perDay(d); n++) out.push(item(d, { ...o, n }))
  return out
}

describe('momentum', () => {
  test('more recent than prior volume is rising, less is falling, the same is stable', () => {
    expect(
      momentum(
        items(60, (d) => (d < 30 ? 6 : 3)),
        AS_OF,
        30,
      ).momentum,
    ).toBe('rising')
    expect(
      momentum(
        items(60, (d) => (d < 30 ? 3 : 6)),
        AS_OF,
        30,
      ).momentum,
    ).toBe('falling')
    expect(
      momentum(
        items(60, () => 4),
        AS_OF,
        30,
      ).momentum,
    ).toBe('stable')
  })

  test('the score is the documented weighted log ratio of volume and damped engagement', () => {
    const recent = items(30, () => 4)
    const prior = items(60, (d) => (d < 30 ? 0 : 2), { engagement: { likes: 10, comments: 0, shares: 0, views: null } })
    const m = momentum([...recent, ...prior], AS_OF, 30)
    const damped = (xs: EvidenceItem[]) =>
      xs.reduce((s, i) => s + Math.log1p(i.engagement!.likes + i.engagement!.comments + i.engagement!.shares), 0)
    const expected =
      MOMENTUM.volumeWeight * Math.log((120 + 1) / (60 + 1)) +
      MOMENTUM.engagementWeight * Math.log((damped(recent) + 1) / (damped(prior) + 1))
    expect(m.score).toBeCloseTo(expected, 3)
    expect(m.recent.items).toBe(120)
    expect(m.prior.items).toBe(60)
    expect(m.volume_change_pct).toBe(100)
  })

  test('a large ratio on a handful of items is not a direction: the noise guard keeps it stable', () => {
    // 6 vs 3 items: ln ratio 0.56 clears the score threshold but not 2 standard errors of the counts.
    const few = [...items(30, (d) => (d < 6 ? 1 : 0)), ...items(60, (d) => (d >= 30 && d < 33 ? 1 : 0))]
    const m = momentum(few, AS_OF, 30)
    expect(m.score!).toBeGreaterThan(MOMENTUM.threshold)
    expect(Math.abs(m.volume_z!)).toBeLessThan(MOMENTUM.minZ)
    expect(m.momentum).toBe('stable')
  })

  test('fewer items than the minimum in both windows is insufficient_evidence', () => {
    const m = momentum(
      items(60, (d) => (d % 10 === 0 ? 1 : 0)),
      AS_OF,
      30,
    )
    expect(m.recent.items + m.prior.items).toBeLessThan(MOMENTUM.minItems)
    expect(m).toMatchObject({ momentum: 'insufficient_evidence', score: null })
  })

  test('a source that starts inside the prior window is compared per covered day: a steady rate stays stable', () => {
    // 4 items a day for the 45 days the source covers: the prior window has only 15 covered days.
    const covered = items(45, () => 4)
    const coverageFrom = new Date(AS_OF.getTime() - 45 * DAY)
    const fair = momentum(covered, AS_OF, 30, coverageFrom)
    expect(fair.prior.covered_days).toBe(15)
    expect(fair.momentum).toBe('stable')
    // Without the coverage the half-empty prior window would read as growth.
    expect(momentum(covered, AS_OF, 30).momentum).toBe('rising')
  })

  test('without any engagement figures (web pages) the score rests on volume alone', () => {
    const web = items(60, (d) => (d < 30 ? 6 : 3), { engagement: null, retrieval: 'proxy', platform: 'web', sourceKind: 'web_page' })
    const m = momentum(web, AS_OF, 30)
    expect(m.score).toBeCloseTo(Math.log((180 + 1) / (90 + 1)), 3)
    expect(m.engagement_change_pct).toBeNull()
  })
})

describe('volume counts what a post is about', () => {
  /** Listicles naming the subject once, deep in their text: relevance RELEVANCE.mention, no engagement figures. */
  const mentions = (days: number, perDay: (d: number) => number) =>
    items(days, perDay, { relevance: RELEVANCE.mention, id: '', text: 'list', engagement: null }).map((i, n) => ({ ...i, id: `m${n}` }))

  test('a passing mention counts as its relevance in the volume, the score and the engagement; raw counts stay beside', () => {
    const about = items(60, () => 2, { engagement: null })
    const m = momentum([...about, ...mentions(30, (d) => (d < 20 ? 1 : 0))], AS_OF, 30)
    expect([m.recent.items, m.prior.items]).toEqual([80, 60])
    expect([m.recent.weighted_items, m.prior.weighted_items]).toEqual([70, 60])
    expect(m.volume_change_pct).toBe(16.7)
    expect(m.score).toBeCloseTo(Math.log((70 + 1) / (60 + 1)), 3)
    const engaged = momentum(
      [item(1, { relevance: RELEVANCE.mention, engagement: { likes: 99, comments: 0, shares: 0, views: null } })],
      AS_OF,
      30,
    )
    expect(engaged.recent.engagement).toBeCloseTo(RELEVANCE.mention * Math.log1p(99), 2)
    expect(evidenceSummary(about.slice(0, 4).concat(mentions(2, () => 1)), [])).toMatchObject({ total_items: 6, weighted_items: 5 })
  })

  test('a flat topic that a burst of listicles names in passing reads stable, and the reason says the change is in passing mentions', () => {
    // 2 posts a day about it in both windows; 56 listicles in the recent one (+93% items, mean relevance 0.84).
    const about = items(60, () => 2, { engagement: null })
    const m = momentum([...about, ...mentions(28, () => 2)], AS_OF, 30)
    expect([m.recent.items, m.prior.items, m.recent.weighted_items]).toEqual([116, 60, 88])
    // Weighted alone, the burst would still clear the threshold and the noise guard.
    expect(m.score!).toBeGreaterThan(MOMENTUM.threshold)
    expect(m.volume_z!).toBeGreaterThan(MOMENTUM.minZ)
    expect(m.momentum).toBe('stable')
    expect(m.reason).toContain('passing mentions')
  })

  test('a subject named only (or mostly) in passing keeps its weighted direction: too few posts about it to tell one', () => {
    // No post about it at all: 45 vs 15 listicles naming it, and the reverse.
    expect(
      momentum(
        mentions(60, (d) => (d < 30 ? 3 : 1)),
        AS_OF,
        30,
      ),
    ).toMatchObject({ momentum: 'rising', reason: null })
    expect(
      momentum(
        mentions(60, (d) => (d < 30 ? 1 : 3)),
        AS_OF,
        30,
      ),
    ).toMatchObject({ momentum: 'falling', reason: null })
    // Posts about it, flat, below MOMENTUM.minItems in the two windows together: still the weighted call.
    const few = (n: number) => items(60, (d) => (d % 30 < n ? 1 : 0), { engagement: null, title: '露营', text: '露营' })
    const under = MOMENTUM.minItems / 2 - 1
    expect(momentum([...few(under), ...mentions(60, (d) => (d < 30 ? 3 : 1))], AS_OF, 30)).toMatchObject({
      momentum: 'rising',
      reason: null,
    })
    // At the bar, the same flat posts about it are enough: the rise is theirs to show, and they do not.
    const at = momentum([...few(MOMENTUM.minItems / 2), ...mentions(60, (d) => (d < 30 ? 3 : 1))], AS_OF, 30)
    expect(at.momentum).toBe('stable')
    expect(at.reason).toContain(`passing mentions: the posts about it alone (${MOMENTUM.minItems / 2} vs ${MOMENTUM.minItems / 2})`)
  })

  test('posts about the subject that rise still read rising when passing mentions rise with them; a fall the same', () => {
    const rising = [...items(60, (d) => (d < 30 ? 4 : 2), { engagement: null }), ...mentions(28, () => 2)]
    expect(momentum(rising, AS_OF, 30)).toMatchObject({ momentum: 'rising', reason: null })
    const falling = [...items(60, (d) => (d < 30 ? 2 : 4), { engagement: null }), ...mentions(60, (d) => (d >= 30 ? 1 : 0))]
    expect(momentum(falling, AS_OF, 30)).toMatchObject({ momentum: 'falling', reason: null })
  })
})

describe('confidence', () => {
  const documented = (xs: EvidenceItem[], days: number) => {
    const c = CONFIDENCE
    const volume = Math.min(1, Math.log1p(xs.length) / Math.log1p(c.fullVolumeItems))
    const kinds = new Set(xs.map((i) => i.sourceKind)).size
    const authors = new Set(xs.map((i) => i.author)).size
    const diversity = (Math.min(1, kinds / c.fullKinds) + Math.min(1, authors / c.fullAuthors)) / 2
    const newest = Math.max(...xs.map((i) => i.publishedAt.getTime()))
    const recency = Math.max(0, 1 - (AS_OF.getTime() - newest) / DAY / Math.max(c.minRecencyDays, days))
    const native = xs.filter((i) => i.retrieval === 'native').length / xs.length
    return (
      (c.weights.volume * volume + c.weights.diversity * diversity + c.weights.recency * recency) *
      (c.proxyFloor + (1 - c.proxyFloor) * native)
    )
  }

  test('equals the documented formula', () => {
    const xs = [...items(20, () => 2), ...items(10, () => 1, { retrieval: 'proxy', platform: 'web', sourceKind: 'report', author: 'site' })]
    expect(confidence(xs, AS_OF, 30).value).toBeCloseTo(documented(xs, 30), 2)
  })

  test('thinner evidence gives lower confidence, thicker evidence higher', () => {
    const thin = confidence(
      items(30, (d) => (d % 5 === 0 ? 1 : 0)),
      AS_OF,
      30,
    ).value
    const mid = confidence(
      items(30, () => 1),
      AS_OF,
      30,
    ).value
    const thick = confidence(
      items(30, () => 4),
      AS_OF,
      30,
    ).value
    expect(thin).toBeLessThan(mid)
    expect(mid).toBeLessThan(thick)
  })

  test('the same evidence read by proxy is less certain than native', () => {
    const native = items(30, () => 2)
    const proxy = native.map((i) => ({ ...i, retrieval: 'proxy' as const }))
    expect(confidence(proxy, AS_OF, 30).value).toBeLessThan(confidence(native, AS_OF, 30).value)
    expect(confidence(proxy, AS_OF, 30).value).toBeCloseTo(confidence(native, AS_OF, 30).value * CONFIDENCE.proxyFloor, 1)
  })

  test('stale evidence is less certain than fresh evidence', () => {
    const fresh = items(30, () => 1)
    const stale = fresh.map((i) => ({ ...i, publishedAt: new Date(i.publishedAt.getTime() - 20 * DAY) }))
    expect(confidence(stale, AS_OF, 30).value).toBeLessThan(confidence(fresh, AS_OF, 30).value)
  })

  test('more source kinds and authors raise it; it stays within [0, 1]', () => {
    const one = items(30, () => 2, { author: 'solo' })
    const varied = one.map((i, n) => ({ ...i, author: `a${n}`, sourceKind: (['video', 'article', 'news'] as const)[n % 3]! }))
    expect(confidence(varied, AS_OF, 30).value).toBeGreaterThan(confidence(one, AS_OF, 30).value)
    expect(confidence(varied, AS_OF, 30).value).toBeLessThanOrEqual(1)
    expect(confidence([], AS_OF, 30).value).toBe(0)
  })
})
