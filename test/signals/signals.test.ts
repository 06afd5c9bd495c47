/**
 * The weekly signal routes against an independent DuckDB reading the shipped Parquet files: the
 * expected rankings, figures and weeks never come from the code under test.
 */
import { describe, expect, test } from 'bun:test'
import { RANK_TYPES } from '../../src/catalog/routes/signals'
import { startApiAndReader } from '../../support/api-during-tests'
import type { Parquet } from '../../support/parquet'
import { type Client, expectClientError, expectDocumentedData, expectPaidEnvelope, route, type Query } from '../../support/paying-client'

const LATEST = '2026-11-09'
const FIRST = '2025-09-22'
let api: Client
let pq: Parquet
startApiAndReader((client, reader) => ([api, pq] = [client, reader]))

const SAMPLES: [string, Query][] = [
  ['signals.creators.rankings', { category: 'travel' }],
  ['signals.topics.rankings', { category: 'outdoor-sports' }],
  ['signals.brands.rankings', { category: 'beauty' }],
  ['signals.brands.snapshot', { brand_slug: 'aurora-skin' }],
  ['signals.categories.snapshot', { category_slug: 'beauty' }],
]

describe('every signals route', () => {
  test.each(SAMPLES)('%s: paid envelope, documented fields, sample label, latest week', async (id, query) => {
    const a = await api.paid(id, query)
    expectPaidEnvelope(a, route(id))
    expectDocumentedData(route(id), a.body.data)
    expect(a.body.data.week_start).toBe(LATEST)
    expect(a.body.data.week_end).toBe('2026-11-15')
    expect(a.body.data.freshness).toBe('weekly_manual')
    for (const dq of [a.body.data.data_quality].flat()) {
      expect(dq.sample).toBe(true)
      expect(dq.notice).toMatch(/generated.*sample.*not real/i)
      expect(dq.dataset).toMatch(/^signal_(creators|topics|brands)$/)
      expect(dq.source_period).toEqual({ from: FIRST, to: '2026-11-15' })
    }
  })
})

describe('brand rankings', () => {
  test('one row per brand, platforms combined, ranked by reach with documented scores', async () => {
    const data = await api.data('signals.brands.rankings', { category: 'beauty', limit: 100 })
    const expected = await pq.rows<{ brand_slug: string; reach: number; platforms: number }>(
      `SELECT brand_slug, SUM(reach)::BIGINT AS reach, count(*)::INTEGER AS platforms FROM signal_brands
        WHERE category = 'beauty' AND week_start = $1 GROUP BY brand_slug ORDER BY reach DESC, brand_slug`,
      [LATEST],
    )
    expect(expected.some((e) => e.platforms > 1)).toBe(true) // the raw file has several rows per brand
    expect(data.rows.map((r: any) => r.brand_slug)).toEqual(expected.map((e) => e.brand_slug))
    expect(data.rows.map((r: any) => r.reach)).toEqual(expected.map((e) => e.reach))
    expect(data.rows.map((r: any) => r.rank)).toEqual(expected.map((_, i) => i + 1))
    expect(data.total_ranked).toBe(expected.length)
    const top = expected[0]!.reach
    expect(data.rows.map((r: any) => r.score)).toEqual(expected.map((e) => Math.round((e.reach / top) * 1000) / 10))
  })

  test('movement compares with the same ranking of the week before', async () => {
    const now = await api.data('signals.brands.rankings', { category: 'fashion', rank_type: 'brand_seeding', limit: 100 })
    const before = await api.data('signals.brands.rankings', {
      category: 'fashion',
      rank_type: 'brand_seeding',
      week_start: '2026-11-02',
      limit: 100,
    })
    const previous = new Map(before.rows.map((r: any) => [r.brand_slug, r.rank]))
    for (const r of now.rows) {
      expect(r.previous_rank).toBe(previous.get(r.brand_slug) ?? null)
      if (r.previous_rank !== null) {
        expect(r.rank_change).toBe(r.previous_rank - r.rank)
        expect(r.movement).toBe(r.rank_change > 0 ? 'up' : r.rank_change < 0 ? 'down' : 'unchanged')
      } else expect(r.movement).toBe('new')
    }
    // The first published week has nothing to compare with.
    const first = await api.data('signals.brands.rankings', { category: 'fashion', week_start: FIRST })
    expect(first.rows.every((r: any) => r.movement === null && r.previous_rank === null)).toBe(true)
  })

  test('brand_momentum: mentions change with a documented minimum base', async () => {
    const data = await api.data('signals.brands.rankings', { category: 'luxury', rank_type: 'brand_momentum', limit: 100 })
    const rows = await pq.rows<{ brand_slug: string; now: number; before: number }>(
      `SELECT brand_slug, SUM(mentions) FILTER (WHERE week_start = $1)::INTEGER AS now, SUM(mentions) FILTER (WHERE week_start = '2026-11-02')::INTEGER AS before
         FROM signal_brands WHERE category = 'luxury' GROUP BY brand_slug HAVING now IS NOT NULL`,
      [LATEST],
    )
    const qualified = rows.filter((r) => r.before !== null && r.before >= 20)
    expect(data.total_ranked).toBe(qualified.length)
    for (const r of data.rows) {
      const e = qualified.find((q) => q.brand_slug === r.brand_slug)!
      expect(r.value).toBe(Math.round(((e.now - e.before) / e.before) * 1000) / 10)
    }
  })

  test('limit: default 20, the given number, at most 100', async () => {
    const three = await api.data('signals.brands.rankings', { category: 'fashion', limit: 3 })
    expect(three.rows).toHaveLength(3)
    expect(three.total_ranked).toBeGreaterThan(3)
    expectClientError(await api.free('signals.brands.rankings', { category: 'fashion', limit: 101 }), 400, 'limit')
  })
})

describe('creator and topic rankings', () => {
  test('influence = engagement + views / 10; engagement_rate only above 1,000 views', async () => {
    const creators = await pq.rows<{ creator_handle: string; engagement: number; views: number }>(
      `SELECT creator_handle, engagement, views FROM signal_creators WHERE category = 'pets' AND week_start = $1`,
      [LATEST],
    )
    const influence = await api.data('signals.creators.rankings', { category: 'pets', limit: 100 })
    const expected = creators
      .map((c) => ({ id: c.creator_handle, v: c.engagement + c.views / 10 }))
      .sort((a, b) => b.v - a.v || (a.id < b.id ? -1 : 1))
    expect(influence.rows.map((r: any) => r.creator_handle)).toEqual(expected.map((e) => e.id))
    expect(influence.rank_type).toBe('influence')

    const rate = await api.data('signals.creators.rankings', { category: 'pets', rank_type: 'engagement_rate', limit: 100 })
    expect(rate.total_ranked).toBe(creators.filter((c) => c.views >= 1000).length)
    for (const r of rate.rows) expect(r.value).toBe(Math.round((r.engagement / r.views) * 10_000) / 10_000)
  })

  test('topic momentum ranks the change in posts against the week before, all platforms combined', async () => {
    const data = await api.data('signals.topics.rankings', { category: 'travel', limit: 100 })
    const rows = await pq.rows<{ topic_slug: string; now: number; before: number }>(
      `SELECT topic_slug, SUM(posts) FILTER (WHERE week_start = $1)::INTEGER AS now, SUM(posts) FILTER (WHERE week_start = '2026-11-02')::INTEGER AS before
         FROM signal_topics WHERE category = 'travel' GROUP BY topic_slug`,
      [LATEST],
    )
    const expected = rows
      .filter((r) => r.before >= 50)
      .map((r) => ({ id: r.topic_slug, v: Math.round(((r.now - r.before) / r.before) * 1000) / 10 }))
      .sort((a, b) => b.v - a.v || (a.id < b.id ? -1 : 1))
    expect(data.rows.map((r: any) => [r.topic_slug, r.value])).toEqual(expected.map((e) => [e.id, e.v]))
    expect(data.rows[0].score).toBe(100)
    expect(data.rows.at(-1).score).toBe(0) // a signed metric is scored between the lowest and the highest
  })

  test('an unknown rank_type is a free 400 that lists the documented ones', async () => {
    const a = await api.free('signals.topics.rankings', { category: 'travel', rank_type: 'brand_visibility' })
    expectClientError(a, 400, 'rank_type')
    expect(a.body.error.details.allowed).toEqual(Object.keys(RANK_TYPES.topics))
  })
})

describe('category names', () => {
  test('a category asked by its Chinese name, English name or a synonym is the slug: same rankings, answered with the slug', async () => {
    const slug = await api.data('signals.topics.rankings', { category: 'beauty' })
    for (const category of ['美妆', '美妆护肤', 'Beauty & skincare', 'skincare']) {
      const d = await api.data('signals.topics.rankings', { category })
      expect([category, d.category, d.rows]).toEqual([category, 'beauty', slug.rows])
    }
    expect((await api.data('signals.categories.snapshot', { category_slug: '汽车' })).category).toBe('automotive')
  })

  test('a category that names none of them is a free 400 listing the slugs, on every signals route that takes one', async () => {
    for (const id of ['signals.creators.rankings', 'signals.topics.rankings', 'signals.brands.rankings']) {
      const a = await api.free(id, { category: 'shipbuilding' })
      expectClientError(a, 400, 'category')
      expect(a.body.error.details.allowed).toContain('beauty')
    }
    expectClientError(await api.free('signals.brands.snapshot', { brand_slug: 'aurora-skin', category: '造船' }), 400, 'category')
  })
})

describe('weeks', () => {
  test('week_start, week_end or both name the same week; neither means the latest', async () => {
    const byStart = await api.data('signals.topics.rankings', { category: 'gaming', week_start: '2026-03-02' })
    const byEnd = await api.data('signals.topics.rankings', { category: 'gaming', week_end: '2026-03-08' })
    const both = await api.data('signals.topics.rankings', { category: 'gaming', week_start: '2026-03-02', week_end: '2026-03-08' })
    expect(byEnd).toEqual(byStart)
    expect(both).toEqual(byStart)
    expect(byStart.week_end).toBe('2026-03-08')
  })

  test.each([
    ['a Tuesday as week_start', { week_start: '2026-11-10' }, 400, 'week_start', /Tuesday.*starts 2026-11-09/],
    ['a Saturday as week_end', { week_end: '2026-11-14' }, 400, 'week_end', /Saturday.*ends 2026-11-15/],
    ['start and end of different weeks', { week_start: '2026-11-02', week_end: '2026-11-15' }, 400, 'week_end', /not the same week/],
    ['a date that does not exist', { week_start: '2026-02-30' }, 400, 'week_start', /week_start.*format/],
    ['a week before the first published one', { week_start: '2025-09-15' }, 404, 'week_start', /not published.*2025-09-22 to 2026-11-09/],
    ['a week not published yet', { week_start: '2026-11-16' }, 404, 'week_start', /not published/],
  ] as const)('%s: a free client error', async (_, week, status, parameter, message) => {
    const a = await api.free('signals.creators.rankings', { category: 'beauty', ...week })
    expectClientError(a, status, parameter)
    expect(a.body.error.message).toMatch(message)
  })
})

describe('brand snapshot', () => {
  test('the spec fields, consistent with the rankings of the same week', async () => {
    const data = await api.data('signals.brands.snapshot', { brand_slug: 'aurora-skin', week_start: '2026-10-12' })
    expect(data.brand_slug).toBe('aurora-skin')
    expect(data.brand_name).toBe('Aurora Skin')
    expect(data.category).toBe('beauty')
    expect(data.snapshot_week).toBe('2026-10-12 to 2026-10-18')
    expect(Number.isInteger(data.visibility_score)).toBe(true)
    for (const rankType of Object.keys(RANK_TYPES.brands)) {
      const r = await api.data('signals.brands.rankings', { category: 'beauty', rank_type: rankType, week_start: '2026-10-12', limit: 100 })
      const row = r.rows.find((x: any) => x.brand_slug === 'aurora-skin')
      expect(data.rank_positions[rankType]).toBe(row?.rank)
      if (rankType === 'brand_visibility') expect(data.visibility_score).toBe(Math.round(row.score))
    }
    expect(data.rank_positions.brand_visibility).toBeGreaterThan(0)
    expect(data.rank_positions.brand_seeding).toBeGreaterThan(0)
    expect(data.summary).toContain(`#${data.rank_positions.brand_visibility}`)
    expect(data.freshness_detail.weeks_behind_latest).toBe(4)
    const platforms = await pq.rows<{ platform: string; reach: number }>(
      `SELECT platform, reach FROM signal_brands WHERE brand_slug = 'aurora-skin' AND category = 'beauty' AND week_start = '2026-10-12' ORDER BY reach DESC`,
    )
    expect(data.platforms.map((p: any) => [p.platform, p.reach])).toEqual(platforms.map((p) => [p.platform, p.reach]))
  })

  test('a brand covered in two categories: its main category by default, the other on request', async () => {
    const main = await api.data('signals.brands.snapshot', { brand_slug: 'maison-verlaine' })
    expect(main.category).toBe('luxury')
    expect(main.other_categories).toEqual(['fashion'])
    const fashion = await api.data('signals.brands.snapshot', { brand_slug: 'maison-verlaine', category: 'fashion' })
    expect(fashion.category).toBe('fashion')
    expect(fashion.metrics.reach).toBeLessThan(main.metrics.reach)
  })

  test('unknown brand, or a category the brand is not in: free 404; a malformed slug: free 400', async () => {
    expectClientError(await api.free('signals.brands.snapshot', { brand_slug: 'no-such-brand' }), 404, 'brand_slug')
    expectClientError(await api.free('signals.brands.snapshot', { brand_slug: 'aurora-skin', category: 'gaming' }), 404, 'category')
    expectClientError(await api.free('signals.brands.snapshot', { brand_slug: 'Aurora_Skin' }), 400, 'brand_slug')
  })
})

describe('category snapshot', () => {
  test('blends the leaders of the three rankings of the week', async () => {
    const data = await api.data('signals.categories.snapshot', { category_slug: 'food-beverage', week_start: '2026-06-15' })
    const top = async (id: string, rank_type: string) =>
      (await api.data(id, { category: 'food-beverage', rank_type, week_start: '2026-06-15', limit: 5 })).rows
    expect(data.top_brands.map((b: any) => b.brand_slug)).toEqual(
      (await top('signals.brands.rankings', 'brand_visibility')).map((r: any) => r.brand_slug),
    )
    expect(data.top_creators.map((c: any) => c.creator_handle)).toEqual(
      (await top('signals.creators.rankings', 'influence')).map((r: any) => r.creator_handle),
    )
    expect(data.top_topics.map((t: any) => t.topic_slug)).toEqual(
      (await top('signals.topics.rankings', 'momentum')).map((r: any) => r.topic_slug),
    )
    expect(data.top_topics_rank_type).toBe('momentum')
    expect(data.category_name_zh).toBe('美食饮品')
    expect(data.highlights.length).toBeGreaterThan(0)
    expect(data.data_quality.map((d: any) => d.dataset)).toEqual(['signal_creators', 'signal_topics', 'signal_brands'])
    const { posts } = await pq.one<{ posts: number }>(
      `SELECT SUM(posts)::INTEGER AS posts FROM signal_topics WHERE category = 'food-beverage' AND week_start = '2026-06-15'`,
    )
    expect(data.totals.topic_posts).toBe(posts)
  })

  test('the first published week ranks topics by volume (no week before for momentum)', async () => {
    const data = await api.data('signals.categories.snapshot', { category_slug: 'beauty', week_start: FIRST })
    expect(data.top_topics_rank_type).toBe('volume')
    expect(data.top_topics).toHaveLength(5)
  })

  test('an unknown category is a free 404 listing the documented ones', async () => {
    const a = await api.free('signals.categories.snapshot', { category_slug: 'shipbuilding' })
    expectClientError(a, 404, 'category_slug')
    expect(a.body.error.details.known).toContain('beauty')
  })
})
