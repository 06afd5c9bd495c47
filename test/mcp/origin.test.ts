/**
 * DNS-rebinding protection of `/mcp` in process: the Host must be a name of the service (PUBLIC_BASE_URL's,
 * localhost, MCP_ALLOWED_ORIGINS' hosts), a browser's Origin an allowed origin; a refusal is a 403 with a
 * JSON-RPC error and our request id, decided before the body is read or any payment is looked at.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { routeById } from '../../src/catalog'
import { REQUEST_LIMITS } from '../../src/http/requests/body'
import { usdToAtomic } from '../../src/core/usdc'
import { MCP_HEADERS, paymentObject, rpcBody, toolCallBody } from '../../support/mcp-messages'
import { createPayer } from '../../support/payer'
import { testRuntime } from '../../support/runtime'

type Runtime = Awaited<ReturnType<typeof testRuntime>>
let rt: Runtime
const payer = createPayer()

beforeAll(async () => {
  rt = await testRuntime({
    PUBLIC_BASE_URL: 'https://api.example.com',
    MCP_ALLOWED_ORIGINS: 'https://app.partner.example, http://intranet:8080',
  })
})
afterAll(() => rt?.close())

/** A request that passes: a 200 with the tool list; `label` names the case in a failure. */
async function expectListed(res: Response, label: string) {
  expect([label, res.status]).toEqual([label, 200])
  expect(((await res.json()) as any).result.tools.length).toBeGreaterThan(0)
}
/** A POST to /mcp with the given Host (default: the public host) and Origin (default: none). */
const mcp = (opts: { host?: string; origin?: string; body?: BodyInit; method?: string } = {}) => {
  const headers: Record<string, string> = { ...MCP_HEADERS, host: opts.host ?? 'api.example.com' }
  if (opts.origin !== undefined) headers.origin = opts.origin
  const method = opts.method ?? 'POST'
  return rt.app.handle(
    new Request('http://localhost:3000/mcp', {
      method,
      headers,
      ...(method === 'POST' ? { body: opts.body ?? rpcBody('tools/list') } : {}),
    }),
  )
}
const paymentFor = (routeId: string) => paymentObject(payer, usdToAtomic(routeById.get(routeId)!.priceUsd))

/** A 403 with the JSON-RPC error `code`; `label` names the case in a failure. */
async function expectRefused(res: Response, code: 'forbidden_host' | 'forbidden_origin', label = '') {
  expect([label, res.status]).toEqual([label, 403])
  const body = (await res.json()) as any
  // The spec's shape: a JSON-RPC error response without `id` (the request's id was never read).
  expect(body).toEqual({
    jsonrpc: '2.0',
    error: {
      code: -32000,
      message: expect.stringMatching(/^Forbidden: /),
      data: expect.objectContaining({ code, request_id: res.headers.get('x-request-id') }),
    },
  })
  expect(body.error.data.request_id).toMatch(/^req_/)
}

describe('Origin', () => {
  test('a foreign Origin is a 403 before the body is read: a never-ending body is never pulled', async () => {
    let pulled = 0
    const body = new ReadableStream<Uint8Array>(
      { pull: (c) => void (pulled++, c.enqueue(new Uint8Array(1024).fill(0x20))) },
      { highWaterMark: 0 },
    )
    await expectRefused(await mcp({ origin: 'https://evil.example', body }), 'forbidden_origin')
    expect(pulled).toBe(0)
  })

  test('a foreign Origin with a body over the MCP limit is refused 403, not measured (413)', async () => {
    const big = rpcBody('tools/list', { pad: 'x'.repeat(REQUEST_LIMITS.mcpBodyBytes) })
    await expectRefused(await mcp({ origin: 'https://evil.example', body: big }), 'forbidden_origin')
  })

  test('a refused paid call spends nothing: the same payment then buys a different request', async () => {
    const pay = await paymentFor('flights.summary')
    const call = (destination: string) => toolCallBody('flights_summary', { destination }, pay)
    await expectRefused(await mcp({ origin: 'https://evil.example', body: call('Tokyo') }), 'forbidden_origin')
    // Had the refused call claimed the payment, this other request would be payment_replayed.
    const ok = (await (await mcp({ body: call('Seoul') })).json()) as any
    expect(ok.result.isError).toBeFalsy()
    expect(ok.result.structuredContent.pricing.payment_status).toBe('paid')
  })

  test('the public origin, localhost origins on any port and scheme, and allow-listed origins pass', async () => {
    for (const origin of [
      'https://api.example.com',
      'https://API.example.com:443',
      'http://localhost:5173',
      'https://127.0.0.1',
      'http://[::1]:8080',
      'https://app.partner.example',
      'http://intranet:8080',
    ])
      await expectListed(await mcp({ origin }), origin)
  })

  test('no Origin (a non-browser agent) passes', async () => {
    expect((await mcp()).status).toBe(200)
  })

  test('other schemes or ports of an allowed origin, look-alikes, `null` and garbage are refused', async () => {
    for (const origin of [
      'http://api.example.com',
      'https://api.example.com:8443',
      'https://api.example.com.evil.example',
      'https://localhost.evil.example',
      'http://intranet:8081',
      'null',
      'file://',
      'not an origin',
    ])
      await expectRefused(await mcp({ origin }), 'forbidden_origin', origin)
  })
})

describe('Host', () => {
  test('a Host that is not a name of the service is refused, for every method, even without an Origin', async () => {
    for (const host of [
      'evil.example',
      'evil.example:3000',
      'localhost.evil.example',
      'api.example.com.evil.example',
      '127.0.0.1.nip.io',
      'localhost@evil.example',
      '',
    ]) {
      for (const method of ['POST', 'GET', 'DELETE'])
        await expectRefused(await mcp({ host, method }), 'forbidden_host', `${method} ${host}`)
    }
  })

  test('the public host behind a proxy (any port), localhost names and allow-listed hosts pass', async () => {
    for (const host of [
      'api.example.com',
      'API.EXAMPLE.COM:8443',
      'localhost:1234',
      '127.0.0.1',
      '[::1]:3000',
      'intranet:8080',
      'app.partner.example',
    ])
      await expectListed(await mcp({ host }), host)
  })

  test('a rebinding page (its own host name in Host and Origin) is refused', async () => {
    await expectRefused(await mcp({ host: 'evil.example:3000', origin: 'http://evil.example:3000' }), 'forbidden_host')
  })
})

test('MCP_ALLOWED_ORIGINS=* accepts any Origin but still checks Host', async () => {
  const open = await testRuntime({ PUBLIC_BASE_URL: 'https://api.example.com', MCP_ALLOWED_ORIGINS: '*' })
  try {
    const post = (host: string, origin: string) =>
      open.app.handle(
        new Request('http://localhost:3000/mcp', {
          method: 'POST',
          headers: { ...MCP_HEADERS, host, origin },
          body: rpcBody('tools/list'),
        }),
      )
    expect((await post('api.example.com', 'https://any.example')).status).toBe(200)
    await expectRefused(await post('evil.example', 'http://evil.example'), 'forbidden_host')
  } finally {
    open.close()
  }
})
