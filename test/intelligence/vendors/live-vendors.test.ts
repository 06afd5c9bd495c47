/**
 * The service on the providers a seller really has, configured through the environment as in
 * production, against local servers answering as SearXNG, Bocha and TikHub do (./world.ts): what a buyer
 * gets, what the seller pays for, and what the seller is told.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Client as Api, expectDocumentedData, route } from '../../../support/paying-client'
import { campingWorld, vendorWorld, type VendorWorld } from '../../../support/vendor-world'

let world: VendorWorld
beforeAll(() => {
  world = vendorWorld(() => campingWorld(Date.now()), { tikhubPageSize: 30 })
})
afterAll(() => world.stop())

/** Each test its own service: the answer cache starts empty. */
async function service(env: Record<string, string>): Promise<Api> {
  return Api.start({ ...env, LOG_LEVEL: 'silent' })
}

describe('a seller with SearXNG only (as the issue tried it)', () => {
  let api: Api
  beforeAll(async () => {
    api = await service({ WEB_SEARCH_PROVIDER: 'searxng', WEB_SEARCH_URL: world.url })
  })
  afterAll(() => api.close())

  test('90 days of trends from an engine that reaches back a week: no direction, and the reason says why', async () => {
    const a = await api.paid('china.trends', { keyword: '露营', timeframe: '90d' })
    expect(a.status).toBe(200)
    expectDocumentedData(route('china.trends'), a.body.data)
    const d = a.body.data
    expect(d.summary.momentum).toBe('insufficient_evidence')
    expect(d.momentum_detail.reason).toMatch(/covers [\d.]+ days of the 90-day prior window/)
    // 露营 is the sample world's topic Camping: answers call it by its name.
    expect(d.summary.headline).toStartWith('No direction can be called for "Camping" on all three platforms: the evidence covers')
    expect(d.summary.headline).not.toContain('rising')
    expect(d.confidence_detail.coverage).toBeLessThan(0.2)
    expect(d.evidence_mode).toBe('proxy')
    const calls = d.data_quality.providers.filter((p: any) => p.provider.startsWith('searxng'))
    expect(calls).toHaveLength(3) // the web step of each lane
    for (const c of calls) expect(c.coverage[0].capped).toBe(false)
  })

  test('undated results are counted, not silently lost', async () => {
    const d = (await api.paid('china.trends.xiaohongshu', { keyword: '露营', timeframe: '3d' })).body.data
    expect(d.data_quality.dropped.undated).toBe(4)
    expect(d.data_quality.providers[0].dropped.undated).toBe(4)
    // A window the engine does reach: a direction can be called (or stable), never insufficient for coverage.
    expect(d.momentum_detail.reason ?? '').not.toContain('covers')
  })

  test('the KOL routes answer a free 422 that says a native provider is needed, before any payment', async () => {
    for (const [id, q] of [
      ['china.kols', { category: '露营' }],
      ['capabilities.kol_shortlist', { brand_name: 'Aurora Skin', category: 'beauty' }],
    ] as const) {
      const unpaid = await api.free(id, q)
      expect(unpaid.status).toBe(422)
      expect(unpaid.body.error.code).toBe('native_provider_required')
      expect(unpaid.body.error.message).toContain('only a native platform provider returns')
      expect(unpaid.body.accepts).toBeUndefined()
      const proof = await api.proof(id)
      const paid = await api.paid(id, q, proof)
      expect(paid.status).toBe(422)
      expect(await api.ledgerState(proof)).toBeNull()
    }
  })
})

describe('a seller with TikHub and Bocha', () => {
  let api: Api
  beforeAll(async () => {
    api = await service({
      WEB_SEARCH_PROVIDER: 'bocha',
      WEB_SEARCH_URL: world.url,
      WEB_SEARCH_KEY: 'sk-bocha',
      WEB_SEARCH_PRICE_USD: '0.005',
      NATIVE_SEARCH_PROVIDER: 'tikhub',
      NATIVE_SEARCH_URL: world.url,
      NATIVE_SEARCH_KEY: 'th-key',
      NATIVE_SEARCH_PRICE_USD: '0.001',
      NATIVE_SEARCH_MAX_PAGES: '10',
    })
  })
  afterAll(() => api.close())

  test('Douyin videos that doubled in the last 30 days read rising, counted from the native provider that covers both windows', async () => {
    const d = (await api.paid('china.trends.douyin', { keyword: '露营', timeframe: '30d' })).body.data
    expect(d.summary.momentum).toBe('rising')
    expect([d.momentum_detail.recent.items, d.momentum_detail.prior.items]).toEqual([120, 60])
    expect(d.momentum_detail.uncounted_items).toBe(0)
    expect(d.evidence_mode).toBeUndefined() // native only: the lane had enough
    // The vendor also returned its car-camping videos (车载露营 names 露营): they are about cars, not evidence here.
    expect(d.data_quality.providers[0]).toMatchObject({
      provider: expect.stringContaining('tikhub'),
      role: 'native',
      status: 'ok',
      off_topic: 60,
    })
    expect(d.data_quality.dropped.off_topic).toBe(60)
    expect(JSON.stringify(d.top_evidence)).not.toContain('车载露营')
  })

  test('the KOL shortlist scores the creators TikHub returns, with their followers', async () => {
    const a = await api.paid('china.kols', { category: '露营', platform: 'douyin' })
    expect(a.status).toBe(200)
    expectDocumentedData(route('china.kols'), a.body.data)
    const d = a.body.data
    expect(d.shortlist.length).toBeGreaterThan(3)
    for (const c of d.shortlist) {
      expect(c.platform).toBe('douyin')
      expect(c.handle).toStartWith('露营达人')
      expect(c.followers).toBeGreaterThan(0)
    }
    // Only the native provider was asked: web pages name no creators.
    expect(d.data_quality.providers.every((p: any) => p.role === 'native')).toBe(true)
    expect(d.sample).toBe(false)
    expect(d.summary).not.toContain('Sample data')
  })

  test('a live trend sets no sample weekly figures beside it', async () => {
    const trend = await api.data('china.trends', { keyword: '露营', timeframe: '30d' })
    expect(trend.sample).toBe(false)
    expect(trend.weekly_ranking).toBeNull()
    expect(trend.summary.headline).not.toContain('Weekly:')
  })

  test('live search gives no post its category: an industry other than the category searched earns no creator the bonus', async () => {
    const d = await api.data('china.kols', { category: '露营', platform: 'douyin', industry: 'outdoor' })
    expect(d.shortlist.length).toBeGreaterThan(3)
    // Every post found is about camping; whether it is most of the creator's outdoor posts, search cannot say.
    for (const c of d.shortlist) expect([c.handle, c.fit.industry_match]).toEqual([c.handle, false])
  })

  test('Xiaohongshu search carries no followers: the creators with the most posts are looked up once, and shortlisted with them', async () => {
    const profiles = () => world.count('/xiaohongshu/app_v2/get_user_info')
    const searches = () => world.count('/xiaohongshu/app_v2/search_notes')
    const [before, searchesBefore] = [profiles(), searches()]
    const a = await api.paid('china.kols', { category: '露营', platform: 'xiaohongshu' })
    expect(a.status).toBe(200)
    const looked = profiles() - before
    // Twelve creators post about camping: each looked up once, within the budget.
    expect(looked).toBe(12)
    const d = a.body.data
    expect(d.shortlist.length).toBe(10)
    for (const c of d.shortlist) expect([c.platform, c.followers > 0]).toEqual(['xiaohongshu', true])
    const tikhub = d.data_quality.providers.find((p: any) => p.platform === 'xiaohongshu')
    // The call's requests: its search pages and the lookups, every one billed.
    expect(tikhub.requests).toBe(searches() - searchesBefore + 12)
    // Another KOL question about the same creators a moment later: their counts are known, nobody is looked up again.
    const b = await api.paid('china.kols', { category: '露营', platform: 'xiaohongshu', tier: 'micro' })
    expect(b.status).toBe(200)
    expect(profiles() - before).toBe(12)
  })

  test('WeChat official accounts have no follower counts: a WeChat shortlist is a free 422, not a paid empty answer', async () => {
    const a = await api.free('china.kols', { category: '露营', platform: 'wechat' })
    expect([a.status, a.body.error.code]).toEqual([422, 'native_provider_required'])
    expect(a.body.error.details.configured.native[0].creators).toEqual(['xiaohongshu', 'douyin'])
  })

  test('a repeat within the TTL is a hit that asks no provider; concurrent identical requests share one run', async () => {
    const q = { keyword: '露营', timeframe: '14d' }
    const before = world.requests.length
    const answers = await Promise.all([1, 2, 3].map(() => api.paid('china.trends.wechat', q)))
    const oneRun = world.requests.length - before
    expect(oneRun).toBeGreaterThan(0)
    expect(answers.map((a) => a.body.meta.cache_status).sort()).toEqual(['hit', 'hit', 'miss'])
    const again = await api.paid('china.trends.wechat', q)
    expect(again.body.meta.cache_status).toBe('hit')
    expect(world.requests.length - before).toBe(oneRun)
  })

  test('each paid answer records what it cost at the providers: a miss its requests and their price, a hit nothing', async () => {
    const q = { entity: '露营', platform: 'douyin', timeframe: '7d' }
    const first = await api.paid('china.sentiment', q)
    const second = await api.paid('china.sentiment', q)
    await api.rt.ledger.durable()
    const db = (api.rt.ledger as unknown as { db: import('bun:sqlite').Database }).db
    const rows = (id: string) =>
      db.query('SELECT provider, role, requests, cost_nano_usd FROM provider_spend WHERE request_id = ?').all(id) as {
        provider: string
        role: string
        requests: number
        cost_nano_usd: string
      }[]
    const spent = rows(first.body.meta.request_id)
    expect(spent.length).toBeGreaterThan(0)
    for (const r of spent) expect(BigInt(r.cost_nano_usd)).toBe(BigInt(r.requests) * (r.role === 'native' ? 1_000_000n : 5_000_000n))
    expect(spent.reduce((n, r) => n + r.requests, 0)).toBe(
      first.body.data.data_quality.providers.reduce((n: number, p: any) => n + (p.requests ?? 0), 0),
    )
    expect(rows(second.body.meta.request_id)).toEqual([])
  })

  test('/ready names the live providers, the lanes, where KOLs come from, and each provider’s last call', async () => {
    const ready = await (await api.rt.get('/ready')).json()
    const p = ready.data.checks.providers
    const host = new URL(world.url).host
    expect(p).toMatchObject({
      mode: 'live',
      web: `bocha (${host})`,
      native: { provider: `tikhub (${host})`, platforms: ['xiaohongshu', 'douyin', 'wechat'] },
    })
    expect(p.lanes.douyin).toBe(`native_first: native ${p.native.provider}, then web ${p.web}`)
    expect(p.kols).toBe(`creators from ${p.native.provider} (xiaohongshu, douyin)`)
    expect(p.last_calls[p.native.provider].status).toBe('ok')
  })
})
