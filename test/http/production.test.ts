import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { runCli } from '../../support/cli-run'
import { startServer, type StartedServer } from '../../support/server'

// Elysia reduces its validation messages under NODE_ENV=production, read when it is imported; so this
// runs the real service in its own process, as an operator would.
// Production refuses local payment mode; nothing here pays, so the facilitator is never called.
const PRODUCTION = {
  NODE_ENV: 'production',
  PAY_TO: '0x1111111111111111111111111111111111111111',
  PAYMENT_MODE: 'facilitator',
  X402_FACILITATOR_URL: 'http://127.0.0.1:9',
}
let server: StartedServer
beforeAll(async () => {
  server = await startServer(PRODUCTION)
})
afterAll(async () => {
  await server.stop()
})

describe('under NODE_ENV=production', () => {
  test('validation errors are still our 400 envelope naming the parameter', async () => {
    const res = await fetch(`${server.url}/v1/market-data/flights/trend?destination=Tokyo&limit=500`)
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body.error).toEqual({
      code: 'invalid_parameter',
      message: expect.any(String),
      details: { parameter: 'limit', reason: 'must be an integer from 1 to 120' },
    })
    expect(body.meta.request_id).toBe(res.headers.get('x-request-id')!)
  })

  test('/metrics is not served without METRICS_TOKEN (it shows revenue), and the banner says how to turn it on', async () => {
    const res = await fetch(`${server.url}/metrics`)
    expect(res.status).toBe(404)
    expect((await res.json()).error.code).toBe('not_found')
    expect(server.output()).toContain('/metrics is off: set METRICS_TOKEN')
    expect(server.output()).toContain('  console: off: set METRICS_TOKEN to sign in at /console/sign-in')
  })

  test('a missing parameter names the parameter', async () => {
    const body = await (await fetch(`${server.url}/v1/market-data/spend/summary`)).json()
    expect(body.error.details).toEqual({ parameter: 'country', reason: 'is required' })
  })

  test('the 402 asks to pay the configured PAY_TO', async () => {
    const body = await (await fetch(`${server.url}/v1/market-data/spend/months`)).json()
    expect(body.accepts[0].payTo).toBe('0x1111111111111111111111111111111111111111')
  })

  test('a body nested 50,000 levels is a 413 envelope and the server answers /health meanwhile; the same in development', async () => {
    const dev = await startServer({})
    try {
      for (const url of [server.url, dev.url]) {
        const nested = `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`
        const [res, health] = await Promise.all([
          fetch(`${url}/v1/visibility/snapshot`, { method: 'POST', body: nested, headers: { 'content-type': 'application/json' } }),
          fetch(`${url}/health`),
        ])
        const body = await res.json()
        expect([url === dev.url ? 'development' : 'production', res.status, body.error.code, health.status]).toEqual([
          url === dev.url ? 'development' : 'production',
          413,
          'payload_too_large',
          200,
        ])
        expect(body.meta.request_id).toBe(res.headers.get('x-request-id')!)
      }
    } finally {
      await dev.stop()
    }
  }, 30_000)

  test('SIGTERM stops the server with exit code 0', async () => {
    const s = await startServer(PRODUCTION)
    expect(await s.stop()).toBe(0)
  })
})

describe('start-up', () => {
  test('production without PAY_TO refuses to start and names the variable', async () => {
    const { code, err } = await runCli(['serve'], { NODE_ENV: 'production', PAY_TO: '' })
    expect(code).toBe(2)
    expect(err).toContain('PAY_TO: is required when NODE_ENV=production')
  })

  test('production in local payment mode refuses to start: it would settle nothing', async () => {
    const { code, err } = await runCli(['serve'], { ...PRODUCTION, PAYMENT_MODE: 'local' })
    expect(code).toBe(2)
    expect(err).toContain('PAYMENT_MODE: must be `facilitator` or `self` when NODE_ENV=production')
  })

  test('development start-up prints a banner with the development payTo, and the console open without a token', async () => {
    const s = await startServer({ LOG_LEVEL: 'info' })
    try {
      expect(s.output()).toContain('DEVELOPMENT address')
      expect(s.output()).toContain(`  console: http://localhost:${s.port}/console, open without signing in (development, no METRICS_TOKEN)`)
      expect(s.output()).toContain('0xa0Ee7A142d267C1f36714E4a8F75612F20a79720')
    } finally {
      await s.stop()
    }
  })
})
