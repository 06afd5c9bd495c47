/** The sentiment route on the sample corpus: distribution, net score, frames with examples, en and zh. */
import { describe, expect, test } from 'bun:test'
import { SENTIMENT_NET_THRESHOLD } from '../../../src/catalog/evidence-rules'
import { ABOUT_CAMPING } from '../../../support/china-evidence'
import { startApiAndReader } from '../../../support/api-during-tests'
import type { Parquet as Corpus } from '../../../support/parquet'
import type { Client as Api, Query } from '../../../support/paying-client'
import { expectClientError, expectDocumentedData, expectPaidEnvelope, route } from '../../../support/paying-client'

let api: Api
let corpus: Corpus
startApiAndReader((client, reader) => ([api, corpus] = [client, reader]))

const ID = 'china.sentiment'

describe('GET /v1/china/sentiment', () => {
  test('answers the paid envelope with every documented field, and says the evidence is a generated sample', async () => {
    const a = await api.paid(ID, { entity: '东京旅行', industry: 'travel' })
    expectPaidEnvelope(a, route(ID))
    expectDocumentedData(route(ID), a.body.data)
    expect(a.body.data.data_quality).toMatchObject({ sample: true, dataset: 'evidence' })
  })

  test('the distribution covers every item and the net score is 100 x (positive - negative) / items', async () => {
    const d = await api.data(ID, { entity: '露营', platform: 'douyin' })
    const { positive, neutral, negative } = d.distribution
    expect(positive.items + neutral.items + negative.items).toBe(d.evidence.total_items)
    expect(positive.share + neutral.share + negative.share).toBeCloseTo(1, 2)
    expect(d.summary.net_score).toBe(Math.round((100 * (positive.items - negative.items)) / d.evidence.total_items))
  })

  test('the window is the timeframe: its item count equals the Parquet rows of that window', async () => {
    const d = await api.data(ID, { entity: '露营', platform: 'douyin', timeframe: '14d' })
    const { n } = await corpus.one<{ n: number }>(
      `SELECT count(*)::INT AS n FROM evidence WHERE platform = 'douyin' AND retrieval = 'native' AND published_at >= '2026-11-02T00:00:00Z'
          AND published_at < '2026-11-16T00:00:00Z' AND ${ABOUT_CAMPING}`,
    )
    expect(d.evidence.total_items).toBe(n)
  })

  test('a brand people praise reads positive and one they complain about reads negative, from Chinese and English posts alike', async () => {
    const praised = await api.data(ID, { entity: 'Aurora Skin', timeframe: '90d' })
    const panned = await api.data(ID, { entity: '绒蛾', timeframe: '90d' })
    expect(praised.summary.label).toBe('positive')
    expect(praised.summary.net_score).toBeGreaterThanOrEqual(SENTIMENT_NET_THRESHOLD)
    expect(panned.summary.label).toBe('negative')
    expect(panned.summary.net_score).toBeLessThanOrEqual(-SENTIMENT_NET_THRESHOLD)
    for (const d of [praised, panned]) {
      const languages = new Set(d.frames.flatMap((f: any) => f.examples.map((e: any) => e.language)))
      expect(d.evidence.total_items).toBeGreaterThan(50)
      expect(languages.has('zh')).toBe(true)
    }
  })

  test('frames carry example evidence in the dominant tone first, and their shares are of all items', async () => {
    const d = await api.data(ID, { entity: 'Velvet Moth', timeframe: '90d', industry: 'beauty' })
    expect(d.industry_frames).toBe('beauty')
    expect(d.frames.length).toBeGreaterThan(2)
    for (const f of d.frames) {
      expect(f.share).toBeCloseTo(f.items / d.evidence.total_items, 2)
      expect(f.examples.length).toBeGreaterThan(0)
      if (f.net_score < 0) expect(f.examples[0].tone).toBe('negative')
      if (f.net_score > 0) expect(f.examples[0].tone).toBe('positive')
    }
    const price = d.frames.find((f: any) => f.frame === 'price_value')
    expect(price.net_score).toBeLessThan(0)
  })

  test('lang=zh phrases the narrative, labels and summaries in Chinese; lang=en in English', async () => {
    const zh = await api.data(ID, { entity: '东京旅行', industry: 'travel', lang: 'zh' })
    const en = await api.data(ID, { entity: '东京旅行', industry: 'travel', lang: 'en' })
    // The narrative names what 东京旅行 resolved to (the topic Tokyo travel) in the answer's language.
    expect(zh.summary.narrative).toMatch(/^“东京旅行”在三个平台近30天的情绪/)
    expect(zh.frames.map((f: any) => f.label)).toContain('出行与签证')
    expect(zh.frames[0].summary).toMatch(/占\d+%/)
    expect(en.summary.narrative).toMatch(/^Sentiment on "Tokyo travel" on all three platforms over the last 30 days is /)
    expect(en.frames.map((f: any) => f.label)).toContain('Access and logistics')
    expect(en.distribution).toEqual(zh.distribution)
  })

  test('an unrecognised industry is echoed and gets the base frames only', async () => {
    const d = await api.data(ID, { entity: '露营', industry: 'shipbuilding' })
    expect(d.industry).toBe('shipbuilding')
    expect(d.industry_frames).toBeNull()
    const base = ['price_value', 'quality_efficacy', 'experience_service', 'safety_trust', 'aesthetics_lifestyle']
    for (const f of d.frames) expect(base).toContain(f.frame)
  })

  test.each([
    [{ entity: '露营', lang: 'fr' }, 'lang'],
    [{ entity: '' }, 'entity'],
    [{ entity: '露营', industry: ' ' }, 'industry'],
    [{ entity: '露营', timeframe: '400d' }, 'timeframe'],
  ] as [Query, string][])('%j is a free 400 naming %s', async (q, parameter) => {
    expectClientError(await api.free(ID, q), 400, parameter)
  })
})
