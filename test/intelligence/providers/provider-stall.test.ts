/**
 * Hostile providers. A search and chat-completions provider in another process (support/hostile-provider.ts)
 * answers every call of a paid request with (a) ~16 MB of items, streamed without a Content-Length, (b) 50
 * items of 100,000 characters, (c) results at the item limits, (d) long results filling an answer to just
 * under the byte limit, (e) and (f) answers under the byte limit whose JSON shape would hold the event loop
 * in JSON.parse: nested two million levels deep, and one object of ~310,000 keys. What the limits promise,
 * asserted here: an answer over the byte limit or the shape limits is refused without reading it whole (a
 * 502 naming the limit, nothing charged), and answers within them are served. How
 * long other requests waited meanwhile (the event-loop stall the limits bound: 15.7 s before them) and the
 * time budget are measured by `bun scripts/bench-provider-stall.ts` (BENCHMARKS.md); that long loops take
 * turns with other requests is test/intelligence/slices.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { PROVIDER_LIMITS } from '../../../src/catalog/evidence-rules'
import type { ScenarioName } from '../../../support/hostile-provider'
import { Client as Api, type Query } from '../../../support/paying-client'

const ROUTES: [string, Query][] = [
  ['china.trends', { keyword: '露营' }],
  ['china.sentiment', { entity: '露营' }],
  ['china.kols', { category: '露营' }],
]

let provider: Bun.Subprocess<'ignore', 'pipe', 'inherit'>
let url: string
let api: Api

/** Makes the provider answer `name`; returns the size of one answer in bytes. */
async function answerWith(name: ScenarioName): Promise<number> {
  return Number(await (await fetch(`${url}/scenario/${name}`, { method: 'POST' })).text())
}

beforeAll(async () => {
  provider = Bun.spawn([process.execPath, `${import.meta.dir}/../../../support/hostile-provider.ts`], {
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'inherit',
  })
  const { value } = await provider.stdout.getReader().read()
  url = `http://127.0.0.1:${new TextDecoder().decode(value).trim()}`
  api = await Api.start({
    NATIVE_SEARCH_URL: `${url}/native/{platform}`,
    WEB_SEARCH_URL: `${url}/web`,
    NATIVE_SEARCH_TIMEOUT_MS: '25000',
    WEB_SEARCH_TIMEOUT_MS: '25000',
    // The model gets the same answers: search JSON where a completion is expected.
    LLM_BASE_URL: `${url}/v1`,
    LLM_MODEL: 'loopback-model',
    LLM_TIMEOUT_MS: '30000',
    INTELLIGENCE_CACHE_TTL_SECONDS: '0',
    KOL_CACHE_TTL_SECONDS: '0',
  })
}, 60_000)
afterAll(() => {
  api?.close()
  provider?.kill()
})

/** Every route, asked while the provider answers what `answerWith` set: a bad response naming `limit` (502, nothing charged). */
async function expectRefusedNaming(limit: string): Promise<void> {
  for (const [id, query] of ROUTES) {
    const refused = await api.paid(id, query)
    expect(refused.status).toBe(502)
    expect(refused.body.error.code).toBe('provider_unavailable')
    expect(refused.headers.get('payment-response')).toBeNull()
    const failures = refused.body.error.details.providers as { status: string; error: string }[]
    expect(failures.length).toBeGreaterThan(0)
    for (const failed of failures) expect(failed).toMatchObject({ status: 'failed', error: expect.stringContaining(limit) })
  }
}

describe('a hostile provider', () => {
  for (const [name, label] of [
    ['a', '(a) ~16 MB streamed without a Content-Length'],
    ['b', '(b) 50 items of 100,000 characters'],
  ] as const) {
    test(`${label}: over the byte limit, refused as a bad response naming the limit (502, nothing charged)`, async () => {
      expect(await answerWith(name)).toBeGreaterThan(PROVIDER_LIMITS.searchResponseBytes)
      await expectRefusedNaming(`more than the ${PROVIDER_LIMITS.searchResponseBytes.toLocaleString('en-US')} bytes allowed`)
    }, 120_000)
  }

  for (const [name, label, limit] of [
    ['e', '(e) arrays nested two million levels deep', `nested deeper than ${PROVIDER_LIMITS.jsonDepth} levels`],
    ['f', '(f) one object of ~310,000 keys', `more than ${PROVIDER_LIMITS.jsonKeys.toLocaleString('en')} keys`],
  ] as const) {
    test(`${label}, under the byte limit: refused as a bad response naming the shape limit (502, nothing charged)`, async () => {
      expect(await answerWith(name)).toBeLessThanOrEqual(PROVIDER_LIMITS.searchResponseBytes)
      await expectRefusedNaming(limit)
    }, 120_000)
  }

  for (const [name, label] of [
    ['c', '(c) results at the item limits'],
    ['d', '(d) long results just under the byte limit'],
  ] as const) {
    test(`${label}: within the limits, answered`, async () => {
      expect(await answerWith(name)).toBeLessThanOrEqual(PROVIDER_LIMITS.searchResponseBytes)
      for (const [id, query] of ROUTES) expect((await api.paid(id, query)).status).toBe(200)
    }, 120_000)
  }
})
