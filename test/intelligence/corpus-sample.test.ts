/**
 * A corpus larger than CORPUS_MAX_ROWS is kept as a stratified sample (corpus-table.ts), each post
 * weighted by the posts it stands for. Here the shipped corpus (187,738 posts) is read with
 * CORPUS_MAX_ROWS=20000 (about one post in ten of each platform group's week: the 57,291 strata with
 * each creator's weeks are more than half of it) and 120000 (about one in three of each creator's week
 * too), and compared with the service that keeps every post and with an independent reader of the Parquet file: what a buyer gets from the sample must
 * be the same answer within its sampling error, and must say it is an estimate.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { KOL } from '../../src/catalog/evidence-rules'
import { Client } from '../../support/paying-client'
import { Parquet } from '../../support/parquet'
import { testRuntime } from '../../support/runtime'
import { startServer } from '../../support/server'
import { until } from '../../support/until'

const BY_GROUP = { env: { CORPUS_MAX_ROWS: '20000' }, oneIn: 10, creators: false }
const BY_CREATOR = { env: { CORPUS_MAX_ROWS: '120000' }, oneIn: 3, creators: true }

let exact: Client
let sampled: Client
let byCreator: Client
let reader: Parquet
beforeAll(async () => {
  ;[exact, sampled, byCreator, reader] = await Promise.all([
    Client.start(),
    Client.start(BY_GROUP.env),
    Client.start(BY_CREATOR.env),
    Parquet.open(),
  ])
})
afterAll(() => {
  for (const client of [exact, sampled, byCreator]) client?.close()
  reader?.close()
})

/** Three standard errors of a count estimated from one post in `oneIn` (binomial, at most Poisson), plus one post's weight. */
const bound = (count: number, oneIn: number) => 3 * Math.sqrt(count * oneIn) + oneIn

describe('the search table of a sampled corpus', () => {
  test.each([BY_GROUP, BY_CREATOR])(
    'CORPUS_MAX_ROWS=$env.CORPUS_MAX_ROWS: at most that many posts, about one in $oneIn of each stratum and its first, the weights adding up to its posts',
    async ({ env, oneIn, creators }) => {
      const runtime = await testRuntime(env)
      try {
        const { table, kept } = runtime.store.current().evidence.index
        const author = creators ? "CASE WHEN retrieval = 'native' THEN author ELSE '' END" : "''"
        const strata = `platform || '|' || retrieval || '|' || about_platform || '|' || ${author} || '|' || date_trunc('week', published_at::TIMESTAMP)::VARCHAR`
        const counted = await reader.rows<{ s: string; n: number }>(`SELECT ${strata} AS s, count(*)::DOUBLE AS n FROM evidence GROUP BY 1`)
        const posts = counted.reduce((sum, r) => sum + r.n, 0)
        expect(kept).toEqual({ rows: posts, kept: expect.any(Number), oneIn, creators })
        expect(kept.kept).toBeLessThanOrEqual(Number(env.CORPUS_MAX_ROWS))
        // Every stratum's first post, and about one in k of the others (three standard errors).
        const expected = counted.length + (posts - counted.length) / oneIn
        expect(Math.abs(kept.kept - expected)).toBeLessThanOrEqual(3 * Math.sqrt(expected))
        const weighted = await runtime.market.db.all<{ s: string; n: number; rows: number }>(
          `SELECT ${strata} AS s, sum(weight)::DOUBLE AS n, count(*)::DOUBLE AS rows FROM ${table} GROUP BY 1`,
        )
        // Every stratum is there, its weights adding up to its posts.
        const exact = new Map(counted.map((r) => [r.s, r.n]))
        expect(weighted.length).toBe(counted.length)
        for (const { s, n, rows } of weighted) expect([s, n, rows >= 1]).toEqual([s, expect.closeTo(exact.get(s)!, 6), true])
      } finally {
        runtime.close()
      }
    },
  )
})

test("the seller's log says how much of the corpus the service keeps", async () => {
  const server = await startServer({ ...BY_GROUP.env, LOG_LEVEL: 'info' })
  try {
    const line = await until('the datasets indexed line', async () =>
      server
        .output()
        .split('\n')
        .find((l) => l.includes('datasets indexed: ready')),
    )
    expect(JSON.parse(line)).toMatchObject({
      evidence_posts: 187_738,
      evidence_one_in: BY_GROUP.oneIn,
      evidence_posts_kept: expect.any(Number),
    })
    expect(JSON.parse(line).evidence_posts_kept).toBeLessThanOrEqual(20_000)
  } finally {
    await server.stop()
  }
})

describe('answers on one post in ten against every post', () => {
  const CATEGORIES = ['beauty', 'fashion', 'luxury', 'travel', 'parenting', 'pets', 'automotive', 'gaming']

  test('every answer says its counts are estimates from a one-in-ten sample; the whole corpus says nothing of the kind', async () => {
    const [whole, part] = await Promise.all([
      exact.paid('china.trends', { keyword: 'beauty' }),
      sampled.paid('china.trends', { keyword: 'beauty' }),
    ])
    expect(part.status).toBe(200)
    expect(part.body.data.data_quality.notice).toContain(`one in ${BY_GROUP.oneIn}`)
    expect(part.body.data.data_quality.notice).toContain('estimates')
    expect(part.body.data.data_quality.notice).toContain('187,738 posts')
    expect(whole.body.data.data_quality.notice).not.toContain('estimates')
  })

  test.each(CATEGORIES)(
    'china.trends on %s over 90 days: both windows counted within three standard errors of every post',
    async (keyword) => {
      const [whole, part] = await Promise.all([
        exact.paid('china.trends', { keyword, timeframe: '90d' }),
        sampled.paid('china.trends', { keyword, timeframe: '90d' }),
      ])
      expect([whole.status, part.status]).toEqual([200, 200])
      for (const window of ['recent', 'prior'] as const) {
        const n = whole.body.data.momentum_detail[window].items as number
        const estimate = part.body.data.momentum_detail[window].items as number
        expect(n).toBeGreaterThan(100)
        expect([window, Math.abs(estimate - n) <= bound(n, BY_GROUP.oneIn)]).toEqual([window, true])
      }
    },
  )

  test('china.sentiment on a category: the same net score within sampling error', async () => {
    const [whole, part] = await Promise.all([
      exact.paid('china.sentiment', { entity: 'beauty', timeframe: '90d' }),
      sampled.paid('china.sentiment', { entity: 'beauty', timeframe: '90d' }),
    ])
    expect([whole.status, part.status]).toEqual([200, 200])
    const score = (a: typeof whole) => a.body.data.summary.net_score as number
    expect(Math.abs(score(part) - score(whole))).toBeLessThanOrEqual(15)
  })

  test.each(['beauty', 'travel'])(
    "china.kols on %s, about one in three of each creator's week: most of the shortlist is the one every post gives, with post counts estimated",
    async (category) => {
      const [whole, part] = await Promise.all([exact.paid('china.kols', { category }), byCreator.paid('china.kols', { category })])
      expect([whole.status, part.status]).toEqual([200, 200])
      const handles = (a: typeof whole) =>
        (a.body.data.shortlist as { platform: string; handle: string }[]).map((c) => `${c.platform}|${c.handle}`)
      const both = handles(part).filter((h) => handles(whole).includes(h))
      expect(handles(part).length).toBeGreaterThan(0)
      expect(both.length * 2).toBeGreaterThanOrEqual(handles(part).length)
      // A creator's posts are counted as the sample stands for them, not as the few kept.
      const posts = new Map(
        (whole.body.data.shortlist as { platform: string; handle: string; engagement: { posts: number } }[]).map((c) => [
          `${c.platform}|${c.handle}`,
          c.engagement.posts,
        ]),
      )
      for (const c of part.body.data.shortlist as { platform: string; handle: string; engagement: { posts: number } }[]) {
        const n = posts.get(`${c.platform}|${c.handle}`)
        if (n !== undefined) expect([c.handle, Math.abs(c.engagement.posts - n) <= bound(n, BY_CREATOR.oneIn)]).toEqual([c.handle, true])
      }
    },
  )

  test("china.kols on one in ten of each platform's week, where creators are no strata: no creator is counted busier than they are", async () => {
    const [whole, part] = await Promise.all([
      exact.paid('china.kols', { category: 'beauty' }),
      sampled.paid('china.kols', { category: 'beauty' }),
    ])
    expect([whole.status, part.status]).toEqual([200, 200])
    expect(part.body.data.data_quality.notice).toContain("a creator's posts are counted as read")
    // The KOL window: the look-back before the day after the corpus ends (the trends tests' AS_OF).
    const to = '2026-11-16T00:00:00Z'
    const from = new Date(Date.parse(to) - KOL.lookbackDays * 86_400_000).toISOString().replace('.000Z', 'Z')
    const shortlist = part.body.data.shortlist as { platform: string; handle: string; engagement: { posts: number } }[]
    expect(shortlist.length).toBeGreaterThan(0)
    for (const c of shortlist) {
      const { n } = await reader.one<{ n: number }>(
        `SELECT count(*)::INT AS n FROM evidence WHERE platform = $1 AND author = $2 AND retrieval = 'native' AND published_at >= $3 AND published_at < $4`,
        [c.platform, c.handle, from, to],
      )
      expect([c.handle, c.engagement.posts <= n]).toEqual([c.handle, true])
    }
  })
})
