/**
 * The four trends routes on the embedded sample corpus. Counts are checked against a separate DuckDB
 * reading datasets/evidence.parquet directly, never against the code under test.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { CONFIDENCE, MOMENTUM, STRONG_NATIVE_EVIDENCE, THIN_EVIDENCE } from '../../src/catalog/evidence-rules'
import { ABOUT_CAMPING } from '../../support/china-evidence'
import { expectCachedOnRepeat, startApiAndReader } from '../../support/api-during-tests'
import type { Parquet as Corpus } from '../../support/parquet'
import type { Client as Api, Query } from '../../support/paying-client'
import { expectClientError, expectDocumentedData, expectPaidEnvelope, route } from '../../support/paying-client'

let api: Api
let corpus: Corpus
startApiAndReader((client, reader) => ([api, corpus] = [client, reader]))

const AS_OF = '2026-11-16T00:00:00Z'
const daysBefore = (n: number) => new Date(Date.parse(AS_OF) - n * 86_400_000).toISOString().replace('.000Z', 'Z')

/** Native items of a platform about camping, published in [from, to). */
async function nativeCamping(platform: string, from: string, to: string): Promise<number> {
  const [r] = await corpus.rows<{ n: number }>(
    `SELECT count(*)::INT AS n FROM evidence WHERE platform = $1 AND retrieval = 'native' AND published_at >= $2 AND published_at < $3 AND ${ABOUT_CAMPING}`,
    [platform, from, to],
  )
  return r!.n
}

/** All-platform weekly posts of a topic in the last four published weeks against the four before (signal_topics). */
async function weeklyRatios(): Promise<{ slug: string; name: string; ratio: number; posts: number }[]> {
  return corpus.rows(
    `SELECT topic_slug AS slug, any_value(topic_name) AS name,
            SUM(posts) FILTER (WHERE week_start >= '2026-10-19') / SUM(posts) FILTER (WHERE week_start < '2026-10-19') AS ratio, SUM(posts)::INT AS posts
       FROM signal_topics WHERE week_start >= '2026-09-21' GROUP BY topic_slug ORDER BY ratio DESC`,
  )
}

const SAMPLES: [string, Query][] = [
  ['china.trends', { keyword: '露营' }],
  ['china.trends.xiaohongshu', { keyword: '露营' }],
  ['china.trends.douyin', { keyword: 'smart driving', timeframe: '90d' }],
  ['china.trends.wechat', { keyword: '飞盘', timeframe: '60d' }],
]

describe('every trends route on the sample corpus', () => {
  const answers = new Map<string, any>()
  beforeAll(async () => {
    for (const [id, q] of SAMPLES) answers.set(id, await api.paid(id, q))
  })

  test.each(SAMPLES.map(([id]) => id))('%s answers 200 with the paid envelope and every documented field', (id) => {
    const a = answers.get(id)
    expectPaidEnvelope(a, route(id))
    expectDocumentedData(route(id), a.body.data)
  })

  test.each(SAMPLES.map(([id]) => id))('%s says its evidence is the generated sample and names the corpus as provider', (id) => {
    const q = answers.get(id).body.data.data_quality
    expect(q.sample).toBe(true)
    expect(q.notice).toMatch(/generated/i)
    expect(q.notice).toMatch(/fictional/i)
    expect(q.dataset).toBe('evidence')
    expect(q.source_period).toEqual({ from: '2025-09', to: '2026-11' })
    expect(q.providers.length).toBeGreaterThan(0)
    expect(q.providers.every((p: { provider: string }) => p.provider === 'sample-corpus')).toBe(true)
  })

  test('the forced routes echo their platform; the general route without one merges all three lanes', () => {
    expect(answers.get('china.trends').body.data.platform).toBe('all')
    expect(answers.get('china.trends').body.data.evidence.lanes.map((l: { platform: string }) => l.platform)).toEqual([
      'xiaohongshu',
      'douyin',
      'wechat',
    ])
    expect(answers.get('china.trends.wechat').body.data.platform).toBe('wechat')
    expect(answers.get('china.trends.wechat').body.data.evidence.lanes).toHaveLength(1)
  })
})

describe('momentum from the evidence time series', () => {
  test('the topic whose weekly posts rose most reads rising, and the one that fell most reads falling (30 days)', async () => {
    const ratios = (await weeklyRatios()).filter((r) => r.posts >= 3000)
    const [riser, faller] = [ratios[0]!, ratios.at(-1)!]
    expect(riser.ratio).toBeGreaterThan(1.6)
    expect(faller.ratio).toBeLessThan(0.65)
    const rising = await api.data('china.trends', { keyword: riser.name, timeframe: '30d' })
    const falling = await api.data('china.trends', { keyword: faller.name, timeframe: '30d' })
    expect([rising.resolved.id, rising.summary.momentum]).toEqual([`topic:${riser.slug}`, 'rising'])
    expect([falling.resolved.id, falling.summary.momentum]).toEqual([`topic:${faller.slug}`, 'falling'])
    expect(rising.momentum_detail.score).toBeGreaterThanOrEqual(MOMENTUM.threshold)
    expect(falling.momentum_detail.score).toBeLessThanOrEqual(-MOMENTUM.threshold)
  })

  test('a topic whose weekly posts stayed flat reads stable', async () => {
    const flat = (await weeklyRatios()).filter((r) => r.posts >= 10_000 && Math.abs(r.ratio - 1) < 0.05)
    expect(flat.length).toBeGreaterThan(0)
    for (const t of flat.slice(0, 3))
      expect([t.slug, (await api.data('china.trends', { keyword: t.name, timeframe: '30d' })).summary.momentum]).toEqual([t.slug, 'stable'])
  })

  test('window counts equal the items about the topic in the Parquet, and the score follows the documented formula', async () => {
    const d = await api.data('china.trends.douyin', { keyword: '露营', timeframe: '30d' })
    expect(d.momentum_detail.recent.items).toBe(await nativeCamping('douyin', daysBefore(30), AS_OF))
    expect(d.momentum_detail.prior.items).toBe(await nativeCamping('douyin', daysBefore(60), daysBefore(30)))
    const { recent, prior } = d.momentum_detail
    // Volume weighted by relevance (passing mentions count part of a post): never more than the items.
    expect(recent.weighted_items).toBeLessThanOrEqual(recent.items)
    const score =
      MOMENTUM.volumeWeight * Math.log((recent.weighted_items + 1) / (prior.weighted_items + 1)) +
      MOMENTUM.engagementWeight * Math.log((recent.engagement + 1) / (prior.engagement + 1))
    expect(d.momentum_detail.score).toBeCloseTo(score, 2)
    expect(d.window).toEqual({ from: '2026-09-17', to: '2026-11-15', as_of: '2026-11-16T00:00:00.000Z' })
    expect(d.evidence.total_items).toBe(recent.items + prior.items)
  })

  test('"camping" and "露营" are one topic with one answer; "car camping" posts are not camping evidence', async () => {
    const en = await api.data('china.trends.douyin', { keyword: 'camping', timeframe: '30d' })
    const zh = await api.data('china.trends.douyin', { keyword: '露营', timeframe: '30d' })
    expect(en.resolved).toMatchObject({ kind: 'topic', id: 'topic:camping', name: 'Camping', name_zh: '露营' })
    expect({ ...en, keyword: null, resolved: { ...en.resolved, matched: null } }).toEqual({
      ...zh,
      keyword: null,
      resolved: { ...zh.resolved, matched: null },
    })
    const { n } = await corpus.one<{ n: number }>(
      `SELECT count(*)::INT AS n FROM evidence WHERE platform = 'douyin' AND retrieval = 'native' AND published_at >= $1 AND published_at < $2 AND (strpos(text, '车载露营') > 0 OR strpos(lower(text), 'car camping') > 0) AND NOT ${ABOUT_CAMPING}`,
      [daysBefore(60), AS_OF],
    )
    expect(n).toBeGreaterThan(0)
  })
})

/** Items of the corpus naming 游戏周边 / game merchandise: a thin topic (a few hundred weekly posts). */
const ABOUT_MERCH = `(strpos(title || ' ' || text, '游戏周边') > 0 OR regexp_matches(lower(title || ' ' || text), '(^|[^a-z0-9_])game merchandises?([^a-z0-9_]|$)'))`

describe('beside the weekly topic ranking', () => {
  /** All-platform posts of a topic per week over the published weeks inside [from, to]. */
  const perWeek = async (slug: string, from: string, to: string) =>
    (
      await corpus.one<{ p: number }>(
        `SELECT SUM(posts) / count(DISTINCT week_start) AS p FROM signal_topics WHERE topic_slug = $1 AND week_start >= $2 AND week_end <= $3`,
        [slug, from, to],
      )
    ).p

  test('the headline states its windows, and the weekly counts of the same whole weeks agree with the direction', async () => {
    const d = await api.data('china.trends', { keyword: 'Quiet luxury', timeframe: '7d' })
    expect(d.summary.headline).toContain('(2026-11-09 to 2026-11-15 vs 2026-11-02 to 2026-11-08; +')
    const w = d.weekly_ranking
    expect(w).toMatchObject({ source: 'signal_topics', direction: 'rising', agrees: true })
    expect(w.recent.per_week).toBeCloseTo(await perWeek('quiet-luxury', '2026-11-09', '2026-11-15'), 1)
    expect(w.prior.per_week).toBeCloseTo(await perWeek('quiet-luxury', '2026-11-02', '2026-11-08'), 1)
    expect(d.summary.momentum).toBe('rising')
    expect(d.summary.headline).toContain(`Weekly: ${w.note}.`)
  })

  test('where the readings differ, the headline says the weekly direction and why they differ', async () => {
    let differing = 0
    for (const keyword of ['frisbee', '火锅', 'esports', 'Aurora Skin', 'padel', 'robot vacuums']) {
      const d = await api.data('china.trends', { keyword, timeframe: '30d' })
      const w = d.weekly_ranking
      if (!w || w.agrees) continue
      differing++
      expect(d.summary.headline).toContain(`Weekly: ${w.note}.`)
      expect(w.note).toMatch(
        new RegExp(`${w.direction}.*they differ because .*(count noise|did not move|while the whole weeks|stays within)`),
      )
    }
    expect(differing).toBeGreaterThan(0)
  })
})

describe('confidence tied to evidence strength', () => {
  test('a thin topic (game merchandise) gets lower confidence than a thick one (quiet luxury) on the same lane', async () => {
    const thin = await api.data('china.trends.douyin', { keyword: '游戏周边', timeframe: '30d' })
    const thick = await api.data('china.trends.douyin', { keyword: '静奢风', timeframe: '30d' })
    expect(thin.evidence.total_items).toBeLessThan(thick.evidence.total_items)
    expect(thin.summary.confidence).toBeLessThan(thick.summary.confidence)
  })

  test('confidence is the documented product of strength, native share, relevance, coverage and the sample share', async () => {
    for (const q of [{ keyword: '游戏周边', timeframe: '60d' }, { keyword: '露营' }] as Query[]) {
      const d = await api.data('china.trends.xiaohongshu', q)
      const c = d.confidence_detail
      const w = CONFIDENCE.weights
      const coverage = CONFIDENCE.coverageFloor + (1 - CONFIDENCE.coverageFloor) * c.coverage
      // The sample corpus keeps CONFIDENCE.sampleShare: no generated answer is certain.
      expect(c.sample).toBe(CONFIDENCE.sampleShare)
      const expected =
        (w.volume * c.volume + w.diversity * c.diversity + w.recency * c.recency) *
        (CONFIDENCE.proxyFloor + (1 - CONFIDENCE.proxyFloor) * c.native_share) *
        c.relevance *
        coverage *
        c.sample
      expect(d.summary.confidence).toBeCloseTo(expected, 1)
      // Components are reported rounded to two decimals.
      expect(Math.abs(c.native_share - d.evidence.native_items / d.evidence.total_items)).toBeLessThanOrEqual(0.005 + 1e-9)
    }
  })
})

describe('lanes on the corpus', () => {
  test('xiaohongshu is a proxy read beside the native notes when they are not strong (a thin topic), and says so', async () => {
    const d = await api.data('china.trends.xiaohongshu', { keyword: '游戏周边', timeframe: '60d' })
    expect(d.evidence.native_items).toBeLessThan(STRONG_NATIVE_EVIDENCE.items)
    expect(d.evidence.lanes[0]).toMatchObject({ policy: 'proxy_read', native_sufficient: false, broadened: true })
    expect(d.evidence.proxy_items).toBeGreaterThan(0)
    expect(d.evidence_mode).toBe(d.evidence.native_items ? 'mixed' : 'proxy')
    expect(d.summary.headline).toContain(`${d.evidence_mode} evidence`)
  })

  test('xiaohongshu reads natively where strong native notes exist (camping), with no evidence_mode', async () => {
    const d = await api.data('china.trends.xiaohongshu', { keyword: '露营' })
    expect(d.evidence_mode).toBeUndefined()
    expect(d.evidence.lanes[0]).toMatchObject({ policy: 'proxy_read', native_sufficient: true, broadened: false })
    expect(d.evidence.by_source_kind).toEqual({ note: d.evidence.total_items })
  })

  test('douyin with thin native evidence (game merchandise) is broadened to web coverage of douyin and general coverage', async () => {
    const { native } = await corpus.one<{ native: number }>(
      `SELECT count(*)::INT AS native FROM evidence WHERE platform = 'douyin' AND retrieval = 'native' AND published_at >= $1 AND published_at < $2 AND ${ABOUT_MERCH}`,
      [daysBefore(120), AS_OF],
    )
    const { web } = await corpus.one<{ web: number }>(
      `SELECT count(*)::INT AS web FROM evidence WHERE platform = 'web' AND about_platform IN ('douyin', '') AND published_at >= $1 AND published_at < $2 AND ${ABOUT_MERCH}`,
      [daysBefore(120), AS_OF],
    )
    const d = await api.data('china.trends.douyin', { keyword: '游戏周边', timeframe: '60d' })
    expect(native).toBeLessThan(THIN_EVIDENCE.items)
    expect(web).toBeGreaterThan(0)
    expect(d.evidence.native_items).toBe(native)
    expect(d.evidence.proxy_items).toBe(web)
    expect(d.evidence.lanes[0]).toMatchObject({ native_sufficient: false, broadened: true })
    expect(d.evidence_mode).toBe('mixed')
  })
})

describe('themes, related keywords and content angles', () => {
  test('themes are what the posts about the keyword discuss, never the keyword itself; angles cite evidence of the answer', async () => {
    const d = await api.data('china.trends.douyin', { keyword: '露营' })
    expect(d.themes_source).toBe('extractive')
    expect(d.summary.themes.length).toBeGreaterThan(2)
    expect(d.summary.themes).not.toContain('露营')
    expect(d.related_keywords.length).toBeGreaterThan(0)
    const { n } = await corpus.one<{ n: number }>(
      `SELECT count(*)::INT AS n FROM evidence WHERE platform = 'douyin' AND retrieval = 'native' AND published_at >= $1 AND published_at < $2
          AND ${ABOUT_CAMPING} AND strpos(text, $3) > 0`,
      [daysBefore(60), AS_OF, `#${d.summary.themes[0]}`],
    )
    expect(n).toBeGreaterThan(0)
    expect(d.content_angles.length).toBeGreaterThan(0)
    for (const a of d.content_angles) expect(a.example_evidence_id).toMatch(/^(topic|brand|place)-douyin-/)
    expect(new Set(d.top_evidence.map((e: { id: string }) => e.id)).size).toBe(5)
  })
})

describe('answered from memory once computed', () => {
  test('the same request again is a cache hit with the same data', () =>
    expectCachedOnRepeat(api, 'china.trends.wechat', { keyword: '城市漫步', timeframe: '14d' }))
})

describe('bad requests are free', () => {
  test.each([
    [{ keyword: '   ' }, 'keyword'],
    [{ keyword: '露营', timeframe: '0d' }, 'timeframe'],
    [{ keyword: '露营', timeframe: '366d' }, 'timeframe'],
    [{ keyword: '露营', timeframe: '30' }, 'timeframe'],
    [{ keyword: '露营', platform: 'weibo' }, 'platform'],
    [{ keyword: '露营', lang: 'zh' }, 'lang'],
    [{}, 'keyword'],
  ] as [Query, string][])('%j is a 400 naming %s, without a payment request', async (q, parameter) => {
    expectClientError(await api.free('china.trends', q), 400, parameter)
  })

  test('a platform route refuses a platform parameter', async () => {
    expectClientError(await api.free('china.trends.douyin', { keyword: '露营', platform: 'douyin' }), 400, 'platform')
  })

  test('aliases are accepted: xhs is xiaohongshu', async () => {
    expect((await api.data('china.trends', { keyword: '露营', platform: 'xhs' })).platform).toBe('xiaohongshu')
  })

  test('a keyword without evidence is a 404 after payment, and the proof stays unused', async () => {
    const proof = await api.proof('china.trends')
    const none = await api.paid('china.trends', { keyword: 'qqqzzzxx' }, proof)
    expect(none.status).toBe(404)
    expect(none.body.error.code).toBe('not_found')
    expect(none.body.error.details.parameter).toBe('keyword')
    expect(await api.ledgerState(proof)).toBe('failed')
    const retry = await api.paid('china.trends', { keyword: '露营' }, proof)
    expect(retry.status).toBe(200)
    expect(retry.headers.get('x-payment-replay')).toBeNull()
  })
})
