/**
 * TRUSTED_PROXIES on a started server: the test itself plays the proxy (connecting from 127.0.0.1, the
 * one trusted address) and the direct clients (from 127.0.0.2 ...), so the per-IP limit of paid routes
 * and /mcp, and the log lines, can be checked without nginx (test/deploy/nginx.test.ts does it with one).
 */
import { describe, expect, test } from 'bun:test'
import { loadConfig } from '../../../src/config/config'
import { eventually, requestFrom } from '../../../support/from-address'
import { paidMonthsFrom, paidMonthsToolFrom, requestLogLines } from '../../../support/client-ip-requests'
import { configErrorOf } from '../../../support/config-error'
import { serverDuringTests } from '../../../support/server-during-tests'
import { createPayer } from '../../../support/payer'

describe('configuration', () => {
  test('TRUSTED_PROXIES unset: no proxy is trusted', () => {
    expect(loadConfig({}).trustedProxies).toBeUndefined()
  })

  test('a list with keywords and CIDRs; CLIENT_IP_HEADER in any case', () => {
    const c = loadConfig({ TRUSTED_PROXIES: 'loopback, 10.0.0.0/8', CLIENT_IP_HEADER: 'Forwarded' })
    expect(c.trustedProxies?.header).toBe('forwarded')
    expect(c.trustedProxies?.description).toBe('loopback,10.0.0.0/8')
    expect(loadConfig({ TRUSTED_PROXIES: '::1' }).trustedProxies?.header).toBe('x-forwarded-for')
  })

  test('a bad entry stops start-up naming TRUSTED_PROXIES and the entry', () => {
    const e = configErrorOf({ TRUSTED_PROXIES: 'loopback,10.0.0.0/33' })
    expect(e.variable).toBe('TRUSTED_PROXIES')
    expect(e.message).toStartWith('TRUSTED_PROXIES: invalid value: "10.0.0.0/33" is not an IPv4/IPv6 address')
    expect(configErrorOf({ TRUSTED_PROXIES: 'nginx' }).variable).toBe('TRUSTED_PROXIES')
    expect(configErrorOf({ TRUSTED_PROXIES: ',' }).message).toContain('an empty entry')
  })

  test('CLIENT_IP_HEADER: the allowed values are listed; alone it is an error (it would do nothing)', () => {
    const bad = configErrorOf({ TRUSTED_PROXIES: 'loopback', CLIENT_IP_HEADER: 'x-real-ip' })
    expect(bad.variable).toBe('CLIENT_IP_HEADER')
    expect(bad.message).toContain('(allowed: x-forwarded-for, forwarded)')
    expect(configErrorOf({ CLIENT_IP_HEADER: 'forwarded' }).message).toBe(
      'CLIENT_IP_HEADER: has no effect without TRUSTED_PROXIES (the proxies whose header is believed)',
    )
  })
})

describe('on a started server trusting 127.0.0.1, 2 paid requests per IP a minute', () => {
  // PAYER limit off: one payer pays for every client here, and only the IP limit is under test.
  const server = serverDuringTests({ TRUSTED_PROXIES: '127.0.0.1', RATE_LIMIT_IP_PER_MINUTE: '2', LOG_LEVEL: 'info' })
  const payer = createPayer()
  const paid = (from: string, xff?: string | string[]) => paidMonthsFrom(payer, from, server().url, xff)
  const tool = (from: string, xff: string) => paidMonthsToolFrom(payer, from, server().url, xff)

  test('clients named by the trusted proxy get their own buckets; a forged entry left of them changes nothing', async () => {
    expect((await paid('127.0.0.1', '198.51.100.1')).status).toBe(200)
    expect((await paid('127.0.0.1', '198.51.100.1')).status).toBe(200)
    const limited = await paid('127.0.0.1', '198.51.100.1')
    expect(limited.status).toBe(429)
    expect(limited.json().error).toMatchObject({ code: 'rate_limited', details: { scope: 'ip' } })
    // What the client wrote stays left of what the proxy appended: still 198.51.100.1.
    expect((await paid('127.0.0.1', '198.51.100.99, 198.51.100.1')).status).toBe(429)
    expect((await paid('127.0.0.1', ['198.51.100.99', '198.51.100.1'])).status).toBe(429)
    // Another client behind the same proxy is not limited.
    expect((await paid('127.0.0.1', '198.51.100.2')).status).toBe(200)
  })

  test("a direct sender's forged X-Forwarded-For is ignored: it is counted as its own address", async () => {
    expect((await paid('127.0.0.2', '198.51.100.10')).status).toBe(200)
    expect((await paid('127.0.0.2', '198.51.100.11')).status).toBe(200)
    expect((await paid('127.0.0.2', '198.51.100.12')).status).toBe(429)
    expect((await paid('127.0.0.2')).status).toBe(429)
  })

  test('/mcp tool calls are limited per forwarded client too', async () => {
    expect((await tool('127.0.0.1', '198.51.100.20')).isError).toBeUndefined()
    expect((await tool('127.0.0.1', '198.51.100.20')).isError).toBeUndefined()
    const limited = await tool('127.0.0.1', '198.51.100.20')
    expect(limited.isError).toBe(true)
    expect(limited.structuredContent.error).toMatchObject({ code: 'rate_limited', details: { scope: 'ip' } })
    expect((await tool('127.0.0.1', '198.51.100.21')).isError).toBeUndefined()
  })

  test('each request line logs client_ip: the forwarded client behind the proxy, the peer otherwise', async () => {
    const unpaid = await requestFrom('127.0.0.3', `${server().url}/v1/market-data/flights/months`, {
      headers: { 'x-forwarded-for': '203.0.113.77' },
    })
    expect(unpaid.status).toBe(402)
    const health = await requestFrom('127.0.0.1', `${server().url}/health`, { headers: { 'x-forwarded-for': '203.0.113.78' } })
    const lines = await eventually(
      () => requestLogLines(server()),
      (l) => l.some((x) => x.request_id === health.headers['x-request-id']),
      'the /health log line',
    )
    const line = (id: unknown) => lines.find((l) => l.request_id === id)
    expect(line(unpaid.headers['x-request-id'])).toMatchObject({ status: 402, client_ip: '127.0.0.3' })
    expect(line(health.headers['x-request-id'])).toMatchObject({ path: '/health', client_ip: '203.0.113.78' })
    const ips = lines.filter((l) => l.path === '/v1/market-data/flights/months').map((l) => `${l.client_ip} ${l.status}`)
    expect(ips).toContain('198.51.100.1 429')
    expect(ips).toContain('198.51.100.2 200')
    expect(ips).toContain('127.0.0.2 429')
    // The forged addresses never show up.
    expect(
      lines.filter((l) => ['198.51.100.10', '198.51.100.11', '198.51.100.12', '198.51.100.99', '203.0.113.77'].includes(l.client_ip)),
    ).toEqual([])
    expect(lines.filter((l) => l.path === '/mcp').map((l) => l.client_ip)).toContain('198.51.100.21')
  }, 20_000)
})
