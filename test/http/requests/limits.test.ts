/**
 * Request limits checked before any parsing work (src/http/requests/body.ts): body size (declared and read),
 * JSON depth and key count, content type, query size, repeated parameters; HEAD never pays. Each
 * refusal is the error envelope, free, with the request id.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { checkQuery, REQUEST_LIMITS } from '../../../src/http/requests/body'
import { jsonShape } from '../../../src/core/json-shape'
import { MCP_HEADERS, rpcBody } from '../../../support/mcp-messages'
import { Client, expectClientError } from '../../../support/paying-client'

let api: Client
beforeAll(async () => {
  api = await Client.start()
})
afterAll(() => api?.close())

const WRAPPER = '/v1/visibility/snapshot'
const post = (body: BodyInit, headers: Record<string, string> = { 'content-type': 'application/json' }, path = WRAPPER) =>
  api.rt.app.handle(new Request(`http://localhost:3000${path}`, { method: 'POST', body, headers }))
const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`
const envelope = async (res: Response) => ({ status: res.status, body: (await res.json()) as any })
/** A body that never ends, counting how many 1 KiB chunks were pulled from it. */
function endless() {
  const counter = { pulled: 0 }
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      counter.pulled++
      c.enqueue(new Uint8Array(1024).fill(0x20))
    },
  })
  return { stream, counter }
}

describe('bodies', () => {
  test('a deeply nested body larger than the limit is a 413 naming the limit, never a 500', async () => {
    for (const levels of [20_000, 50_000]) {
      const { status, body } = await envelope(await post(nested(levels)))
      expect([status, body.error.code, body.error.details.limit_bytes]).toEqual([413, 'payload_too_large', REQUEST_LIMITS.bodyBytes])
      expect(body.meta.request_id).toMatch(/^req_/)
    }
  })

  test('within the size limit, nesting beyond the depth limit and too many keys are 400s naming the body', async () => {
    const deep = await envelope(await post(nested(REQUEST_LIMITS.jsonDepth + 1)))
    expect([deep.status, deep.body.error.details.parameter, deep.body.error.details.reason]).toEqual([
      400,
      'body',
      `JSON nested deeper than ${REQUEST_LIMITS.jsonDepth} levels`,
    ])
    const wide = await envelope(
      await post(JSON.stringify(Object.fromEntries(Array.from({ length: REQUEST_LIMITS.jsonKeys + 1 }, (_, i) => [`k${i}`, 1])))),
    )
    expect([wide.status, wide.body.error.details.reason]).toEqual([400, `JSON with more than ${REQUEST_LIMITS.jsonKeys} keys`])
  })

  test('malformed JSON and a body that is not JSON are 400s', async () => {
    const broken = await envelope(await post('{"brand_name": "Aurora Skin"'))
    expect([broken.status, broken.body.error.details.reason]).toEqual([400, 'malformed JSON'])
    const text = await envelope(await post('brand_name=Aurora Skin', { 'content-type': 'application/x-www-form-urlencoded' }))
    expect([text.status, text.body.error.details.parameter]).toEqual([400, 'body'])
  })

  test('a body that declares more than the limit is refused without being read', async () => {
    const { stream, counter } = endless()
    const declared = await post(stream, { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) })
    expect(declared.status).toBe(413)
    expect(counter.pulled).toBeLessThanOrEqual(1)
  })

  test('an endless body without a declared length is read only up to the limit', async () => {
    const { stream, counter } = endless()
    const res = await post(stream)
    expect(res.status).toBe(413)
    expect(counter.pulled * 1024).toBeLessThanOrEqual(REQUEST_LIMITS.bodyBytes + 4 * 1024)
  })

  test('a valid body within the limits still works', async () => {
    const res = await api.rt.app.handle(
      new Request(`http://localhost:3000${WRAPPER}`, {
        method: 'POST',
        body: JSON.stringify({ brand_name: 'Aurora Skin' }),
        headers: { 'content-type': 'application/json', 'x402-payment': await api.proof('capabilities.visibility') },
      }),
    )
    expect(res.status).toBe(200)
  })

  test('the MCP endpoint has its own, larger body limit', async () => {
    const big = rpcBody('tools/list', { pad: 'x'.repeat(REQUEST_LIMITS.mcpBodyBytes) })
    const res = await envelope(await post(big, MCP_HEADERS, '/mcp'))
    expect([res.status, res.body.error.code, res.body.error.details.limit_bytes]).toEqual([
      413,
      'payload_too_large',
      REQUEST_LIMITS.mcpBodyBytes,
    ])
  })

  test('the shape scan skips strings: brackets, colons and escaped quotes inside them do not count', () => {
    expect(jsonShape('{"a":"{[:\\"]}","b":[1,{"c":2}]}')).toEqual({ depth: 3, keys: 3 })
  })
})

describe('query strings', () => {
  test('a parameter given twice is a free 400 naming it, not a silent choice of one value', async () => {
    for (const path of [
      '/v1/market-data/spend/summary?country=Japan&country=China',
      '/v1/market-data/spend/summary?country=Japan&c%6Funtry=China',
    ]) {
      const res = await api.rt.get(path)
      expectClientError({ status: res.status, headers: res.headers, body: await res.json() }, 400, 'country')
    }
  })

  test('a query string over the limit is refused with 413 before any parameter is checked', async () => {
    expect(() => checkQuery(`/v1/china/trends?keyword=${'a'.repeat(REQUEST_LIMITS.queryBytes)}`)).toThrow(
      expect.objectContaining({ status: 413, code: 'payload_too_large' }),
    )
    expect(() => checkQuery(`/v1/china/trends?keyword=${'a'.repeat(REQUEST_LIMITS.queryBytes - 10)}`)).not.toThrow()
    // Through the app, with the envelope: the limit bounds the work, so it answers before the keyword's own maximum length.
    const res = await envelope(await api.rt.get(`/v1/china/trends?keyword=${'a'.repeat(REQUEST_LIMITS.queryBytes)}`))
    expect([res.status, res.body.error.code, res.body.error.details.parameter]).toEqual([413, 'payload_too_large', 'query'])
  })
})

describe('HEAD', () => {
  test('HEAD with a valid proof answers as the unpaid GET (402) and leaves the proof unused', async () => {
    const proof = await api.proof('spend.summary')
    const head = await api.rt.app.handle(
      new Request('http://localhost:3000/v1/market-data/spend/summary?country=Japan', {
        method: 'HEAD',
        headers: { 'x402-payment': proof },
      }),
    )
    expect(head.status).toBe(402)
    expect(await api.ledgerState(proof)).toBeNull()
    expect((await api.paid('spend.summary', { country: 'Japan' }, proof)).status).toBe(200)
  })
})
