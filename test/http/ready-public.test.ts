/**
 * /ready in public: the verdict and a status word per part, for a load balancer or a buyer; the details
 * (the ledger's path, the datasets folder, a provider's host and last error) only with METRICS_TOKEN.
 * A provider that fails is played by a loopback server whose error names its own internals.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { json, loopback, type Loopback } from '../../support/loopback'
import { Client } from '../../support/paying-client'
import { testRuntime } from '../../support/runtime'

const TOKEN = 'ready-token-0123456789abcdef0123'
let world: Loopback
let api: Client

beforeAll(async () => {
  world = loopback(() => json({ error: { message: 'upstream db-7.internal.corp:5432 refused' } }, 500))
  api = await Client.start({
    METRICS_TOKEN: TOKEN,
    NATIVE_SEARCH_URL: `${world.url}/native/{platform}`,
    WEB_SEARCH_URL: `${world.url}/web`,
    INTELLIGENCE_CACHE_TTL_SECONDS: '0',
  })
  expect((await api.paid('china.trends', { keyword: '露营' })).status).toBe(502) // the providers failed once
})
afterAll(() => {
  api?.close()
  world?.stop()
})

const ready = async (headers: Record<string, string> = {}) => {
  const res = await api.rt.get('/ready', headers)
  return { status: res.status, text: await res.text() }
}

describe('without the token', () => {
  test('each part says its status in a word: no path, folder, host, URL or error text', async () => {
    const { status, text } = await ready()
    expect(status).toBe(200)
    const checks = JSON.parse(text).data.checks
    expect(checks).toEqual({
      duckdb: 'ok',
      datasets: 'ok',
      indexes: { market: 'ok', signals: 'ok', evidence: 'ok' },
      evidence: 'live',
      providers: 'failing',
      signature_recovery: 'ok',
      ledger: 'ok',
    })
    for (const detail of [':memory:', 'datasets', world.url.slice(7), 'db-7.internal', '/native', 'HTTP 500'])
      expect(text.replace('"datasets":"ok"', '')).not.toContain(detail)
  })

  test('a wrong token is the public answer too', async () => {
    expect(JSON.parse((await ready({ authorization: 'Bearer not-the-token-at-all' })).text).data.checks.providers).toBe('failing')
  })
})

test('with the token, the seller reads every detail', async () => {
  const checks = JSON.parse((await ready({ authorization: `Bearer ${TOKEN}` })).text).data.checks
  expect(checks.ledger).toEqual({ backend: 'sqlite', path: ':memory:', writable: true })
  expect(checks.datasets.dir).toEndWith('datasets')
  const calls = Object.entries(checks.providers.last_calls) as [string, { status: string; error: string }][]
  expect(calls.length).toBeGreaterThan(0)
  for (const [name, call] of calls) {
    expect(name).toContain(world.url.slice(7))
    expect(call.error).toContain('HTTP 500')
  }
})

test('in production without a token, /ready is public only and /metrics is an unknown path', async () => {
  const rt = await testRuntime({
    NODE_ENV: 'production',
    PAYMENT_MODE: 'facilitator',
    X402_FACILITATOR_URL: `${world.url}/facilitator`,
    PAY_TO: '0x1111111111111111111111111111111111111111',
    WARM_UP_SAMPLE_ANSWERS: 'false',
  })
  try {
    const body = await (await rt.get('/ready')).json()
    expect(body.data?.checks ?? body.error.details).not.toHaveProperty('ledger.path')
    expect(JSON.stringify(body)).not.toContain(world.url)
    const metrics = await rt.get('/metrics')
    const unknown = await rt.get('/metricz')
    expect(metrics.status).toBe(404)
    expect((await metrics.text()).replace(/req_\w+/, 'ID').replace('/metrics', '/metricz')).toBe(
      (await unknown.text()).replace(/req_\w+/, 'ID'),
    )
  } finally {
    await rt.close()
  }
})
