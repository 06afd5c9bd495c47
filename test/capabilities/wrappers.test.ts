/**
 * The capability wrappers on the shipped samples: their output contracts, GET/POST equivalence, alias
 * resolution, legs matching the raw routes, degraded and failed legs, and session reuse.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { routeById } from '../../src/catalog'
import { MOMENTUM_POINTS, VISIBILITY_WEIGHTS } from '../../src/catalog/routes/capabilities'
import { CONFIDENCE } from '../../src/catalog/evidence-rules'
import { changeWithinNoise } from '../../src/intelligence/analysis/momentum'
import { SPEND } from '../../src/data/contracts'
import { DuckDb } from '../../src/data/duckdb'
import { importDataset } from '../../src/data/import/refresh'
import { usdToAtomic } from '../../src/core/usdc'
import { expectDocumentedData, expectPaidEnvelope } from '../../support/paying-client'
import { Client as Api } from '../../support/paying-client'

const ROOT = resolve(import.meta.dir, '../..')
const SAMPLES = {
  'capabilities.destination_demand': { destination: 'Tokyo' },
  'capabilities.visibility': { brand_name: 'Aurora Skin' },
  'capabilities.kol_shortlist': { brand_name: 'Zephyr Trail', category: 'outdoor' },
} as const
type WrapperId = keyof typeof SAMPLES
const withoutSession = ({ session: _, ...data }: any) => data

let api: Api
beforeAll(async () => {
  api = await Api.start()
})
afterAll(() => api.close())

describe('output contracts', () => {
  test.each(Object.keys(SAMPLES) as WrapperId[])('%s: paid envelope, every documented field, cost, sources and session', async (id) => {
    const a = await api.paid(id, SAMPLES[id])
    const route = routeById.get(id)!
    expectPaidEnvelope(a, route)
    expectDocumentedData(route, a.body.data)
    const d = a.body.data
    expect(d.cost.price_usd).toBe(route.priceUsd)
    const used = d.source_summary.filter((l: any) => l.status === 'ran' || l.status === 'reused')
    const separately = used.reduce(
      (sum: bigint, l: any) => sum + usdToAtomic(routeById.get([...routeById.values()].find((r) => r.path === l.route)!.id)!.priceUsd),
      0n,
    )
    expect(usdToAtomic(d.cost.legs_bought_separately_usd)).toBe(separately)
    // Signed: price - legs bought separately, so the three figures add up.
    const signed = (usd: string) => (usd.startsWith('-') ? -usdToAtomic(usd.slice(1)) : usdToAtomic(usd))
    expect(signed(d.cost.difference_usd)).toBe(usdToAtomic(route.priceUsd) - separately)
    expect(d.confidence).toBeGreaterThan(0)
    expect(d.session.id).toMatch(/^ses_[0-9a-f]{24}$/)
    expect(d.session.resumed).toBe(false)
  })

  test.each(Object.keys(SAMPLES) as WrapperId[])('%s: POST with a JSON body answers what GET answers', async (id) => {
    const get = await api.paid(id, SAMPLES[id])
    const post = await api.post(id, SAMPLES[id])
    expect(post.status).toBe(200)
    expect(withoutSession(post.body.data)).toEqual(withoutSession(get.body.data))
  })

  test('POST input is checked like GET input: unknown fields and malformed JSON are free 400s', async () => {
    const unknown = await api.post('capabilities.destination_demand', { destination: 'Tokyo', destinaton: 'x' }, null)
    expect(unknown.status).toBe(400)
    expect(unknown.body.error.code).toBe('invalid_parameter')
    const missing = await api.post('capabilities.kol_shortlist', { brand_name: 'Aurora Skin' }, null)
    expect(missing.status).toBe(400)
    expect(missing.body.error.details.parameter).toBe('category')
    const malformed = await api.post('capabilities.destination_demand', '{"destination": ', null)
    expect(malformed.status).toBe(400)
    expect(malformed.body.accepts).toBeUndefined()
  })
})

describe('destination demand', () => {
  test.each(['东京', 'TYO', 'NRT', 'tokyo'])("%p reaches Tokyo, with the raw routes' figures", async (name) => {
    const d = await api.data('capabilities.destination_demand', { destination: name })
    expect(d.destination).toBe('Tokyo')
    const flights = await api.data('flights.summary', { destination: 'Tokyo' })
    expect(d.source_month).toBe(flights.source_month)
    expect(d.notable_signals[0]).toContain(flights.summary.estimated_passengers.toLocaleString('en-US'))
    const trend = await api.data('flights.trend', { destination: 'Tokyo' })
    expect(d.demand_direction).toBe(trend.direction)
    expect(d).toMatchObject({ scope: 'city', country: 'Japan', destinations: ['Tokyo'] })
  })

  test("a country (Japan, 日本, JP) is its destinations in the flights data as one cluster, with the country's spend", async () => {
    const [en, zh, code] = await Promise.all(
      ['Japan', '日本', 'JP'].map((destination) => api.data('capabilities.destination_demand', { destination })),
    )
    // The same answer; only whether a leg came from the result cache may differ.
    const answer = (d: any) => ({ ...withoutSession(d), source_summary: d.source_summary.map(({ cache_status: _, ...l }: any) => l) })
    expect(answer(zh)).toEqual(answer(en))
    expect(answer(code)).toEqual(answer(en))
    // The members are what the flights data files under Japan, not a list written here.
    const ranking = await api.data('flights.ranking', { limit: 100 })
    const japanese = ranking.destinations.filter((r: any) => r.country === 'Japan').map((r: any) => r.destination)
    expect(japanese.length).toBeGreaterThan(1)
    expect(en).toMatchObject({ scope: 'country', destination: 'Japan', country: 'Japan' })
    expect([...en.destinations].sort()).toEqual([...japanese].sort())
    const aggregate = await api.data('flights.aggregate', { destinations: japanese.join(','), label: 'Japan' })
    expect(en.source_month).toBe(aggregate.month)
    expect(en.destinations).toEqual(aggregate.members.map((m: any) => m.destination))
    expect(en.notable_signals[0]).toContain(aggregate.summary.estimated_passengers.toLocaleString('en-US'))
    expect(en.demand_direction).toBe(aggregate.summary.growth_direction)
    const legs = Object.fromEntries(en.source_summary.map((l: any) => [l.name, l]))
    expect(legs.flights_aggregate).toMatchObject({ status: 'ran', required: true, route: '/v1/market-data/flights/aggregate' })
    expect(legs.spend_trends.status).toBe('ran')
    const spend = await api.data('spend.trends', { country: 'Japan' })
    expect(en.notable_signals.join(' ')).toContain(`Card spend in ${spend.country}: ${spend.direction}`)
    expect(en.confidence).toBe(CONFIDENCE.sampleShare) // every leg answered, on the generated sample datasets
    // A name that is both a city and a country is the city, as the catalog says.
    expect(await api.data('capabilities.destination_demand', { destination: 'Singapore' })).toMatchObject({
      scope: 'city',
      destinations: ['Singapore'],
    })
  })

  test.each(['Atlantis', '亚特兰蒂斯', 'ZZ'])('an unknown destination (%p) is a free 404 from the required leg', async (destination) => {
    const a = await api.free('capabilities.destination_demand', { destination })
    expect(a.status).toBe(404)
    expect(a.body.error.details.parameter).toBe('destination')
    expect(a.body.accepts).toBeUndefined()
  })
})

describe('visibility and KOL shortlist', () => {
  test('a name outside the weekly brands (a destination): the weekly leg is skipped with the reason, the answer stands on the others', async () => {
    const d = await api.data('capabilities.visibility', { brand_name: 'Tokyo' })
    const weekly = d.source_summary.find((l: any) => l.name === 'weekly_brand_snapshot')
    expect(weekly).toMatchObject({ status: 'skipped', required: false })
    expect(weekly.reason).toContain('not among the brands of the weekly signals')
    expect(d.source_summary.find((l: any) => l.name === 'trends').status).toBe('ran')
    // The score is the documented weighted mean of what answered: momentum and sentiment here.
    const trends = await api.data('china.trends', { keyword: 'Tokyo' })
    const sentiment = await api.data('china.sentiment', { entity: 'Tokyo' })
    const detail = trends.momentum_detail
    const noise = changeWithinNoise({
      momentum: trends.summary.momentum,
      volume_change_pct: detail.volume_change_pct,
      volume_z: detail.volume_z,
    })
    const momentum = MOMENTUM_POINTS[noise ? 'insufficient_evidence' : (trends.summary.momentum as keyof typeof MOMENTUM_POINTS)]
    const w = VISIBILITY_WEIGHTS
    expect(d.score).toBe(
      Math.round((w.momentum * momentum + w.sentiment * ((sentiment.summary.net_score + 100) / 2)) / (w.momentum + w.sentiment)),
    )
  })

  test('a weekly brand gets its weekly snapshot in the score', async () => {
    const d = await api.data('capabilities.visibility', { brand_name: 'aurora skin' })
    const weekly = await api.data('signals.brands.snapshot', { brand_slug: 'aurora-skin' })
    expect(d.source_summary.find((l: any) => l.name === 'weekly_brand_snapshot').status).toBe('ran')
    expect(d.gaps.concat(d.strengths).join(' ')).toContain(`#${weekly.rank_positions.brand_visibility} for visibility`)
  })

  test("a brand asked by its Chinese name gets the English name's answer, weekly snapshot included", async () => {
    const zh = await api.data('capabilities.visibility', { brand_name: '极光肌' })
    const en = await api.data('capabilities.visibility', { brand_name: 'Aurora Skin' })
    expect(zh.resolved).toMatchObject({ kind: 'brand', id: 'brand:aurora-skin' })
    expect(zh.source_summary.find((l: any) => l.name === 'weekly_brand_snapshot').status).toBe('ran')
    const comparable = (d: any) => ({
      ...withoutSession(d),
      brand_name: null,
      resolved: { ...d.resolved, matched: null },
      source_summary: d.source_summary.map((l: any) => ({ ...l, cache_status: null })),
    })
    expect(comparable(zh)).toEqual(comparable(en))
  })

  test('a category in Chinese or as a synonym gets the weekly creator ranking like its slug', async () => {
    for (const category of ['美妆', 'skincare', 'Beauty & skincare']) {
      const d = await api.data('capabilities.kol_shortlist', { brand_name: 'Aurora Skin', category })
      expect([category, d.source_summary.find((l: any) => l.name === 'weekly_creator_ranking').status]).toEqual([category, 'ran'])
      expect(d.resolved.category.id).toBe('category:beauty')
    }
  })

  test('the KOL shortlist carries the raw shortlist and flags what to check', async () => {
    const d = await api.data('capabilities.kol_shortlist', { brand_name: 'Aurora Skin', category: 'beauty' })
    const raw = await api.data('china.kols', { category: 'beauty' })
    expect(d.creators.map((c: any) => c.handle)).toEqual(raw.shortlist.map((c: any) => c.handle))
    const flagged = raw.shortlist.filter((c: any) => c.engagement.flags.length > 0).length
    if (flagged > 0) expect(d.risks.join(' ')).toContain(`${flagged} shortlisted creator(s) show engagement anomalies`)
    else expect(d.risks.join(' ')).not.toContain('engagement anomalies')
    expect(d.source_summary.find((l: any) => l.name === 'weekly_creator_ranking').status).toBe('ran')
  })
})

describe('sessions', () => {
  test('passing session back reuses every leg gathered; an unknown session starts a new one', async () => {
    const first = await api.data('capabilities.destination_demand', { destination: 'Osaka' })
    const again = await api.data('capabilities.destination_demand', { destination: 'Osaka', session: first.session.id })
    expect(again.session).toMatchObject({ id: first.session.id, resumed: true, requested: first.session.id, reused_legs: 3 })
    expect(again.source_summary.every((l: any) => l.status === 'reused')).toBe(true)
    expect(withoutSession({ ...again, source_summary: [] })).toEqual(withoutSession({ ...first, source_summary: [] }))

    const unknown = await api.data('capabilities.destination_demand', { destination: 'Osaka', session: `ses_${'0'.repeat(24)}` })
    expect(unknown.session.resumed).toBe(false)
    expect(unknown.session.id).not.toBe(`ses_${'0'.repeat(24)}`)
    const malformed = await api.free('capabilities.destination_demand', { destination: 'Osaka', session: 'not-a-session' })
    expect(malformed.status).toBe(400)
    expect(malformed.body.error.details.parameter).toBe('session')
  })
})

describe('legs that fail after payment', () => {
  let dir: string
  let broken: Api
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wrapper-legs-'))
    cpSync(join(ROOT, 'datasets'), dir, { recursive: true })
    // A spend market the flights data has but the spend data lacks: the spend leg does not apply.
    const db = await DuckDb.open(1)
    const candidate = join(mkdtempSync(join(tmpdir(), 'candidates-')), 'spend-no-uae.parquet')
    await db.exec(
      `COPY (SELECT * FROM read_parquet('${join(dir, 'spend.parquet')}') WHERE country_code <> 'AE') TO '${candidate}' (FORMAT parquet)`,
    )
    await importDataset(db, dir, candidate, SPEND, { sample: true })
    db.close()
    broken = await Api.start({ DATASETS_DIR: dir, DATASETS_RELOAD_SECONDS: '0' })
  })
  afterAll(() => {
    broken?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  test('a destination whose market is not in the spend data: the spend leg is skipped and the answer says so', async () => {
    const d = await broken.data('capabilities.destination_demand', { destination: 'Dubai' })
    const spend = d.source_summary.find((l: any) => l.name === 'spend_trends')
    expect(spend.status).toBe('skipped')
    expect(spend.reason).toContain('no market for United Arab Emirates')
    expect(d.summary).toContain('no spend data for this market')
    expect(d.confidence).toBe(Math.round(0.75 * CONFIDENCE.sampleShare * 100) / 100)
    expect(d.cost.legs_used).toBe(2)
  })

  test('a country the spend data lacks still answers from its destinations in the flights data', async () => {
    const d = await broken.data('capabilities.destination_demand', { destination: 'United Arab Emirates' })
    expect(d).toMatchObject({ scope: 'country', country: 'United Arab Emirates' })
    expect(d.destinations).toContain('Dubai')
    expect(d.source_summary.find((l: any) => l.name === 'spend_trends').status).toBe('skipped')
    expect(d.confidence).toBe(Math.round(0.75 * CONFIDENCE.sampleShare * 100) / 100)
  })

  test('an optional leg that fails at run time degrades the answer; a required one fails it and nothing is charged', async () => {
    // The spend leg answers from the monthly totals loaded with the version, not from the file: losing
    // France's totals under the running service is what makes it fail when it runs.
    broken.rt.market.snapshot().totals.countries.delete('France')
    const d = await broken.data('capabilities.destination_demand', { destination: 'Paris' })
    const spend = d.source_summary.find((l: any) => l.name === 'spend_trends')
    expect(spend).toMatchObject({ status: 'failed', reason: 'internal error' })
    expect(d.confidence).toBe(Math.round(0.75 * CONFIDENCE.sampleShare * 100) / 100)

    // The flights file disappears: the required summary leg fails when it reads the month's origins.
    const manifest = JSON.parse(await Bun.file(join(dir, 'manifest.json')).text())
    rmSync(join(dir, manifest.datasets.flights.file))
    const proof = await broken.proof('capabilities.destination_demand')
    const failed = await broken.paid('capabilities.destination_demand', { destination: 'Rome' }, proof)
    expect(failed.status).toBe(500)
    expect(failed.body.error.code).toBe('internal_error')
    expect(await broken.ledgerState(proof)).toBe('failed') // released: not charged, the authorization can buy again
  })
})
