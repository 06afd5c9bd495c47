/**
 * A paid answer slower than the listener's idle timeout still reaches its buyer. Bun closes a connection
 * on which nothing was written for `idleTimeout` seconds, also while its request is being answered; with
 * live providers a paid answer takes 30-45 s against a 30 s timeout. Here the listener's timeout is 1 s
 * and a live search provider answers after 2.5 s (a provider that is slow on purpose, not a timing
 * assertion): the paid request is answered 200 over the same connection, while an idle connection is
 * still closed by the short timeout.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { connect } from 'node:net'
import { listen, type Listening } from '../../../src/cli/listen'
import { loopback, type Loopback } from '../../../support/loopback'
import { createPayer } from '../../../support/payer'
import { testRuntime } from '../../../support/runtime'
import { routeUrl } from '../../../support/route-url'
import { usdToAtomic } from '../../../src/core/usdc'
import { CATALOG } from '../../../src/catalog'

const PROVIDER_DELAY_MS = 2_500
const DAY = 86_400_000

let provider: Loopback
let runtime: Awaited<ReturnType<typeof testRuntime>>
let listening: Listening
let base: string

beforeAll(async () => {
  provider = loopback(async () => {
    await Bun.sleep(PROVIDER_DELAY_MS)
    const now = Date.now()
    const results = Array.from({ length: 12 }, (_, i) => ({
      id: `slow-${i}`,
      url: `https://example.org/slow/${i}`,
      title: `露营 攻略 ${i}`,
      text: '周末露营，强烈推荐，体验超棒。露营装备清单在下面。',
      published_at: new Date(now - (i + 1) * DAY).toISOString(),
      author: `creator_${i % 3}`,
      author_followers: 20_000,
      likes: 100 + i,
      comments: 8,
      shares: 4,
    }))
    return Response.json({ results })
  })
  runtime = await testRuntime({
    WEB_SEARCH_URL: `${provider.url}/web`,
    NATIVE_SEARCH_URL: `${provider.url}/native/{platform}`,
    INTELLIGENCE_CACHE_TTL_SECONDS: '0',
    KOL_CACHE_TTL_SECONDS: '0',
  })
  listening = listen({
    host: '127.0.0.1',
    port: 0,
    reusePort: false,
    ledgerPath: ':memory:',
    fetch: runtime.app.fetch,
    idleTimeoutSeconds: 1,
  })
  // As `serve` does: handlers reach the server through Elysia's app.server.
  runtime.app.server = listening.server as unknown as typeof runtime.app.server
  base = `http://127.0.0.1:${listening.server.port}`
})

afterAll(() => {
  listening?.server.stop(true)
  runtime?.close()
  provider?.stop()
})

test('a paid answer that takes longer than the idle timeout is answered on its connection', async () => {
  const route = CATALOG.find((r) => r.id === 'china.trends')!
  const proof = await createPayer().proof({ value: usdToAtomic(route.priceUsd) })
  const res = await fetch(`${base}${routeUrl('china.trends', { keyword: '露营', platform: 'douyin' })}`, {
    headers: { 'x402-payment': proof },
  })
  const body = await res.json()
  expect({ status: res.status, success: body.success }).toEqual({ status: 200, success: true })
  expect(body.pricing.payment_status).toBe('paid')
  expect(provider.requests.length).toBeGreaterThan(0)
}, 60_000)

test('an idle keep-alive connection is still closed by the short timeout', async () => {
  const socket = connect(listening.server.port!, '127.0.0.1')
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()))
  let received = ''
  socket.on('data', (chunk) => (received += chunk.toString()))
  await new Promise<void>((resolve) => socket.on('connect', () => resolve()))
  socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
  // After its answer the connection is kept alive and idle: the listener closes it after its 1 s idle
  // timeout (the test's own timeout fails it if that never happens).
  await closed
  expect(received).toStartWith('HTTP/1.1 200')
}, 15_000)
