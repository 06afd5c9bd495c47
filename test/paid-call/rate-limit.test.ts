import { describe, expect, test } from 'bun:test'
import { RateLimiter } from '../../src/paid-call/rate-limit'
import { serverDuringTests } from '../../support/server-during-tests'
import { createPayer } from '../../support/payer'

describe('RateLimiter (token bucket)', () => {
  test('allows perMinute at once, then refills at perMinute/60 a second and names the wait', () => {
    let now = 1000
    const l = new RateLimiter(3, () => now)
    expect([l.take('a'), l.take('a'), l.take('a')]).toEqual([0, 0, 0])
    expect(l.take('a')).toBe(20) // one token per 20 s
    expect(l.take('b')).toBe(0) // keys are independent
    now += 20
    expect(l.take('a')).toBe(0)
    expect(l.take('a')).toBe(20)
  })

  test('0 means unlimited', () => {
    const l = new RateLimiter(0)
    for (let i = 0; i < 1000; i++) expect(l.take('a')).toBe(0)
    expect(l.enabled).toBe(false)
  })

  test('sweep forgets refilled buckets only', () => {
    let now = 0
    const l = new RateLimiter(60, () => now)
    l.take('idle')
    now += 1
    l.take('busy')
    now += 0.5
    l.sweep()
    expect(l.size).toBe(1) // idle has refilled (1 token in 1.5 s), busy has not yet
  })
})

describe('per client IP, on a started server', () => {
  const server = serverDuringTests({ RATE_LIMIT_IP_PER_MINUTE: '3' })

  test('the 4th paid request in a minute is a 429 rate_limited envelope with Retry-After, before the proof is verified or claimed', async () => {
    const url = `${server().url}/v1/market-data/flights/months`
    const payer = createPayer()
    for (let i = 0; i < 3; i++)
      expect((await fetch(url, { headers: { 'x402-payment': await payer.proof({ value: 30_000n }) } })).status).toBe(200)
    const proof = await payer.proof({ value: 30_000n })
    const limited = await fetch(url, { headers: { 'x402-payment': proof } })
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('20')
    expect(await limited.json()).toMatchObject({
      success: false,
      error: { code: 'rate_limited', details: { scope: 'ip', retry_after_seconds: 20 } },
      meta: { request_id: limited.headers.get('x-request-id') },
    })
    // An unpaid request still gets its 402 (cached, no cheaper as a 429), and free routes are not limited.
    expect((await fetch(url)).status).toBe(402)
    expect((await fetch(`${server().url}/health`)).status).toBe(200)
    // The limited proof was never claimed: the ledger has exactly the three paid requests.
    const metrics = await (await fetch(`${server().url}/metrics`)).text()
    expect(metrics).toContain('x402_payments_total{route="flights.months",settlement="local"} 3')
    expect(metrics).toContain('rate_limited_total{scope="ip"} 1')
  })
})

describe('IPv6 clients, behind a trusted proxy', () => {
  const server = serverDuringTests({ RATE_LIMIT_IP_PER_MINUTE: '2', TRUSTED_PROXIES: '127.0.0.1' })

  test('addresses of one /64 share one per-IP limit; another /64 has its own', async () => {
    const url = `${server().url}/v1/market-data/flights/months`
    const payer = createPayer()
    const pay = async (client: string) =>
      (await fetch(url, { headers: { 'x402-payment': await payer.proof({ value: 30_000n }), 'x-forwarded-for': client } })).status
    // Three addresses of one subscriber's /64: the third request is over the limit of 2.
    expect([await pay('2001:db8:1:2::1'), await pay('2001:db8:1:2::ffff'), await pay('2001:db8:1:2:abcd::7')]).toEqual([200, 200, 429])
    expect(await pay('2001:db8:1:3::1')).toBe(200)
  })
})
