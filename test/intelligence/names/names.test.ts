/**
 * Names as buyers type them, over the routes: a spelling, a name run together or with an intent word gets
 * the canonical answer (and `resolved` says how it was read), a near miss is a free 404 that names what it
 * may mean, and free text next to a known name is sold only on evidence of its own (else the payment is
 * released). Every answer on the sample world says so, first in `data` and in its summary.
 */
import { describe, expect, test } from 'bun:test'
import { CONFIDENCE, NEAR_NAME_MIN_ITEMS } from '../../../src/catalog/evidence-rules'
import { SAMPLE_SENTENCE } from '../../../src/intelligence/reports/sample-label'
import { startApi } from '../../../support/api-during-tests'
import type { Client as Api } from '../../../support/paying-client'

let api: Api
startApi((client) => (api = client))

/** The answer without what differs between two spellings of one question: the echo and how it was read. */
const comparable = (d: any) =>
  JSON.stringify(d, (k, v) =>
    ['keyword', 'entity', 'category', 'brand_name', 'matched', 'stripped', 'corrected_from'].includes(k) ? undefined : v,
  )

describe('one answer for every spelling', () => {
  test('case, width, accents, & for and, joined words and hyphens: the canonical answer, charged once each', async () => {
    const canonical = await api.data('china.trends', { keyword: 'Kite & Pine', timeframe: '30d' })
    for (const keyword of ['kite and pine', 'ＫＩＴＥ＋ＰＩＮＥ', 'KitePine', 'kite-and-pine']) {
      const d = await api.data('china.trends', { keyword, timeframe: '30d' })
      expect([keyword, comparable(d)]).toEqual([keyword, comparable(canonical)])
      expect(d.keyword).toBe(keyword.normalize('NFKC')) // the echo is the buyer's own spelling (full width folded at the door)
    }
    const lumiere = await api.data('china.sentiment', { entity: 'Lumière Lab' })
    expect(lumiere.resolved.id).toBe('brand:lumiere-lab')
  })

  test('an intent word before or after a name is taken off, and resolved.stripped says which', async () => {
    const japan = await api.data('china.trends', { keyword: '日本' })
    const travel = await api.data('china.trends', { keyword: '日本旅游' })
    expect(travel.resolved).toMatchObject({ id: 'country:JP', stripped: ['旅游'] })
    expect(comparable(travel)).toBe(comparable(japan))
    const review = await api.data('china.sentiment', { entity: 'Aurora Skin review' })
    expect(review.resolved).toMatchObject({ id: 'brand:aurora-skin', stripped: ['review'] })
    // A name that holds an intent word is itself first: 东京旅行 is a topic, not Tokyo with 旅行 off.
    expect((await api.data('china.trends', { keyword: '东京旅行攻略' })).resolved).toMatchObject({
      id: 'topic:tokyo-travel',
      stripped: ['攻略'],
    })
  })

  test('the words marketers use for a category reach the KOL routes and the shortlist', async () => {
    const skincare = await api.data('china.kols', { category: '护肤品' })
    expect(skincare.resolved.id).toBe('category:beauty')
    expect(comparable(skincare)).toBe(comparable(await api.data('china.kols', { category: '美妆' })))
    for (const category of ['露营装备', '宠物用品', 'beauty KOLs', '旅行博主']) {
      const a = await api.paid('china.kols', { category })
      expect([category, a.status]).toEqual([category, 200])
    }
    const shortlist = await api.data('capabilities.kol_shortlist', { brand_name: 'Aurora Skin', category: '护肤品' })
    expect(shortlist.resolved.category.id).toBe('category:beauty')
  })

  test('a code is a code only in capitals: PEN is Penang, pen a word with no evidence (a free 404)', async () => {
    expect((await api.data('china.trends', { keyword: 'PEN' })).resolved.id).toBe('destination:PEN')
    const pen = await api.paid('china.trends', { keyword: 'pen' })
    expect(pen.status).toBe(404)
    expect(pen.body.error.message).not.toMatch(/Penang/)
  })
})

describe('near misses are never charged', () => {
  test('a clear slip in a long name is read as the name, and resolved.corrected_from says so', async () => {
    const d = await api.data('china.trends', { keyword: 'Auror Skin' })
    expect(d.resolved).toMatchObject({ id: 'brand:aurora-skin', corrected_from: 'Auror Skin' })
    const demand = await api.data('capabilities.destination_demand', { destination: 'Instanbul' })
    expect(demand.destination).toBe('Istanbul')
  })

  test('pinyin of a name, a long misspelling or a near miss of a place is a free 404 before payment, with the names it may mean', async () => {
    for (const [route, query, meant] of [
      ['china.trends', { keyword: 'jiguangji' }, 'brand:aurora-skin'],
      ['china.sentiment', { entity: 'Celestine Pairs' }, 'brand:celestine-paris'],
      ['capabilities.visibility', { brand_name: 'Aurora Skni' }, 'brand:aurora-skin'],
      ['capabilities.destination_demand', { destination: 'Singapur' }, 'destination:SIN'],
      ['capabilities.destination_demand', { destination: '新加波' }, 'destination:SIN'],
    ] as const) {
      const a = await api.free(route, query)
      expect([route, a.status, a.body.error.code, a.body.accepts]).toEqual([route, 404, 'not_found', undefined])
      expect(a.body.error.details.did_you_mean.map((c: { id: string }) => c.id)).toContain(meant)
      expect(a.body.error.message).toMatch(/did you mean .*Nothing was charged/)
      expect(typeof a.body.meta.request_id).toBe('string')
    }
    // Two places sharing a name are offered once, as the name resolves (Singapore the city).
    expect((await api.free('capabilities.destination_demand', { destination: 'Singapur' })).body.error.details.did_you_mean).toHaveLength(1)
  })

  test('ordinary words near a name are questions of their own: answered on their own evidence, never refused up front', async () => {
    for (const keyword of ['ball', 'home', 'family', 'city']) {
      const a = await api.free('china.trends', { keyword })
      expect([keyword, a.status]).toEqual([keyword, 402])
    }
  })

  test(`free text next to a known name with fewer than ${NEAR_NAME_MIN_ITEMS} items of its own is a 404 after payment, and the payment is released`, async () => {
    for (const [route, query, meant, servable] of [
      ['china.trends', { keyword: 'Aurora Skin serum' }, 'brand:aurora-skin', { keyword: 'Aurora Skin' }],
      ['china.trends', { keyword: 'Aurora Skin 2' }, 'brand:aurora-skin', { keyword: 'Aurora Skin' }],
      ['china.trends', { keyword: 'Tokio' }, 'destination:TYO', { keyword: 'Tokyo' }],
      ['capabilities.visibility', { brand_name: 'Kite & Pine serum' }, 'brand:kite-and-pine', { brand_name: 'Kite & Pine' }],
    ] as const) {
      const proof = await api.proof(route)
      const a = await api.paid(route, query, proof)
      expect([query, a.status]).toEqual([query, 404])
      expect(a.body.error.details.did_you_mean.map((c: { id: string }) => c.id)).toContain(meant)
      expect(await api.ledgerState(proof)).not.toBe('served')
      // The same proof buys an answer it can serve: it was never spent.
      expect((await api.paid(route, servable, proof)).status).toBe(200)
    }
  })
})

describe('every answer on the sample world says it is sample', () => {
  const routes = [
    ['china.trends', { keyword: '露营' }],
    ['china.trends.xiaohongshu', { keyword: '露营' }],
    ['china.sentiment', { entity: '极光肌', lang: 'zh' }],
    ['china.kols', { category: '萌宠' }],
    ['capabilities.visibility', { brand_name: 'Pawsome Pantry' }],
    ['capabilities.kol_shortlist', { brand_name: 'Aurora Skin', category: 'beauty' }],
    ['capabilities.destination_demand', { destination: 'Japan' }],
    ['capabilities.destination_demand', { destination: 'Tokyo' }],
  ] as const

  test.each(routes)('%s %j: sample first in data, the summary says so, confidence below 1', async (route, query) => {
    const d = await api.data(route, query)
    expect(Object.keys(d)[0]).toBe('sample')
    expect(d.sample).toBe(true)
    const sentence = typeof d.summary === 'string' ? d.summary : (d.summary.headline ?? d.summary.narrative)
    expect(sentence.endsWith(d.lang === 'zh' ? SAMPLE_SENTENCE.zh : SAMPLE_SENTENCE.en)).toBe(true)
    const confidence = d.confidence ?? d.summary.confidence
    if (confidence !== undefined) expect(confidence).toBeLessThanOrEqual(CONFIDENCE.sampleShare)
    if (d.confidence_detail) expect(d.confidence_detail.sample).toBe(CONFIDENCE.sampleShare)
  })

  test('no wrapper says proceed or amplify at 0.95 or more on sample data', async () => {
    for (const [route, query] of [
      ['capabilities.kol_shortlist', { brand_name: 'Aurora Skin', category: 'beauty' }],
      ['capabilities.kol_shortlist', { brand_name: 'Leaf & Bubble', category: 'food-beverage' }],
      ['capabilities.visibility', { brand_name: 'Aurora Skin' }],
      ['capabilities.visibility', { brand_name: 'Kite & Pine' }],
    ] as const) {
      const d = await api.data(route, query)
      expect([route, query, d.confidence < 0.95]).toEqual([route, query, true])
    }
  })
})
