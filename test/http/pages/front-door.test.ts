/** `/` for agents (the JSON envelope) and browsers (a page), and the icons, all generated from the catalog. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { CATALOG } from '../../../src/catalog'
import { DEV_PAY_TO } from '../../../src/config/config'
import { AGENT_ACCEPT, BROWSER_ACCEPT } from '../../../support/accept'
import { BASE, testRuntime } from '../../../support/runtime'

let rt: Awaited<ReturnType<typeof testRuntime>>
beforeAll(async () => {
  rt = await testRuntime()
})
afterAll(() => rt.close())

const get = (path: string, accept: string | null, method = 'GET') =>
  rt.app.handle(new Request(`${BASE}${path}`, { method, headers: accept === null ? {} : { accept } }))

describe('GET / for agents', () => {
  test.each(AGENT_ACCEPT.map((a) => [a]))('Accept %p: the free success envelope with the request id', async (accept) => {
    const res = await get('/', accept)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(res.headers.get('vary')).toBe('accept')
    const body = await res.json()
    expect(body.success).toBe(true)
    expect(body.meta.request_id).toBe(res.headers.get('x-request-id')!)
    expect(body.pricing).toEqual({ amount_usd: '0', payment_status: 'free' })
  })

  test('one route per catalog route with its price and a working example; links; payment terms; the sample notice', async () => {
    const { data } = await (await get('/', 'application/json')).json()
    expect(data.routes.map((r: { id: string }) => r.id)).toEqual(CATALOG.map((r) => r.id))
    for (const [i, route] of CATALOG.entries()) {
      expect(data.routes[i]).toMatchObject({
        path: route.path,
        price_usd: route.priceUsd,
        methods: [...route.methods],
        summary: route.summary,
        served: true,
      })
      // The example is a real call: free to ask, and it asks for exactly this price.
      const example = await rt.app.handle(new Request(data.routes[i].example))
      expect({ id: route.id, status: example.status }).toEqual({ id: route.id, status: 402 })
      expect((await example.json()).error.message).toContain(`USD ${route.priceUsd}`)
    }
    expect(data.links).toEqual({
      docs: `${BASE}/openapi`,
      openapi: `${BASE}/openapi/json`,
      llms: `${BASE}/llms.txt`,
      x402: `${BASE}/.well-known/x402`,
      mcp: `${BASE}/mcp`,
      health: `${BASE}/health`,
    })
    expect(data.payment).toMatchObject({
      protocol: 'x402',
      network: 'eip155:84532',
      asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
      pay_to: DEV_PAY_TO,
      headers: { requirements: 'PAYMENT-REQUIRED', proof: ['x402-payment', 'x-payment', 'payment-signature'], receipt: 'PAYMENT-RESPONSE' },
    })
    expect(data.payment.how).toContain('402')
    expect(data.sample_data).toContain('generated')
    expect(data.evidence).toBe('sample')
    expect(data.routes.find((r: { id: string }) => r.id === 'china.trends').typical_wait).toContain('under a second')
  })

  test('HEAD answers like GET, without a body; other methods are 405', async () => {
    const head = await get('/', '*/*', 'HEAD')
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
    for (const path of ['/', '/favicon.ico', '/favicon.svg', '/openapi']) {
      const res = await rt.app.handle(new Request(`${BASE}${path}`, { method: 'POST' }))
      expect({ path, status: res.status, allow: res.headers.get('allow') }).toEqual({ path, status: 405, allow: 'GET' })
    }
  })
})

describe('GET / for browsers', () => {
  test.each(Object.entries(BROWSER_ACCEPT))('%s: an HTML page with every route and price, and the links', async (_, accept) => {
    const res = await get('/', accept)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(res.headers.get('x-request-id')).toMatch(/^req_/)
    const html = await res.text()
    expect(html).toContain('<title>China market-intelligence API</title>')
    expect(html.match(/<tr data-route=/g)!.length).toBe(CATALOG.length)
    for (const route of CATALOG) {
      expect(html).toMatch(
        new RegExp(
          `<tr data-route="${route.id.replaceAll('.', '\\.')}">.*>${route.path}</a></td><td class="price">USD ${route.priceUsd.replace('.', '\\.')}</td>`,
        ),
      )
    }
    for (const link of ['/openapi', '/openapi/json', '/llms.txt', '/.well-known/x402', '/mcp', '/health'])
      expect(html).toContain(`href="${BASE}${link}"`)
    expect(html).toContain('<strong>Sample data.</strong>')
    expect(html).toContain('<code>PAYMENT-REQUIRED</code>')
    expect(html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">')
    // No resource from another host: every src and href is this service.
    expect(html.match(/(?:src|href)="[^"]*"/g)!.every((a) => a.includes(`"${BASE}`) || a.includes('"/'))).toBe(true)
  })

  test('with live providers configured, the China waits are the live ones', async () => {
    const live = await testRuntime({ WEB_SEARCH_URL: 'http://127.0.0.1:9/search' })
    try {
      const { data } = await (await live.get('/')).json()
      expect(data.evidence).toBe('live')
      expect(data.sample_data).toContain('live providers')
      expect(data.routes.find((r: { id: string }) => r.id === 'china.trends').typical_wait).toContain('about 30 s')
      expect(data.routes.find((r: { id: string }) => r.id === 'spend.summary').typical_wait).toContain('under a second')
    } finally {
      live.close()
    }
  })
})

describe('icons', () => {
  test('/favicon.svg is the SVG; /favicon.ico a 32x32 32-bit icon drawn from the same shapes', async () => {
    const svg = await get('/favicon.svg', null)
    expect(svg.headers.get('content-type')).toBe('image/svg+xml')
    expect(await svg.text()).toStartWith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">')
    const ico = await get('/favicon.ico', null)
    expect(ico.headers.get('content-type')).toBe('image/x-icon')
    const bytes = new Uint8Array(await ico.arrayBuffer())
    const view = new DataView(bytes.buffer)
    expect([view.getUint16(0, true), view.getUint16(2, true), view.getUint16(4, true)]).toEqual([0, 1, 1])
    expect([bytes[6], bytes[7], view.getUint16(12, true)]).toEqual([32, 32, 32])
    const offset = view.getUint32(18, true)
    expect(view.getUint32(14, true)).toBe(bytes.length - offset)
    // Pixel (x, y) from the top-left, as BGRA (rows are stored bottom-up after the 40-byte header).
    const pixel = (x: number, y: number) => [
      ...bytes.slice(offset + 40 + ((31 - y) * 32 + x) * 4, offset + 40 + ((31 - y) * 32 + x) * 4 + 4),
    ]
    expect(pixel(0, 0)[3]).toBeLessThan(64) // the rounded corner is (mostly) transparent
    expect(pixel(3, 16)).toEqual([0x1c, 0x1c, 0xb9, 255]) // the red tile
    expect(pixel(22, 20)).toEqual([255, 255, 255, 255]) // inside the tallest bar
  })
})
