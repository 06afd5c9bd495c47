/**
 * The six China routes with live providers: a native-search, a web-search and a chat-completions server,
 * all real HTTP servers on loopback, configured through the environment as in production. Each test sets
 * how the servers behave (answer, slow, 5xx, malformed JSON, empty) and checks the paid HTTP answer:
 * fallback between lanes, the 502/504 envelopes, and that a failed request is never charged.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { ENV } from '../../src/config/settings'
import { paymentWindowSeconds } from '../../src/payments/gate/requirements'
import { VALID_BEFORE_MARGIN_SECONDS } from '../../src/payments/gate/verify-local'
import { usdToAtomic } from '../../src/core/usdc'
import { inWindow, series } from '../../support/china-evidence'
import { gate, json, loopback, type Loopback } from '../../support/loopback'
import { Client as Api, expectDocumentedData, expectPaidEnvelope, route, type Query } from '../../support/paying-client'

type Behaviour =
  | { kind: 'ok'; results: () => Record<string, unknown>[] }
  | { kind: 'slow' }
  | { kind: '5xx' }
  | { kind: 'malformed' }
  | { kind: 'empty' }

type Role = 'native' | 'web' | 'llm'

const TONES = ['周末露营，强烈推荐，体验超棒', '价格太贵了，踩雷了', '记录一下露营攻略', 'Glamping was worth every penny, highly recommend']

/** Creator posts about 露营 in the documented search protocol. */
const posts = (o: { perDay: (daysAgo: number) => number; days?: number; authors?: number; prefix?: string }) =>
  series({
    text: (i) => `露营 ${TONES[i % TONES.length]} #精致露营`,
    perDay: o.perDay,
    days: o.days ?? 60,
    authors: o.authors ?? 10,
    idPrefix: o.prefix ?? 'native',
    followers: (a) => [800, 5_000, 40_000, 250_000, 2_000_000][a % 5]!,
    likes: (i) => 80 + (i % 9) * 15,
  })

/** What the model answers: it cites the first evidence item it was sent, and one id it invents. */
const llmAnswer = (firstId: string) => ({
  themes: ['精致露营', '露营装备清单'],
  content_angles: [
    {
      angle: 'Gear checklists for first-timers',
      rationale: 'The most engaged posts are practical lists.',
      evidence_ids: ['made-up-id', firstId],
    },
  ],
})
const firstEvidenceId = (body: string) => JSON.parse(JSON.parse(body).messages[1].content).evidence[0].id as string

let behaviour: Record<Role, Behaviour>
const defaults = (): Record<Role, Behaviour> => ({
  native: { kind: 'ok', results: () => posts({ perDay: () => 1 }) },
  web: {
    kind: 'ok',
    results: () =>
      posts({ perDay: (d) => (d % 3 === 0 ? 1 : 0), prefix: 'web' }).map((r) => ({
        ...r,
        author_followers: undefined,
        likes: undefined,
        comments: undefined,
        shares: undefined,
        views: undefined,
      })),
  },
  llm: { kind: 'ok', results: () => [] },
})
let slow = gate()

let world: Loopback
let api: Api

beforeAll(async () => {
  world = loopback(async (_req, url, body) => {
    const role: Role = url.pathname.startsWith('/native') ? 'native' : url.pathname.startsWith('/web') ? 'web' : 'llm'
    const b = behaviour[role]
    switch (b.kind) {
      case 'slow':
        await slow.opened
        return json({ results: [] })
      case '5xx':
        return new Response('upstream error', { status: 503 })
      case 'malformed':
        return new Response('{"results": [{"url": "https://x.example/1", "text": ', { headers: { 'content-type': 'application/json' } })
      case 'empty':
        return role === 'llm'
          ? json({ choices: [{ message: { content: JSON.stringify({ themes: [], content_angles: [] }) } }] })
          : json({ results: [] })
      case 'ok':
        return role === 'llm'
          ? json({ choices: [{ message: { role: 'assistant', content: JSON.stringify(llmAnswer(firstEvidenceId(body))) } }] })
          : json({ results: inWindow(b.results(), url) })
    }
  })
  api = await Api.start(env(world, 1500))
})
afterAll(() => {
  slow.open()
  api?.close()
  world?.stop()
})
beforeEach(() => {
  behaviour = defaults()
  slow.open()
  slow = gate()
  world.requests.length = 0
})

function env(w: Loopback, timeoutMs: number): Record<string, string> {
  return {
    NATIVE_SEARCH_URL: `${w.url}/native/{platform}`,
    NATIVE_SEARCH_KEY: 'native-key',
    NATIVE_SEARCH_TIMEOUT_MS: String(timeoutMs),
    WEB_SEARCH_URL: `${w.url}/web`,
    WEB_SEARCH_KEY: 'web-key',
    WEB_SEARCH_TIMEOUT_MS: String(timeoutMs),
    LLM_BASE_URL: `${w.url}/v1`,
    LLM_API_KEY: 'llm-key',
    LLM_MODEL: 'loopback-model',
    LLM_TIMEOUT_MS: String(timeoutMs),
    // These tests change what the providers answer between calls with the same keyword; the reuse of
    // answers is tested on its own below.
    INTELLIGENCE_CACHE_TTL_SECONDS: '0',
    KOL_CACHE_TTL_SECONDS: '0',
  }
}

const host = () => new URL(world.url).host

describe('all six routes on live providers', () => {
  const SAMPLES: [string, Query][] = [
    ['china.trends', { keyword: '露营' }],
    ['china.trends.xiaohongshu', { keyword: '露营' }],
    ['china.trends.douyin', { keyword: '露营' }],
    ['china.trends.wechat', { keyword: '露营' }],
    ['china.sentiment', { entity: '露营', lang: 'zh' }],
    ['china.kols', { category: '露营', platform: 'douyin' }],
  ]

  test.each(SAMPLES.map(([id]) => id))(
    '%s answers 200 with every documented field and names the live providers, not the sample',
    async (id) => {
      const a = await api.paid(id, SAMPLES.find(([i]) => i === id)![1])
      expectPaidEnvelope(a, route(id))
      expectDocumentedData(route(id), a.body.data)
      const q = a.body.data.data_quality
      expect(q.sample).toBe(false)
      expect(q.dataset).toBeUndefined()
      expect(q.providers.length).toBeGreaterThan(0)
      for (const p of q.providers) {
        expect(p.provider).toContain(host())
        expect(JSON.stringify(p)).not.toContain('-key')
      }
      expect(a.body.meta.cache_status).toBe('miss')
    },
  )

  test('the providers were asked with their keys, the platform and the window', async () => {
    behaviour.native = { kind: 'ok', results: () => posts({ perDay: (d) => (d < 3 ? 1 : 0) }) } // thin: the web is asked too
    await api.data('china.trends.douyin', { keyword: '露营' })
    const native = world.requests.find((r) => r.url.pathname === '/native/douyin')!
    expect(native.headers.get('authorization')).toBe('Bearer native-key')
    expect(native.url.searchParams.get('keyword')).toBe('露营')
    expect(native.url.searchParams.get('from')).toBe(new Date(Date.now() - 60 * 86_400_000).toISOString().slice(0, 10))
    expect(world.requests.find((r) => r.url.pathname === '/web')!.headers.get('authorization')).toBe('Bearer web-key')
  })

  test('xiaohongshu is a proxy read (no native provider serves it by default); douyin is native', async () => {
    const xhs = await api.data('china.trends.xiaohongshu', { keyword: '露营' })
    const douyin = await api.data('china.trends.douyin', { keyword: '露营' })
    expect(xhs.evidence_mode).toBe('proxy')
    expect(world.requests.some((r) => r.url.pathname === '/native/xiaohongshu')).toBe(false)
    expect(douyin.evidence_mode).toBeUndefined()
    expect(douyin.evidence.by_source_kind).toEqual({ video: douyin.evidence.total_items })
  })

  test('themes and content angles come from the chat-completions model, which saw the evidence', async () => {
    const d = await api.data('china.trends.douyin', { keyword: '露营' })
    expect(d.themes_source).toBe('llm')
    const call = world.requests.find((r) => r.url.pathname === '/v1/chat/completions')!
    expect(call.headers.get('authorization')).toBe('Bearer llm-key')
    const cited = firstEvidenceId(call.body)
    const answer = llmAnswer(cited)
    expect(d.summary.themes).toEqual(answer.themes)
    // The invented id is dropped; the real one is kept.
    expect(d.content_angles).toEqual([
      { angle: answer.content_angles[0]!.angle, rationale: answer.content_angles[0]!.rationale, example_evidence_id: cited },
    ])
    expect(d.data_quality.providers.at(-1)).toMatchObject({
      role: 'summary',
      status: 'ok',
      provider: `chat-completions (${host()}, loopback-model)`,
    })
  })

  test('KOLs are scored from the creators the native provider returned, with the filters echoed', async () => {
    const d = await api.data('china.kols', { category: '露营', platform: 'douyin', tier: 'micro' })
    expect(d.filters).toMatchObject({ platform: 'douyin', tier: 'micro' })
    expect(d.shortlist.length).toBeGreaterThan(0)
    for (const c of d.shortlist) expect([c.platform, c.tier, c.followers]).toEqual(['douyin', 'micro', 40_000])
  })
})

describe('momentum and confidence follow the provider evidence', () => {
  test('the same keyword over a rising series is rising, over a falling series falling', async () => {
    // 36 and 12 items a window: within the LIVE_RESULTS_PER_CALL results read of one answer.
    const many = (d: number) => (d % 5 === 0 ? 2 : 1)
    const few = (d: number) => (d % 5 < 2 ? 1 : 0)
    behaviour.native = { kind: 'ok', results: () => posts({ perDay: (d) => (d < 30 ? many(d) : few(d)) }) }
    const up = await api.data('china.trends.douyin', { keyword: '露营' })
    behaviour.native = { kind: 'ok', results: () => posts({ perDay: (d) => (d < 30 ? few(d) : many(d)) }) }
    const down = await api.data('china.trends.douyin', { keyword: '露营' })
    expect(up.summary.momentum).toBe('rising')
    expect(down.summary.momentum).toBe('falling')
    expect(up.momentum_detail.recent.items).toBe(36)
    expect(down.momentum_detail.recent.items).toBe(12)
  })

  test('thinner evidence gives lower confidence, and thicker evidence raises it again', async () => {
    const confidenceWith = async (perDay: (d: number) => number) => {
      behaviour.native = { kind: 'ok', results: () => posts({ perDay }) }
      return (await api.data('china.trends.douyin', { keyword: '露营' })).summary.confidence as number
    }
    // Thick: up to 45 items a window, within the LIVE_RESULTS_PER_CALL results one answer carries (a
    // provider capped below its window covers less of it, and confidence says so: tested with the pager).
    const thick = await confidenceWith((d) => (d % 2 === 0 ? 2 : 1))
    const thin = await confidenceWith((d) => (d % 4 === 0 ? 1 : 0))
    const thickAgain = await confidenceWith((d) => (d % 3 === 0 ? 1 : 2))
    expect(thin).toBeLessThan(thick)
    expect(thickAgain).toBeGreaterThan(thin)
  })
})

describe('fallback', () => {
  test('a native provider that fails (5xx) falls back to web evidence; the answer says so', async () => {
    behaviour.native = { kind: '5xx' }
    const d = await api.data('china.trends.wechat', { keyword: '露营' })
    expect(d.evidence_mode).toBe('proxy')
    expect(d.evidence.lanes[0]).toMatchObject({ platform: 'wechat', native_items: 0, broadened: true })
    expect(d.data_quality.providers[0]).toMatchObject({ role: 'native', status: 'failed' })
    expect(d.data_quality.providers[0].error).toContain('HTTP 503')
  })

  test('a native provider that answers malformed JSON falls back the same way', async () => {
    behaviour.native = { kind: 'malformed' }
    const d = await api.data('china.trends.douyin', { keyword: '露营' })
    expect(d.evidence_mode).toBe('proxy')
    expect(d.data_quality.providers[0].error).toContain('not JSON')
  })

  test('thin native evidence is broadened to the web provider', async () => {
    behaviour.native = { kind: 'ok', results: () => posts({ perDay: (d) => (d < 5 ? 1 : 0) }) }
    const d = await api.data('china.trends.douyin', { keyword: '露营' })
    expect(d.evidence_mode).toBe('mixed')
    expect(d.evidence.lanes[0]).toMatchObject({ native_items: 5, native_sufficient: false, broadened: true })
  })

  test('a model that answers malformed JSON or times out leaves the extractive themes, reported as failed', async () => {
    for (const kind of ['malformed', 'slow'] as const) {
      behaviour.llm = { kind }
      const d = await api.data('china.trends.douyin', { keyword: '露营' })
      expect(d.themes_source).toBe('extractive')
      expect(d.summary.themes.length).toBeGreaterThan(0)
      expect(d.data_quality.providers.at(-1)).toMatchObject({ role: 'summary', status: kind === 'slow' ? 'timeout' : 'failed' })
      expect(d.data_quality.providers.at(-1).error).toContain('extractive themes used instead')
      slow.open()
      slow = gate()
    }
  })
})

describe('when no provider can answer, nothing is charged', () => {
  async function unpaid(id: string, query: Query, status: number, code: string) {
    const proof = await api.proof(id)
    const a = await api.paid(id, query, proof)
    expect(a.status).toBe(status)
    expect(a.body.success).toBe(false)
    expect(a.body.error.code).toBe(code)
    expect(a.body.meta.request_id).toBe(a.headers.get('x-request-id'))
    expect(a.body.accepts).toBeUndefined()
    // The gate released the claim: the payment is not recorded as served, and the proof still buys.
    expect(await api.ledgerState(proof)).toBe('failed')
    slow.open()
    behaviour = defaults()
    const retry = await api.paid(id, query, proof)
    expect(retry.status).toBe(200)
    expect(retry.headers.get('x-payment-replay')).toBeNull()
    expect(await api.ledgerState(proof)).toBe('served')
    return a.body.error
  }

  test('slow providers: 504 provider_timeout naming them', async () => {
    behaviour.native = { kind: 'slow' }
    behaviour.web = { kind: 'slow' }
    const error = await unpaid('china.trends.douyin', { keyword: '露营' }, 504, 'provider_timeout')
    expect(error.details.providers.map((p: { status: string }) => p.status)).toEqual(['timeout', 'timeout'])
  })

  test('providers answering 5xx: 502 provider_unavailable', async () => {
    behaviour.native = { kind: '5xx' }
    behaviour.web = { kind: '5xx' }
    const error = await unpaid('china.sentiment', { entity: '露营' }, 502, 'provider_unavailable')
    expect(error.details.providers.every((p: { error: string }) => p.error.includes('HTTP 503'))).toBe(true)
  })

  test('providers answering malformed JSON: 502 provider_unavailable', async () => {
    behaviour.native = { kind: 'malformed' }
    behaviour.web = { kind: 'malformed' }
    await unpaid('china.kols', { category: '露营', platform: 'wechat' }, 502, 'provider_unavailable')
  })

  test('a timeout on one lane and a 5xx on the other is a 502 (not every failure was a timeout)', async () => {
    behaviour.native = { kind: 'slow' }
    behaviour.web = { kind: '5xx' }
    await unpaid('china.trends.wechat', { keyword: '露营' }, 502, 'provider_unavailable')
  })

  test('providers with empty results: a 404 for the keyword', async () => {
    behaviour.native = { kind: 'empty' }
    behaviour.web = { kind: 'empty' }
    const error = await unpaid('china.trends', { keyword: '露营' }, 404, 'not_found')
    expect(error.details.parameter).toBe('keyword')
  })
})

describe('long runs', () => {
  test('the payment window covers the slowest configurable provider chain (the native step, the web step and the model)', () => {
    // A lane asks its native provider, then (when that is thin) the web provider, then the model summarises.
    const worstMs =
      ENV.NATIVE_SEARCH_TIMEOUT_MS.schema.maximum! + ENV.WEB_SEARCH_TIMEOUT_MS.schema.maximum! + ENV.LLM_TIMEOUT_MS.schema.maximum!
    for (const id of [
      'china.trends',
      'china.trends.xiaohongshu',
      'china.trends.douyin',
      'china.trends.wechat',
      'china.sentiment',
      'china.kols',
    ]) {
      // Settlement needs the authorization valid for VALID_BEFORE_MARGIN_SECONDS after the work, and the work
      // on the largest answers takes about a second (bench-provider-stall.ts): 5 s of it, on a busy machine too.
      expect(worstMs / 1000 + VALID_BEFORE_MARGIN_SECONDS + 5).toBeLessThanOrEqual(paymentWindowSeconds(route(id)))
    }
  })

  test('the work ends with the payment: providers allowed 25 s get only what is left of a proof valid for 9 s, and nothing is charged', async () => {
    // Providers that never answer in time, allowed far longer than the proof leaves for the work.
    const never = gate()
    const hanging = loopback(async () => {
      await never.opened
      return json({ results: [] })
    })
    const patient = await Api.start({ ...env(hanging, 25_000), WEB_SEARCH_URL: `${hanging.url}/web` })
    try {
      const validBefore = BigInt(Math.floor(Date.now() / 1000) + 9)
      const proof = await patient.payer.proof({ value: usdToAtomic(route('china.trends.douyin').priceUsd), validBefore })
      const a = await patient.paid('china.trends.douyin', { keyword: '露营' }, proof)
      expect([a.status, a.body.error.code]).toEqual([504, 'provider_timeout'])
      // Cut by the payment's time, not by the providers' own 25 s: the native call waited what was left
      // (at most 9 - VALID_BEFORE_MARGIN_SECONDS s), and the web fallback after it was not waited for either.
      const [native, web] = a.body.error.details.providers as { provider: string; status: string; error: string }[]
      // (Read before toMatchObject, which leaves its matchers in the object it checks.)
      const waitedMs = Number(/within the (\d+) ms/.exec(native!.error)?.[1])
      expect(native).toMatchObject({
        status: 'timeout',
        error: expect.stringMatching(/^native-search .*: no answer within the \d+ ms left of the payment's time for the work$/),
      })
      expect(web).toMatchObject({
        status: 'timeout',
        error: expect.stringMatching(/^web-search .*: not called: the payment's time for the work is spent$/),
      })
      expect(waitedMs).toBeLessThanOrEqual((9 - VALID_BEFORE_MARGIN_SECONDS) * 1000)
      // The call never made is not counted as a provider request: only the native one is.
      const spend = await patient.spendOf(a.body.meta.request_id)
      expect(spend.map((s) => [s.role, s.requests])).toEqual([['native', 1]])
      expect(await patient.ledgerState(proof)).toBe('failed')
    } finally {
      never.open()
      patient.close()
      hanging.stop()
    }
  })

  test('402 requirements of a China route carry maxTimeoutSeconds that cover its typical wait', async () => {
    const a = await api.free('china.trends', { keyword: '露营' })
    expect(a.status).toBe(402)
    expect(a.body.accepts[0].maxTimeoutSeconds).toBeGreaterThanOrEqual(route('china.trends').typicalWaitSeconds)
  })

  test('a client that retries while a slow paid request runs gets the same answer, paid once; the artifact path returns it too', async () => {
    // A slow provider (within its timeout): the test decides when it answers.
    const release = gate()
    const arrived = gate()
    const slowWorld = loopback(async (_req, url) => {
      if (url.pathname.startsWith('/native')) {
        arrived.open()
        await release.opened
        return json({ results: posts({ perDay: () => 1 }) })
      }
      return json({ results: [] })
    })
    const patient = await Api.start({
      NATIVE_SEARCH_URL: `${slowWorld.url}/native/{platform}`,
      WEB_SEARCH_URL: `${slowWorld.url}/web`,
      NATIVE_SEARCH_TIMEOUT_MS: '25000',
    })
    try {
      const proof = await patient.proof('china.trends.douyin')
      const first = patient.paid('china.trends.douyin', { keyword: '露营' }, proof)
      await arrived.opened
      const retry = patient.paid('china.trends.douyin', { keyword: '露营' }, proof)
      release.open()
      const [a, b] = await Promise.all([first, retry])
      expect([a.status, b.status]).toEqual([200, 200])
      expect(b.body).toEqual(a.body)
      expect([a.headers.get('x-payment-replay'), b.headers.get('x-payment-replay')]).toEqual([null, 'stored-result'])
      // One run: the native provider asked once per compared window (prior and recent), not again for the retry.
      expect(slowWorld.requests.filter((r) => r.url.pathname.startsWith('/native'))).toHaveLength(2)
      const again = await patient.rt.get(a.body.meta.artifact_path)
      expect(again.status).toBe(200)
      expect(await again.json()).toEqual(a.body)
    } finally {
      release.open()
      patient.close()
      slowWorld.stop()
    }
  })
})

describe('answers are reused for INTELLIGENCE_CACHE_TTL_SECONDS', () => {
  test('the same request within the TTL is a hit that asks no provider; a degraded answer is not reused', async () => {
    // The loopback providers answer posts about 露营 whatever they are asked: ask for that (their posts are not about anything else).
    const cached = await Api.start({ ...env(world, 1500), INTELLIGENCE_CACHE_TTL_SECONDS: '3600' })
    try {
      const first = await cached.paid('china.trends.douyin', { keyword: '露营' })
      expect(first.body.meta.cache_status).toBe('miss')
      const asked = world.requests.length
      expect(asked).toBeGreaterThan(0)
      const second = await cached.paid('china.trends.douyin', { keyword: '露营' })
      expect(second.status).toBe(200)
      expect(second.body.meta.cache_status).toBe('hit')
      expect(second.body.pricing.payment_status).toBe('paid') // a hit is still a paid request
      expect(second.body.data).toEqual(first.body.data)
      expect(world.requests.length).toBe(asked)

      // The model fails: the answer is served (extractive themes) but the next request tries again.
      behaviour.llm = { kind: '5xx' }
      const degraded = await cached.paid('china.trends.wechat', { keyword: '露营' })
      expect(degraded.body.data.data_quality.providers.some((p: any) => p.status === 'failed')).toBe(true)
      const again = await cached.paid('china.trends.wechat', { keyword: '露营' })
      expect(again.body.meta.cache_status).toBe('miss')
    } finally {
      cached.close()
    }
  })
})
