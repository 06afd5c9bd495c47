/**
 * The unpaid 402 for browsers (src/http/pages/payment-page.ts): a page, with the same status and payment
 * requirements header; and, above all, agents' JSON 402 unchanged, byte for byte and header for header.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { CATALOG, routeById } from '../../../src/catalog'
import { exampleCall } from '../../../src/catalog/examples'
import { errorResponse } from '../../../src/http/responses'
import { ApiError } from '../../../src/core/errors'
import { createPayer } from '../../../support/payer'
import { AGENT_ACCEPT, BROWSER_ACCEPT } from '../../../support/accept'
import { BASE, testRuntime } from '../../../support/runtime'
import { challengeFixed } from '../../../support/sign-in-challenge'

let rt: Awaited<ReturnType<typeof testRuntime>>
beforeAll(async () => {
  rt = await testRuntime()
})
afterAll(() => rt.close())

const ID = 'page-test-1'
/** A GET of the route's catalog example, with the given Accept (none when null). */
function call(id: string, accept: string | null, extra: Record<string, string> = {}, method = 'GET') {
  const route = routeById.get(id)!
  const example = exampleCall(route)
  const query = new URLSearchParams(Object.entries(example.input).map(([k, v]) => [k, String(v)])).toString()
  const headers: Record<string, string> = { 'x-request-id': ID, ...extra }
  if (accept !== null) headers.accept = accept
  return rt.app.handle(new Request(`${BASE}${example.path}${query ? `?${query}` : ''}`, { method, headers }))
}

/** What the route answered before browsers got a page: the gate's 402 through the error envelope, as the route did. */
function reference(id: string): Response {
  const route = routeById.get(id)!
  const resourceUrl = BASE + exampleCall(route).path
  const error = rt.gate.authorize({ route, payment: undefined, resourceUrl, requestId: ID, fingerprint: 'x' })
  if (!(error instanceof ApiError)) throw new Error('expected the unpaid 402')
  return errorResponse(error, ID)
}

/** An answer's headers, sorted; the sign-in challenge's fresh fields (each 402 its own) fixed. */
const headerList = (r: Response) => {
  const list: [string, string][] = []
  r.headers.forEach((value, name) => list.push([name, name === 'payment-required' ? challengeFixed(value)! : value]))
  return list.sort(([a], [b]) => a.localeCompare(b))
}

describe('agents keep the JSON 402, byte for byte', () => {
  // Routes with and without path parameters, a wrapper, a China route.
  const routes = ['china.trends', 'spend.summary', 'signals.brands.snapshot', 'capabilities.visibility']

  test.each(routes)('%s: every non-HTML Accept gets exactly the reference 402', async (id) => {
    const expected = reference(id)
    const expectedBody = new Uint8Array(await expected.arrayBuffer())
    const expectedHeaders = headerList(expected)
    expect(expected.status).toBe(402)
    for (const accept of AGENT_ACCEPT) {
      const res = await call(id, accept)
      expect({ accept, status: res.status }).toEqual({ accept, status: 402 })
      expect({ accept, headers: headerList(res) }).toEqual({ accept, headers: expectedHeaders })
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(expectedBody)
    }
  })

  test('HEAD without HTML in Accept: the JSON 402 headers, no body', async () => {
    const expected = reference('spend.summary')
    for (const accept of ['*/*', 'application/json', null]) {
      const res = await call('spend.summary', accept, {}, 'HEAD')
      expect(res.status).toBe(402)
      expect(res.headers.get('content-type')).toBe(expected.headers.get('content-type'))
      expect(challengeFixed(res.headers.get('payment-required'))).toBe(challengeFixed(expected.headers.get('payment-required')))
      expect(await res.text()).toBe('')
    }
  })
})

describe('browsers get a payment page', () => {
  test.each(Object.entries(BROWSER_ACCEPT))('%s: status 402, HTML, the same requirements header and request id', async (_, accept) => {
    const json = reference('china.trends')
    const res = await call('china.trends', accept)
    expect(res.status).toBe(402)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(challengeFixed(res.headers.get('payment-required'))).toBe(challengeFixed(json.headers.get('payment-required')))
    expect(res.headers.get('x-request-id')).toBe(ID)
    expect(res.headers.get('vary')).toBe('accept')
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'")
  })

  test('every catalog route: its summary, price, network and the absolute curl URL of this request', async () => {
    for (const route of CATALOG) {
      const example = exampleCall(route)
      const query = new URLSearchParams(Object.entries(example.input).map(([k, v]) => [k, String(v)])).toString()
      const res = await call(route.id, BROWSER_ACCEPT.chromium)
      const html = await res.text()
      expect({ id: route.id, status: res.status }).toEqual({ id: route.id, status: 402 })
      expect(html).toContain(`<h1>${route.summary}</h1>`)
      expect(html).toContain(`<strong class="price" data-price>USD ${route.priceUsd}</strong>`)
      expect(html).toContain('base-sepolia (eip155:84532)')
      expect(html).toContain(`curl -i &#39;${BASE}${example.path}${query ? `?${query.replaceAll('&', '&amp;')}` : ''}&#39;`)
      for (const link of ['/openapi', '/llms.txt', '/.well-known/x402']) expect(html).toContain(`href="${BASE}${link}`)
      // Nothing on the page points at another host.
      expect(html.match(/(?:src|href)="[^"]*"/g)!.every((a) => a.includes(`"${BASE}`) || a.includes('"/'))).toBe(true)
    }
  })

  test('the request URL is quoted for the shell and escaped for HTML', async () => {
    const res = await rt.get(`/v1/china/trends?keyword=${encodeURIComponent(`<b>"x" & 'y'</b>`)}`, { accept: BROWSER_ACCEPT.firefox })
    const html = await res.text()
    expect(res.status).toBe(402)
    expect(html).not.toContain('<b>')
    expect(html).toContain(`curl -i &#39;${BASE}/v1/china/trends?keyword=%3Cb%3E%22x%22%20%26%20%27y%27%3C%2Fb%3E&#39;`)
  })

  test('HEAD from a browser: 402 with the requirements header and no body', async () => {
    const res = await call('spend.summary', BROWSER_ACCEPT.chromium, {}, 'HEAD')
    expect(res.status).toBe(402)
    expect(challengeFixed(res.headers.get('payment-required'))).toBe(
      challengeFixed(reference('spend.summary').headers.get('payment-required')),
    )
    expect(await res.text()).toBe('')
  })

  test('a request carrying a proof comes from a paying client: its refusal stays JSON whatever its Accept', async () => {
    const invalid = await call('spend.summary', BROWSER_ACCEPT.chromium, { 'x402-payment': 'not-a-proof' })
    expect(invalid.status).toBe(402)
    expect((await invalid.json()).error.code).toBe('payment_invalid')
    const wrongAmount = await call('spend.summary', BROWSER_ACCEPT.chromium, { 'x402-payment': await createPayer().proof({ value: 1n }) })
    expect(wrongAmount.status).toBe(402)
    expect((await wrongAmount.json()).error.code).toBe('payment_invalid')
  })

  test('bad input, an unknown name or an unknown path is a page for a browser, with the status, code, message, details and request id of the envelope', async () => {
    for (const [path, status, code, shown] of [
      ['/v1/market-data/spend/summary?country=Japan&month=13', 400, 'invalid_parameter', 'month'],
      ['/v1/market-data/flights/summary?destination=Atlantis', 404, 'not_found', 'Atlantis'],
      ['/v1/no-such-route', 404, 'not_found', '/v1/no-such-route'],
    ] as const) {
      const agent = await rt.get(path, { 'x-request-id': ID })
      const envelope = await agent.json()
      expect([agent.status, envelope.error.code, agent.headers.get('content-type')]).toEqual([
        status,
        code,
        'application/json; charset=utf-8',
      ])
      const page = await rt.get(path, { accept: BROWSER_ACCEPT.firefox, 'x-request-id': ID })
      expect(page.status).toBe(status)
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(page.headers.get('x-request-id')).toBe(ID)
      const html = await page.text()
      expect(html).toContain(`<code>${code}</code>`)
      expect(html).toContain(`Request id <code>${ID}</code>`)
      expect(html).toContain(shown)
      expect(html).not.toContain('<script')
    }
  })

  test('a paid request from a browser is answered as usual (JSON)', async () => {
    const payer = createPayer()
    const res = await call('spend.months', BROWSER_ACCEPT.chromium, { 'x402-payment': await payer.proof({ value: 30_000n }) })
    expect(res.status).toBe(200)
    expect((await res.json()).success).toBe(true)
  })
})
