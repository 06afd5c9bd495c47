/** The KOL route on the sample corpus: filters applied and echoed, documented scoring, anomaly flags. */
import { describe, expect, test } from 'bun:test'
import { BUDGET_BANDS, COST_FLOOR_CNY, COST_PER_FOLLOWER_CNY, COST_SPREAD, CREATOR_TIERS, KOL } from '../../src/catalog/evidence-rules'
import { startApiAndReader } from '../../support/api-during-tests'
import type { Parquet as Corpus } from '../../support/parquet'
import type { Client as Api, Query } from '../../support/paying-client'
import { expectClientError, expectDocumentedData, expectPaidEnvelope, route } from '../../support/paying-client'

let api: Api
let corpus: Corpus
startApiAndReader((client, reader) => ([api, corpus] = [client, reader]))

const ID = 'china.kols'
const FROM = '2026-08-18T00:00:00Z' // 90 days before the corpus's as-of, 2026-11-16

const tierOf = (followers: number) => CREATOR_TIERS.find((t) => followers >= t.minFollowers)!.tier
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}

describe('GET /v1/china/kols', () => {
  test('answers the paid envelope with every documented field, a sample notice and the filters echoed', async () => {
    const ok = await api.paid(ID, { category: 'outdoor', platform: 'douyin', tier: 'micro', industry: 'outdoor' })
    expectPaidEnvelope(ok, route(ID))
    expectDocumentedData(route(ID), ok.body.data)
    expect(ok.body.data.filters).toEqual({ platform: 'douyin', city: null, tier: 'micro', budget_band: null, industry: 'outdoor' })
    expect(ok.body.data.data_quality).toMatchObject({ sample: true, dataset: 'evidence' })
  })

  test('every shortlisted creator passes every filter; tiers and cost bands follow the documented rules', async () => {
    for (const q of [
      { category: 'outdoor', platform: 'douyin', budget_band: 'low' },
      { category: 'beauty', platform: 'red', budget_band: 'premium' },
      { category: '露营', tier: 'micro' },
      { category: 'home-living', city: 'Shanghai' },
    ] as Query[]) {
      const d = await api.data(ID, q)
      expect(d.shortlist.length).toBeGreaterThan(0)
      expect(d.shortlist.length).toBeLessThanOrEqual(KOL.shortlistSize)
      for (const c of d.shortlist) {
        expect(c.tier).toBe(tierOf(c.followers))
        const mid = Math.max(COST_FLOOR_CNY, c.followers * COST_PER_FOLLOWER_CNY[c.platform as 'douyin'])
        expect(c.estimated_cost.band).toBe(BUDGET_BANDS.find((b) => mid < b.maxCny)!.band)
        expect(Math.abs(c.estimated_cost.cny_low - mid * (1 - COST_SPREAD))).toBeLessThanOrEqual(50)
        expect(Math.abs(c.estimated_cost.cny_high - mid * (1 + COST_SPREAD))).toBeLessThanOrEqual(50)
        if (q.platform) expect(c.platform).toBe(q.platform === 'red' ? 'xiaohongshu' : q.platform)
        if (q.budget_band) expect(c.estimated_cost.band).toBe(q.budget_band)
        if (q.tier) expect(c.tier).toBe(q.tier)
        if (q.city) expect(c.city).toBe(q.city)
      }
    }
  })

  test("the shortlist is ranked by fit, and fit is the documented weighted sum shrunk toward the prior by the creator's posts", async () => {
    const d = await api.data(ID, { category: 'outdoor', industry: 'outdoor' })
    expect(d.shortlist.map((c: any) => c.rank)).toEqual(d.shortlist.map((_: unknown, i: number) => i + 1))
    const fits = d.shortlist.map((c: any) => c.fit_score)
    expect(fits).toEqual([...fits].sort((a, b) => b - a))
    for (const c of d.shortlist) {
      const w = KOL.fitWeights
      const raw = Math.min(
        1,
        w.relevance * c.fit.relevance +
          w.quality * c.fit.engagement_quality +
          w.activity * c.fit.activity +
          w.reach * c.fit.reach +
          (c.fit.industry_match ? KOL.industryBonus : 0),
      )
      expect(c.fit.reach).toBeCloseTo(
        Math.min(1, Math.max(0, Math.log(c.followers / KOL.reachFrom) / Math.log(KOL.reachFull / KOL.reachFrom))),
        2,
      )
      const n = c.engagement.posts
      expect(c.fit_score).toBeCloseTo((n * raw + KOL.priorPosts * KOL.prior) / (n + KOL.priorPosts), 1)
      expect(c.fit.industry_match).toBe(true)
    }
  })

  test('engagement rate and posts of a creator equal their posts in the Parquet', async () => {
    const d = await api.data(ID, { category: 'outdoor', platform: 'wechat' })
    const c = d.shortlist[0]
    const posts = await corpus.rows<{ e: number; f: number; category: string }>(
      `SELECT (likes + comments + shares)::INT AS e, author_followers AS f, category FROM evidence
        WHERE retrieval = 'native' AND platform = 'wechat' AND author = $1 AND published_at >= $2`,
      [c.handle, FROM],
    )
    expect(c.engagement.posts).toBe(posts.length)
    // 'outdoor' names the weekly category outdoor-sports; its posts are filed under it.
    expect(c.engagement.matching_posts).toBe(posts.filter((p) => p.category === 'outdoor-sports').length)
    expect(c.engagement.engagement_rate_pct).toBeCloseTo(100 * median(posts.map((p) => p.e / p.f)), 1)
  })

  test('creators with bought-looking posts (likes without comments) are flagged and lose engagement quality', async () => {
    const suspicious = await corpus.rows<{ author: string; platform: string }>(
      `SELECT DISTINCT author, platform FROM evidence WHERE retrieval = 'native' AND published_at >= $1 AND category = 'beauty'
          AND likes >= 50 AND comments < $2 * likes`,
      [FROM, KOL.minCommentRatio],
    )
    expect(suspicious.length).toBeGreaterThan(0)
    const d = await api.data(ID, { category: 'beauty' })
    const flaggedInCorpus = new Set(suspicious.map((s) => `${s.platform}|${s.author}`))
    for (const c of d.shortlist) {
      const key = `${c.platform}|${c.handle}`
      expect(c.engagement.flags.includes('low_comment_ratio')).toBe(flaggedInCorpus.has(key))
      if (c.engagement.flags.length) expect(c.recommendation).toContain('Check before booking')
      const outlier = c.engagement.flags.includes('engagement_rate_outlier')
      expect(outlier).toBe(c.engagement.vs_tier_median !== null && c.engagement.vs_tier_median > KOL.outlierFactor)
      const base = c.engagement.vs_tier_median === null || outlier ? 0.5 : Math.min(1, c.engagement.vs_tier_median / 2)
      expect(c.engagement.quality_score).toBeCloseTo(Math.max(0, base - KOL.flagPenalty * c.engagement.flags.length), 1)
    }
  })

  test('a city in Chinese is the same filter as in English, and is echoed in English', async () => {
    const zh = await api.data(ID, { category: '家居', city: '上海' })
    const en = await api.data(ID, { category: 'home living', city: 'shanghai' })
    expect(zh.filters.city).toBe('Shanghai')
    expect(zh.shortlist).toEqual(en.shortlist)
  })

  test('filters that leave no creator are a free 404 that says how many candidates there were', async () => {
    const proof = await api.proof(ID)
    const a = await api.paid(ID, { category: 'outdoor', city: 'Lhasa', tier: 'mega' }, proof)
    expect(a.status).toBe(404)
    expect(a.body.error.details).toMatchObject({ parameter: 'filters' })
    expect(a.body.error.details.candidates_considered).toBeGreaterThan(0)
    expect(await api.ledgerState(proof)).toBe('failed')
  })

  test('a category nobody posts about is a free 404 naming the category', async () => {
    const a = await api.paid(ID, { category: 'shipbuilding' })
    expect(a.status).toBe(404)
    expect(a.body.error.details.parameter).toBe('category')
  })

  test.each([
    [{ category: 'outdoor', tier: 'giant' }, 'tier'],
    [{ category: 'outdoor', budget_band: 'huge' }, 'budget_band'],
    [{ category: 'outdoor', platform: 'weibo' }, 'platform'],
    [{ category: '  ' }, 'category'],
    [{ category: 'outdoor', limit: 5 }, 'limit'],
  ] as [Query, string][])('%j is a free 400 naming %s', async (q, parameter) => {
    expectClientError(await api.free(ID, q), 400, parameter)
  })
})

describe('coherent with the weekly creator ranking', () => {
  const LAST_WEEK = async () => (await corpus.one<{ w: string }>(`SELECT max(week_start) AS w FROM signal_creators`)).w

  test.each(['beauty', 'pets', 'travel', 'automotive'])(
    'the weekly top 3 of %s are named beside the shortlist, each a candidate, ranked where the shortlist ranks them',
    async (category) => {
      const d = await api.data(ID, { category })
      const top = await corpus.rows<{ handle: string }>(
        `SELECT creator_handle AS handle FROM signal_creators WHERE category = $1 AND week_start = $2 ORDER BY engagement + views / 10 DESC, creator_handle LIMIT 3`,
        [category, await LAST_WEEK()],
      )
      expect(d.weekly_top_creators.map((c: { handle: string }) => c.handle)).toEqual(top.map((t) => t.handle))
      for (const c of d.weekly_top_creators) {
        expect([c.handle, c.standing]).not.toEqual([c.handle, 'not_a_candidate'])
        const at = d.shortlist.findIndex((s: { handle: string }) => s.handle === c.handle)
        if (c.standing === 'shortlisted') expect(c.shortlist_rank).toBe(at + 1)
        else expect(at).toBe(-1)
      }
    },
  )

  test("industry_match is true exactly when most of the creator's posts in the window are in the category", async () => {
    const d = await api.data(ID, { category: 'pets', platform: 'douyin' })
    expect(d.shortlist.length).toBeGreaterThan(3)
    for (const c of d.shortlist) {
      const { share } = await corpus.one<{ share: number }>(
        `SELECT avg(CASE WHEN category = 'pets' THEN 1 ELSE 0 END) AS share FROM evidence
          WHERE retrieval = 'native' AND platform = 'douyin' AND author = $1 AND published_at >= $2`,
        [c.handle, FROM],
      )
      expect([c.handle, c.fit.industry_match]).toEqual([c.handle, share > 0.5])
    }
  })
})
