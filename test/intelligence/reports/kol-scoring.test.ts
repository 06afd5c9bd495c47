/** KOL fit and flags on constructed creators (no corpus): few posts shrink the fit; an outsized rate is flagged. */
import { describe, expect, test } from 'bun:test'
import { KOL } from '../../../src/catalog/evidence-rules'
import { shortlist, type KolFilters } from '../../../src/intelligence/reports/kols'
import type { CreatorPost } from '../../../src/intelligence/sources'
import { evidenceItem } from '../synthetic'

const NO_FILTERS: KolFilters = { platform: null, city: null, tier: null, budget_band: null, industryCategory: null }

/** `n` posts by one creator, each with engagement = rate x followers (comments a tenth of likes: no comment-ratio flag). */
function creator(handle: string, followers: number, rate: number, n: number, category = 'coffee'): CreatorPost[] {
  const total = Math.round(rate * followers)
  const comments = Math.round(total / 11)
  return Array.from({ length: n }, (_, i) => ({
    ...evidenceItem(`${handle}-${i}`, { author: handle, authorFollowers: followers, daysAgo: i + 1 }),
    engagement: { likes: total - comments, comments, shares: 0, views: null },
    category,
  }))
}

/** Five peers per tier on the same platform, so each creator has a tier median. */
const peers = (tier: string, followers: number, rate: number) =>
  Array.from({ length: 5 }, (_, i) => creator(`${tier}-peer-${i}`, followers, rate, 6)).flat()

const run = async (posts: CreatorPost[]) => (await shortlist(posts, (p) => p.category === 'coffee', 'coffee', NO_FILTERS)).creators
const find = async (posts: CreatorPost[], handle: string) => (await run(posts)).find((c) => c.handle === handle)!

describe('KOL fit', () => {
  test('one post of one on the category is shrunk toward the prior, below a creator with the same record over six posts', async () => {
    const posts = [...peers('micro', 20_000, 0.02), ...creator('one-post', 20_000, 0.05, 1), ...creator('six-posts', 20_000, 0.05, 6)]
    const one = await find(posts, 'one-post')
    const six = await find(posts, 'six-posts')
    const w = KOL.fitWeights
    const raw = (c: typeof one) =>
      Math.min(
        1,
        w.relevance * c.fit.relevance + w.quality * c.fit.engagement_quality + w.activity * c.fit.activity + w.reach * c.fit.reach,
      )
    expect(one.fit.relevance).toBe(1)
    expect(one.fit_score).toBeCloseTo((1 * raw(one) + KOL.priorPosts * KOL.prior) / (1 + KOL.priorPosts), 2)
    expect(six.fit_score).toBeCloseTo((6 * raw(six) + KOL.priorPosts * KOL.prior) / (6 + KOL.priorPosts), 2)
    expect(one.fit_score).toBeLessThan(raw(one) - 0.1)
    expect(one.fit_score).toBeLessThan(six.fit_score)
  })
})

describe('engagement_rate_outlier', () => {
  // The buyer's case: 224 followers, 44.6% engagement rate against ~9% for the tier.
  const posts = [...peers('koc', 300, 0.09), ...creator('tiny-loyal', 224, 0.446, 4), ...creator('lively', 250, 0.2, 4)]

  test(`a median engagement rate above ${KOL.outlierFactor}x the tier median is flagged and does not earn top engagement quality`, async () => {
    const c = await find(posts, 'tiny-loyal')
    expect(c.engagement.vs_tier_median!).toBeGreaterThan(KOL.outlierFactor)
    expect(c.engagement.flags).toEqual(['engagement_rate_outlier'])
    expect(c.engagement.quality_score).toBeCloseTo(0.5 - KOL.flagPenalty, 5)
    expect(c.recommendation).toContain(`Check before booking: an engagement rate over ${KOL.outlierFactor}x their tier's median`)
  })

  test('a high rate below the factor is not flagged and earns its quality', async () => {
    const c = await find(posts, 'lively')
    expect(c.engagement.vs_tier_median!).toBeLessThan(KOL.outlierFactor)
    expect(c.engagement.vs_tier_median!).toBeGreaterThan(2)
    expect(c.engagement.flags).toEqual([])
    expect(c.engagement.quality_score).toBe(1)
    expect(c.recommendation).not.toContain('Check before booking')
  })
})
