/**
 * The wrappers' verdicts on constructed leg outcomes (pure functions, no corpus): actions and confidence
 * follow the documented rules and agree with the evidence the legs returned.
 */
import { describe, expect, test } from 'bun:test'
import { KOL_SHORTLIST, MOMENTUM_POINTS, VISIBILITY_BANDS, VISIBILITY_WEIGHTS } from '../../src/catalog/routes/capabilities'
import { CONFIDENCE } from '../../src/catalog/evidence-rules'
import { kolAnswer } from '../../src/capabilities/kol-shortlist'
import type { LegOutcome } from '../../src/capabilities/legs'
import { visibilityAction, visibilityAnswer, weeklyStanding } from '../../src/capabilities/visibility'

function leg(name: string, data: unknown, o: Partial<LegOutcome> = {}): LegOutcome {
  return {
    name,
    route: `/v1/${name}`,
    price_usd: '0.10',
    required: false,
    status: data ? 'ran' : 'failed',
    ...(data ? { data } : { reason: 'upstream_timeout: the provider did not answer' }),
    ...o,
  }
}

const trends = (momentum: string, volume_change_pct: number, volume_z: number, confidence = 0.6) => ({
  summary: { momentum, confidence, headline: `"Brand" is ${momentum}.` },
  momentum_detail: { volume_change_pct, volume_z },
  content_angles: [],
  evidence_mode: 'native',
})
const sentiment = (net_score: number, label: string, confidence = 0.8) => ({ summary: { net_score, label, confidence }, frames: [] })
const weekly = {
  visibility_score: 95,
  rank_positions: { brand_visibility: 1, brand_seeding: 1 },
  brands_ranked: 10,
  category: 'beauty',
  snapshot_week: '2026-11-09',
}

const visibility = (t: unknown, s: unknown, w: unknown = weekly) =>
  visibilityAnswer('Brand', {
    trends: leg('trends', t, { required: true }),
    sentiment: leg('sentiment', s),
    weekly_brand_snapshot: leg('weekly_brand_snapshot', w),
  })

describe('weekly standing', () => {
  test('is 100 for the leader, 0 for the last and linear between; a lone brand leads', () => {
    expect([weeklyStanding(1, 10), weeklyStanding(10, 10), weeklyStanding(5, 9), weeklyStanding(1, 1)]).toEqual([100, 0, 50, 100])
  })
})

describe('visibility verdict', () => {
  test('score bands: amplify, fix_gaps, rebuild; any hold-back turns amplify into fix_gaps', () => {
    expect(visibilityAction(VISIBILITY_BANDS.amplify, []).action).toBe('amplify')
    expect(visibilityAction(VISIBILITY_BANDS.amplify - 1, []).action).toBe('fix_gaps')
    expect(visibilityAction(VISIBILITY_BANDS.fixGaps - 1, []).action).toBe('rebuild')
    expect(visibilityAction(99, ['net sentiment is -5'])).toEqual({
      action: 'fix_gaps',
      reason: 'Score 99, but net sentiment is -5: address that before scaling.',
    })
  })

  test('net-negative sentiment never amplifies, and the gaps say the sentiment is negative', () => {
    // The buyer's case: rising, top of the weekly ranking, net -33: a high score that must not read "scale it".
    const d = visibility(trends('rising', 80, 3.2), sentiment(-33, 'negative'))
    expect(d.score).toBe(Math.round(0.3 * 100 + 0.3 * ((-33 + 100) / 2) + 0.4 * weeklyStanding(1, 10)))
    expect(d.score).toBeGreaterThanOrEqual(VISIBILITY_BANDS.amplify)
    expect(d.recommendation.action).toBe('fix_gaps')
    expect(d.recommendation.reason).toContain('net sentiment is -33')
    expect(d.gaps.join(' ')).toContain('Sentiment is negative: net -33')

    const mixed = visibility(trends('rising', 80, 3.2), sentiment(-5, 'mixed'))
    expect(mixed.recommendation.action).toBe('fix_gaps')
    expect(mixed.gaps.join(' ')).toContain('net-negative (mixed): net -5')
  })

  test('a stable call whose volume change is within noise is no strength: it scores as insufficient evidence and holds back amplify', () => {
    const d = visibility(trends('stable', 68, 1.4), sentiment(60, 'positive'))
    const w = VISIBILITY_WEIGHTS
    expect(d.score).toBe(
      Math.round(w.momentum * MOMENTUM_POINTS.insufficient_evidence + w.sentiment * 80 + w.weekly * weeklyStanding(1, 10)),
    )
    expect(d.recommendation.action).toBe('fix_gaps')
    expect(d.recommendation.reason).toContain('within count noise')
    expect(d.strengths.join(' ')).not.toContain('stable')
    // A genuinely flat conversation with everything else strong still amplifies.
    const flat = visibility(trends('stable', 5, 0.3), sentiment(60, 'positive'))
    expect(flat.score).toBe(Math.round(w.momentum * MOMENTUM_POINTS.stable + w.sentiment * 80 + w.weekly * weeklyStanding(1, 10)))
    expect(flat.recommendation.action).toBe('amplify')
  })

  test('falling or unmeasured momentum holds back amplify', () => {
    expect(visibility(trends('falling', -60, -3), sentiment(90, 'positive')).recommendation.action).not.toBe('amplify')
    expect(visibility(trends('insufficient_evidence', 0, 0), sentiment(90, 'positive')).recommendation.action).not.toBe('amplify')
  })

  test('without the sentiment leg: no amplify, and confidence drops by the weight share that did not answer', () => {
    const full = visibility(trends('rising', 80, 3.2, 0.6), sentiment(60, 'positive', 0.9))
    expect(full.recommendation.action).toBe('amplify')
    expect(full.confidence).toBe(0.6)
    const failed = visibility(trends('rising', 80, 3.2, 0.6), null)
    expect(failed.score).toBeGreaterThanOrEqual(VISIBILITY_BANDS.amplify)
    expect(failed.recommendation.action).toBe('fix_gaps')
    expect(failed.recommendation.reason).toContain('sentiment could not be read')
    expect(failed.confidence).toBe(Math.round(0.6 * (VISIBILITY_WEIGHTS.momentum + VISIBILITY_WEIGHTS.weekly) * 100) / 100)
    const skipped = visibilityAnswer('Brand', {
      trends: leg('trends', trends('rising', 80, 3.2, 0.6), { required: true }),
      sentiment: leg('sentiment', null, { status: 'skipped' }),
    })
    expect(skipped.confidence).toBe(Math.round(0.6 * VISIBILITY_WEIGHTS.momentum * 100) / 100)
    expect(skipped.recommendation.action).not.toBe('amplify')
  })
})

describe('KOL shortlist verdict', () => {
  const creator = (i: number) => ({
    handle: `creator-${i}`,
    platform: 'douyin',
    city: 'Shanghai',
    followers: 50_000,
    tier: 'micro',
    fit_score: 0.8,
    engagement: { engagement_rate_pct: 3, vs_tier_median: 1.5, quality_score: 0.75, flags: [] },
    estimated_cost: { band: 'low', cny_low: 2100, cny_high: 3900 },
    recommendation: 'Strong fit',
  })
  const kols = { shortlist: Array.from({ length: 10 }, (_, i) => creator(i)), candidates_considered: 40, category: 'outdoor' }
  const answer = (brand: unknown) =>
    kolAnswer('Brand', 'outdoor', { kols: leg('kols', kols, { required: true }), brand_sentiment: leg('brand_sentiment', brand) })

  test('ten clean, well-fitting creators and a favourable brand: proceed', () => {
    const d = answer(sentiment(30, 'positive'))
    expect(d.recommendation.action).toBe('proceed')
    expect(d.confidence).toBe(1)
  })

  test('the same shortlist of generated sample creators keeps the sample share of its confidence', () => {
    const d = kolAnswer('Brand', 'outdoor', {
      kols: leg('kols', { ...kols, sample: true }, { required: true }),
      brand_sentiment: leg('brand_sentiment', { ...sentiment(30, 'positive'), sample: true }),
    })
    expect(d.recommendation.action).toBe('proceed')
    expect(d.confidence).toBe(CONFIDENCE.sampleShare)
  })

  test('the brand sentiment leg failed: proceed_with_checks, confidence capped, and a risk says why', () => {
    // The buyer's case: "proceed" at 0.9 with the brand side unread.
    const d = answer(null)
    expect(d.recommendation.action).toBe('proceed_with_checks')
    expect(d.recommendation.reason).toContain('brand sentiment unread')
    expect(d.confidence).toBeLessThanOrEqual(KOL_SHORTLIST.confidence.capWithoutBrand)
    expect(d.risks.join(' ')).toContain(`confidence is capped at ${KOL_SHORTLIST.confidence.capWithoutBrand}`)
  })

  test('net-negative brand sentiment prevents plain proceed', () => {
    for (const [net, label] of [
      [-20, 'negative'],
      [-4, 'mixed'],
    ] as const) {
      const d = answer(sentiment(net, label))
      expect(d.recommendation.action).toBe('proceed_with_checks')
      expect(d.recommendation.reason).toContain(`brand sentiment net ${net}`)
      expect(d.risks.join(' ')).toContain(`(net ${net})`)
    }
  })
})
