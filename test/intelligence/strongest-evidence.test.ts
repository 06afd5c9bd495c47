/**
 * A verdict uses the strongest evidence the service holds: on the sample world, Home fragrance's sampled
 * evidence (78 vs 64 items over 30 days) reads stable while the weekly topic ranking counts 936 vs 643 posts
 * a week (+45.6%); a category's weekly leading creators stand below its KOL shortlist, and the answer says
 * which ranking to trust for what.
 */
import { expect, test } from 'bun:test'
import { WEEKLY_DECIDES_RATIO } from '../../src/catalog/evidence-rules'
import { startApi } from '../../support/api-during-tests'
import type { Client as Api } from '../../support/paying-client'

let api: Api
startApi((client) => (api = client))

test(`the weekly ranking decides a trend's direction where it counts ${WEEKLY_DECIDES_RATIO}x the evidence and reads otherwise; the evidence's own reading stays in momentum_detail`, async () => {
  const d = await api.data('china.trends', { keyword: 'Home fragrance', timeframe: '30d' })
  expect(d.weekly_ranking).toMatchObject({ direction: 'rising', agrees: false })
  expect(d.summary).toMatchObject({ momentum: 'rising', momentum_source: 'weekly_ranking' })
  expect(d.summary.headline).toStartWith('"Home fragrance" is rising on all three platforms by its weekly topic ranking: 936 posts a week')
  expect(d.summary.headline).toContain('The evidence alone: "Home fragrance" is stable')
  expect(d.momentum_detail.recent.items + d.momentum_detail.prior.items).toBeLessThan(d.weekly_ranking.recent.per_week)
  // Where the two agree, the evidence's reading is the answer's, as before.
  const agreeing = await api.data('china.trends', { keyword: 'quiet luxury', timeframe: '7d' })
  expect(agreeing.summary).toMatchObject({ momentum: 'rising', momentum_source: 'evidence' })
})

test('a KOL shortlist whose weekly leaders are not on it says what kept them out and which ranking to trust for what', async () => {
  const d = await api.data('china.kols', { category: 'beauty' })
  const below = d.weekly_top_creators.filter((c: { standing: string }) => c.standing === 'below_shortlist')
  expect(below.length).toBeGreaterThan(0)
  for (const leader of below) expect(leader.behind_on.length).toBeGreaterThan(0)
  expect(d.summary).toContain(`${below[0].handle} (weekly #${below[0].weekly_rank}) stands ${below[0].shortlist_rank}`)
  expect(d.summary).toContain('For reach, trust the weekly ranking; for whom to book on this category, this shortlist.')
  // All leaders shortlisted: nothing to explain.
  const outdoor = await api.data('china.kols', { category: 'outdoor' })
  expect(outdoor.weekly_top_creators.every((c: { standing: string }) => c.standing === 'shortlisted')).toBe(true)
  expect(outdoor.summary).not.toContain('trust the weekly ranking')
})
