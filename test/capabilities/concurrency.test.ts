/**
 * The legs of a wrapper run concurrently. Proven with instrumented providers, not with timing: the
 * loopback search server holds every request until requests of both legs (trends asks for a window
 * twice as long as sentiment, so their `from` dates differ) are in flight at the same time. Legs run
 * one after the other would never meet there, the providers would time out, and the wrapper would fail.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { series } from '../../support/china-evidence'
import { json, loopback, type Loopback } from '../../support/loopback'
import { Client as Api } from '../../support/paying-client'

const BRAND = 'Camptest'
let world: Loopback
let api: Api
const inFlight = new Map<string, number>()
let met = 0
let release!: () => void
const bothLegs = new Promise<void>((r) => (release = r))

beforeAll(async () => {
  world = loopback(async (_req, url) => {
    const from = url.searchParams.get('from')!
    inFlight.set(from, (inFlight.get(from) ?? 0) + 1)
    const windows = [...inFlight].filter(([, n]) => n > 0).length
    met = Math.max(met, windows)
    if (windows >= 2) release()
    await bothLegs
    inFlight.set(from, inFlight.get(from)! - 1)
    const results = series({
      text: (i) => `${BRAND} 露营 ${i % 2 ? '强烈推荐' : '踩雷了'}`,
      perDay: () => 2,
      days: 60,
      idPrefix: url.pathname.startsWith('/web') ? 'web' : 'native',
    })
    return json({ results })
  })
  api = await Api.start({
    NATIVE_SEARCH_URL: `${world.url}/native/{platform}`,
    WEB_SEARCH_URL: `${world.url}/web`,
    NATIVE_SEARCH_TIMEOUT_MS: '10000',
    WEB_SEARCH_TIMEOUT_MS: '10000',
    INTELLIGENCE_CACHE_TTL_SECONDS: '0',
    KOL_CACHE_TTL_SECONDS: '0',
  })
})
afterAll(() => {
  release()
  api?.close()
  world?.stop()
})

test('the trends and sentiment legs of the visibility wrapper are in flight at the same time', async () => {
  const a = await api.paid('capabilities.visibility', { brand_name: BRAND })
  expect(a.status).toBe(200)
  expect(met).toBe(2)
  const legs = Object.fromEntries(a.body.data.source_summary.map((l: any) => [l.name, l.status]))
  expect(legs).toEqual({ trends: 'ran', sentiment: 'ran', weekly_brand_snapshot: 'skipped' })
  const windows = new Set(world.requests.map((r) => r.url.searchParams.get('from')))
  expect(windows.size).toBe(2)
}, 30_000)
