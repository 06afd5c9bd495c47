/**
 * WARM_UP_SAMPLE_ANSWERS: the sample answers of the known entities are computed in the background once the
 * datasets are indexed, so a buyer's first question about one (default parameters) is a cache hit.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { warmUpAsks } from '../../src/intelligence/warm-up'
import { until } from '../../support/until'
import { Client as Api } from '../../support/paying-client'

const SLOW = 120_000

describe('a seller that warms its sample answers', () => {
  let api: Api
  let warmed: { state: string; passes: number; last: { answers: number; failed: number } }
  beforeAll(async () => {
    api = await Api.start({ WARM_UP_SAMPLE_ANSWERS: 'true' })
    warmed = await until(
      '/ready to say the sample answers are warm',
      async () => {
        const body = (await (await api.rt.get('/ready')).json()) as { data: { checks: { sample_answers_warmed?: typeof warmed } } }
        const state = body.data.checks.sample_answers_warmed
        return state?.state === 'warm' ? state : undefined
      },
      { ms: SLOW, every: 250 },
    )
  }, SLOW)
  afterAll(() => api?.close())

  test('/ready says how many answers one pass computed: one per default ask of every known topic, brand, category and destination, and per platform for KOLs', () => {
    const asks = warmUpAsks(api.rt.intelligence.entities())
    expect(asks.length).toBeGreaterThan(500)
    expect(warmed.passes).toBe(1)
    expect(warmed.last.answers + warmed.last.failed).toBe(asks.length)
    expect(warmed.last.answers).toBeGreaterThan(asks.length * 0.95)
  })

  test('the first paid question about a known name with the default parameters is a cache hit, however the name is written', async () => {
    for (const [id, query] of [
      ['china.sentiment', { entity: 'Aurora Skin' }],
      ['china.sentiment', { entity: 'aurora skin' }],
      ['china.trends', { keyword: '露营' }],
      ['china.trends', { keyword: 'Tokyo' }],
      ['china.kols', { category: 'beauty' }],
      ['china.kols', { category: 'beauty', platform: 'douyin' }],
    ] as const) {
      const answer = await api.paid(id, query)
      expect(answer.status).toBe(200)
      expect([id, query, answer.body.meta.cache_status]).toEqual([id, query, 'hit'])
    }
  })

  test('other parameters are computed when asked (a miss), then cached like any answer', async () => {
    const first = await api.paid('china.trends', { keyword: 'camping', timeframe: '90d' })
    expect(first.body.meta.cache_status).toBe('miss')
    const again = await api.paid('china.trends', { keyword: 'camping', timeframe: '90d' })
    expect(again.body.meta.cache_status).toBe('hit')
  })
})

describe('a seller that does not (the default outside production)', () => {
  test('/ready has no warm-up to report, and a first question is computed', async () => {
    const api = await Api.start()
    try {
      const body = (await (await api.rt.get('/ready')).json()) as { data: { checks: Record<string, unknown> } }
      expect(body.data.checks).not.toHaveProperty('sample_answers_warmed')
      expect((await api.paid('china.sentiment', { entity: 'Aurora Skin' })).body.meta.cache_status).toBe('miss')
    } finally {
      api.close()
    }
  })
})
