/**
 * The shipped nginx site (deploy/nginx/china-market-intel.conf, only its two ports changed) in front of
 * a started service trusting 127.0.0.1, the address nginx connects from. Clients connect from
 * 127.0.0.2, 127.0.0.3 ... (all loopback on Linux), so the service's per-IP limit, its logs and the
 * proxy's limits can be checked with real source addresses. Without nginx: fails in CI, skipped locally.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { DEV_OFFER } from '../../support/offers'
import { readFileSync } from 'node:fs'
import { CATALOG } from '../../src/catalog'
import { REQUEST_LIMITS } from '../../src/http/requests/body'
import { paymentRequirements, termsFor } from '../../src/payments/gate/requirements'
import { DEV_PAY_TO } from '../../src/config/config'
import { NETWORKS } from '../../src/payments/networks'
import { eventually, requestFrom } from '../../support/from-address'
import { paidMonthsFrom, paidMonthsToolFrom, requestLogLines } from '../../support/client-ip-requests'
import { MCP_HEADERS } from '../../support/mcp-messages'
import { nginxBinary, SHIPPED_SITE, siteFor, startNginx, type StartedNginx } from '../../support/nginx'
import { freePort } from '../../support/ports'
import { createPayer } from '../../support/payer'
import { requireTool } from '../../support/required-tool'
import { startServer, type StartedServer } from '../../support/server'
import { decodePaymentRequiredHeader, encodePaymentRequiredHeader } from '@x402/core/http'

const binary = nginxBinary()
requireTool(
  'test/deploy/nginx.test.ts',
  binary ? null : 'nginx is not installed (not on PATH or in /usr/sbin)',
  ".ci/run installs Debian's nginx package; this test is what proves the shipped deploy/nginx/china-market-intel.conf",
)

describe('the shipped nginx site, statically', () => {
  const site = readFileSync(SHIPPED_SITE, 'utf8')
  const values = (directive: string) => [...site.matchAll(new RegExp(`^\\s*${directive}\\s+([^;]+);`, 'gm'))].map((m) => m[1]!.trim())
  const bytes = (v: string) => Number(v.replace(/k$/i, '')) * (/k$/i.test(v) ? 1024 : 1)
  const seconds = (v: string) => Number(v.replace(/s$/, ''))

  test("body limits are the service's: 16 KiB, 64 KiB for /mcp", () => {
    expect(values('client_max_body_size').map(bytes)).toEqual([REQUEST_LIMITS.bodyBytes, REQUEST_LIMITS.mcpBodyBytes])
    expect(site).toMatch(/location = \/mcp \{\s*client_max_body_size 64k;/)
  })

  test("nginx's header buffer holds twice the largest 402 header: every route, every network", () => {
    const everyNetwork = Object.values(NETWORKS).map((network) => ({ network, payTo: DEV_PAY_TO as `0x${string}` }))
    const largest = Math.max(
      ...CATALOG.map(
        (route) =>
          encodePaymentRequiredHeader(
            paymentRequirements(
              route,
              everyNetwork.map((offer) => termsFor(route, offer)),
              `https://api.example.com${route.path}`,
              'Payment required',
            ).v2,
          ).length,
      ),
    )
    expect(values('proxy_buffer_size').map(bytes)).toEqual([expect.any(Number)])
    expect(bytes(values('proxy_buffer_size')[0]!)).toBeGreaterThanOrEqual(2 * largest)
  })

  test('nginx waits for an answer at least as long as the longest payment window of the catalog', () => {
    const longest = Math.max(...CATALOG.map((r) => termsFor(r, DEV_OFFER).maxTimeoutSeconds))
    expect(
      values('proxy_read_timeout')
        .map(seconds)
        .every((s) => s >= longest),
    ).toBe(true)
  })

  test('one set of proxy headers, at server level (a location with its own would drop them all)', () => {
    expect(values('proxy_set_header')).toEqual([
      'Connection ""',
      'Host $host',
      'X-Forwarded-For $proxy_add_x_forwarded_for',
      'X-Forwarded-Proto $scheme',
      'X-Forwarded-Host $host',
    ])
    const locations = site.split(/^\s*location /m).slice(1)
    for (const l of locations) expect(l.split('}')[0]).not.toContain('proxy_set_header')
  })
})

describe.skipIf(!binary)('the shipped nginx site in front of the service', () => {
  let service: StartedServer
  let nginx: StartedNginx
  let serviceStopped = false
  const payer = createPayer()
  const paid = (from: string, base: string, xff?: string) => paidMonthsFrom(payer, from, base, xff)

  beforeAll(async () => {
    // Only the IP limit is under test: one payer pays for every client (the payer limit is off).
    // Every network on offer: the largest 402 header this service can send (scripts/bench-402-size.ts).
    const everyNetwork = 'base-sepolia,base,polygon,polygon-amoy,arbitrum,arbitrum-sepolia'
    service = await startServer({
      TRUSTED_PROXIES: '127.0.0.1',
      RATE_LIMIT_IP_PER_MINUTE: '2',
      LOG_LEVEL: 'info',
      PAYMENT_NETWORKS: everyNetwork,
    })
    const port = await freePort()
    nginx = await startNginx(binary!, siteFor(Number(new URL(service.url).port), port), port)
  }, 60_000)
  afterAll(async () => {
    await nginx?.stop()
    if (!serviceStopped) await service?.stop()
  })

  test('two clients get separate buckets through nginx: one is limited, the other is not', async () => {
    expect((await paid('127.0.0.2', nginx.url)).status).toBe(200)
    expect((await paid('127.0.0.2', nginx.url)).status).toBe(200)
    const limited = await paid('127.0.0.2', nginx.url)
    expect(limited.status).toBe(429)
    expect(limited.json()).toMatchObject({ error: { code: 'rate_limited', details: { scope: 'ip' } } })
    expect((await paid('127.0.0.3', nginx.url)).status).toBe(200)
  })

  test('a forged X-Forwarded-For through nginx still counts as the real address', async () => {
    // 127.0.0.2 is limited: a made-up address, or the proxy's own, does not give it a fresh bucket.
    expect((await paid('127.0.0.2', nginx.url, '198.51.100.7')).status).toBe(429)
    expect((await paid('127.0.0.2', nginx.url, '127.0.0.1')).status).toBe(429)
    // 127.0.0.3 pretends to be the proxy, then someone else: its own second request, then its third.
    expect((await paid('127.0.0.3', nginx.url, '127.0.0.1')).status).toBe(200)
    expect((await paid('127.0.0.3', nginx.url, '198.51.100.8, 127.0.0.1')).status).toBe(429)
  })

  test("a direct sender's forged X-Forwarded-For is ignored", async () => {
    expect((await paid('127.0.0.4', service.url, '198.51.100.9')).status).toBe(200)
    expect((await paid('127.0.0.4', service.url, '198.51.100.10')).status).toBe(200)
    expect((await paid('127.0.0.4', service.url, '198.51.100.11')).status).toBe(429)
  })

  test('/mcp through nginx: paid tool calls limited per client address', async () => {
    const call = (from: string) => paidMonthsToolFrom(payer, from, nginx.url, '198.51.100.12')
    expect((await call('127.0.0.5')).isError).toBeUndefined()
    expect((await call('127.0.0.5')).isError).toBeUndefined()
    expect((await call('127.0.0.5')).structuredContent.error).toMatchObject({ code: 'rate_limited', details: { scope: 'ip' } })
    expect((await call('127.0.0.6')).isError).toBeUndefined()
  })

  test('log lines show the real client addresses, never a forged one', async () => {
    const lines = await eventually(
      () => requestLogLines(service),
      (l) => l.filter((x) => x.client_ip === '127.0.0.6').length >= 1,
      'the service log lines',
    )
    const seen = (ip: string) => lines.filter((l) => l.client_ip === ip).map((l) => l.status)
    expect(seen('127.0.0.2')).toEqual([200, 200, 429, 429, 429])
    expect(seen('127.0.0.3')).toEqual([200, 200, 429])
    expect(seen('127.0.0.4')).toEqual([200, 200, 429])
    expect(lines.filter((l) => l.path === '/mcp').map((l) => l.client_ip)).toEqual(['127.0.0.5', '127.0.0.5', '127.0.0.5', '127.0.0.6'])
    expect(lines.filter((l) => String(l.client_ip).startsWith('198.51.100.'))).toEqual([])
    // nginx's own log: the socket address, and the header exactly as the client forged it.
    expect(nginx.accessLog()).toContain('127.0.0.2 "198.51.100.7" 429')
  }, 20_000)

  test("body limits: the service's own sizes pass, one byte more is refused by nginx in the JSON envelope", async () => {
    const post = (path: string, body: string) =>
      requestFrom('127.0.0.7', `${nginx.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    const wrapperBody = (size: number) => `{"brand_name":"${'x'.repeat(size - 17)}"}`
    expect(wrapperBody(REQUEST_LIMITS.bodyBytes).length).toBe(REQUEST_LIMITS.bodyBytes)
    const atLimit = await post('/v1/visibility/snapshot', wrapperBody(REQUEST_LIMITS.bodyBytes))
    // Reached the service: its own answer (the name is too long), its request id.
    expect(atLimit.status).toBe(400)
    expect(atLimit.json()).toMatchObject({ error: { code: 'invalid_parameter' }, meta: { request_id: atLimit.headers['x-request-id'] } })
    const over = await post('/v1/visibility/snapshot', wrapperBody(REQUEST_LIMITS.bodyBytes + 1))
    expect(over.status).toBe(413)
    expect(over.headers['content-type']).toBe('application/json')
    expect(over.json()).toMatchObject({
      success: false,
      error: { code: 'payload_too_large' },
      meta: { request_id: expect.stringMatching(/^[0-9a-f]{32}$/) },
    })
    expect(over.headers['x-request-id']).toBeUndefined() // nginx's answer: the service never saw it

    const mcpBody = (size: number) => {
      const head = '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"pad":"'
      return `${head}${'x'.repeat(size - head.length - 4)}"}}}`
    }
    expect(mcpBody(REQUEST_LIMITS.mcpBodyBytes).length).toBe(REQUEST_LIMITS.mcpBodyBytes)
    const mcp = await requestFrom('127.0.0.7', `${nginx.url}/mcp`, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: mcpBody(REQUEST_LIMITS.mcpBodyBytes),
    })
    expect(mcp.status).toBe(200)
    expect(mcp.json().result.tools.length).toBeGreaterThan(0)
    const mcpOver = await post('/mcp', mcpBody(REQUEST_LIMITS.mcpBodyBytes + 1))
    expect(mcpOver.status).toBe(413)
    expect(mcpOver.json().error.code).toBe('payload_too_large')
  })

  test("a request line over the service's 4 KiB query limit passes nginx and gets the service's own answer; a 9 KiB header line stops at nginx", async () => {
    const res = await requestFrom(
      '127.0.0.7',
      `${nginx.url}/v1/market-data/flights/aggregate?destinations=Tokyo&label=${'x'.repeat(REQUEST_LIMITS.queryBytes + 2048)}`,
    )
    // The service's query limit answers, before any parameter is checked.
    expect(res.status).toBe(413)
    expect(res.json()).toMatchObject({
      error: { code: 'payload_too_large', details: { parameter: 'query', limit_bytes: REQUEST_LIMITS.queryBytes } },
      meta: { request_id: res.headers['x-request-id'] },
    })
    const huge = await requestFrom('127.0.0.7', `${nginx.url}/v1/market-data/flights/months`, {
      headers: { 'x402-payment': 'x'.repeat(9 * 1024) },
    })
    expect(huge.status).toBe(400)
    expect(huge.headers['x-request-id']).toBeUndefined()
  })

  test("the largest 402 (six networks and the bazaar extension in PAYMENT-REQUIRED) passes nginx's header buffer intact", async () => {
    const res = await requestFrom('127.0.0.8', `${nginx.url}/v1/market-data/spend/series?country=Japan&metric=total_cards`)
    expect(res.status).toBe(402)
    const header = res.headers['payment-required'] as string
    expect(header.length).toBeGreaterThan(3 * 1024) // with the other headers, about the one-page default of proxy_buffer_size
    const required = decodePaymentRequiredHeader(header)
    expect(required.accepts).toHaveLength(6)
    expect(required.extensions?.bazaar).toBeDefined()
  })

  test('with the service down, nginx answers 502 in the JSON envelope', async () => {
    await service.stop()
    serviceStopped = true
    const res = await requestFrom('127.0.0.7', `${nginx.url}/v1/market-data/flights/months`)
    expect(res.status).toBe(502)
    expect(res.json()).toMatchObject({ success: false, error: { code: 'upstream_unavailable' } })
  })
})
