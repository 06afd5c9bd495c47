/**
 * The remote MCP endpoint with the official clients of both protocol eras over HTTP against a started
 * server (support/mcp-clients.ts): tools from the catalog, the x402 MCP transport (requirements in an
 * error result, payment in `_meta["x402/payment"]`, settlement in `_meta["x402/payment-response"]`),
 * and the same ledger as HTTP. Each client checks `structuredContent` against the tool's `outputSchema`
 * itself (SDK 1.x on error results too), so every call here also checks the declared schema.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { DEV_OFFER } from '../../support/offers'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { MCP_ERAS, type McpTestClient } from '../../support/mcp-clients'
import { CATALOG, routeById } from '../../src/catalog'
import { routeInputSchema } from '../../src/catalog/json-schema'
import { createHandlers, implementedRouteIds } from '../../src/composition/handler-map'
import { usdToAtomic } from '../../src/core/usdc'
import { handleMcp } from '../../src/mcp/server'
import { paidCaller } from '../../src/paid-call/call'
import { MCP_HEADERS, paymentObject, rpcBody, toolCallBody } from '../../support/mcp-messages'
import { createPayer } from '../../support/payer'
import { testRuntime } from '../../support/runtime'
import { startServer, type StartedServer } from '../../support/server'

let server: StartedServer
const payer = createPayer()
/** A v2 PaymentPayload object for a route (its price unless told otherwise), as an MCP client puts it in `_meta`. */
const payment = (routeId: string, value = usdToAtomic(routeById.get(routeId)!.priceUsd)) => paymentObject(payer, value)

beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server?.stop()
})

for (const era of MCP_ERAS) {
  describe(era.name, () => {
    let client: McpTestClient
    const call = (name: string, args: Record<string, unknown>, pay?: unknown) =>
      client.callTool({ name, arguments: args, ...(pay ? { _meta: { 'x402/payment': pay } } : {}) })
    beforeAll(async () => {
      client = await era.connect(`${server.url}/mcp`)
    })
    afterAll(async () => {
      await client?.close()
    })

    test('tools/list: every served route as a tool with its input schema, price, annotations and output schema', async () => {
      expect(client.revision()).toBe(era.revision)
      const { tools } = await client.listTools()
      const live = implementedRouteIds()
      expect(tools.map((t) => t.name).sort()).toEqual(
        CATALOG.filter((r) => live.has(r.id))
          .map((r) => r.id.replaceAll('.', '_'))
          .sort(),
      )
      for (const tool of tools) {
        const route = CATALOG.find((r) => r.id.replaceAll('.', '_') === tool.name)!
        expect(tool.inputSchema).toEqual(routeInputSchema(route) as never)
        expect(tool.description).toContain(`USD ${route.priceUsd} per call`)
        // Every tool reads; with the sample corpus none reaches the open web (live evidence: mcp-2026.test.ts).
        expect(tool.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false })
        // The paid answer, an error and the PaymentRequired: what structuredContent may be.
        expect(tool.outputSchema.type).toBe('object')
        expect(tool.outputSchema.anyOf.map((branch: { required: string[] }) => branch.required)).toEqual([
          ['success', 'data', 'meta', 'pricing'],
          ['success', 'error', 'meta'],
          ['x402Version', 'accepts'],
        ])
      }
    })

    test('an unpaid call answers the payment requirements as an error result', async () => {
      const r = await call('flights_summary', { destination: 'Tokyo' })
      expect(r.isError).toBe(true)
      expect(r.structuredContent.x402Version).toBe(2)
      expect(r.structuredContent.resource.url).toBe('mcp://tool/flights_summary')
      expect(r.structuredContent.accepts[0]).toMatchObject({ scheme: 'exact', network: 'eip155:84532', amount: '100000' })
      const wrapped = JSON.parse(r.content[0].text)['x402/error']
      expect(wrapped.code).toBe(402)
      expect(wrapped.data).toEqual(r.structuredContent)
    })

    test("a paid call answers the route's envelope with the settlement in _meta; the same payment again returns the stored answer", async () => {
      const pay = await payment('spend.summary')
      const r = await call('spend_summary', { country: '日本' }, pay)
      expect(r.isError).toBeFalsy()
      expect(r.structuredContent.success).toBe(true)
      expect(r.structuredContent.data.country).toBe('Japan')
      expect(r.structuredContent.pricing).toEqual({ amount_usd: '0.10', payment_status: 'paid' })
      expect(JSON.parse(r.content[0].text)).toEqual(r.structuredContent)
      // The receipt HTTP sends too: nothing on chain in development mode, the network as the proof's version (here 1) names it.
      expect(r._meta['x402/payment-response']).toEqual({
        success: true,
        transaction: '',
        network: 'base-sepolia',
        payer: pay.payload.authorization.from,
      })

      // Over HTTP, the same route answers the same data.
      const http = await fetch(`${server.url}/v1/market-data/spend/summary?country=Japan`, {
        headers: { 'x402-payment': Buffer.from(JSON.stringify(await payment('spend.summary'))).toString('base64') },
      })
      expect((await http.json()).data).toEqual(r.structuredContent.data)

      const again = await call('spend_summary', { country: 'Japan' }, pay) // an alias of the same request
      expect(again.structuredContent).toEqual(r.structuredContent)
    })

    test('one ledger for MCP and HTTP: a payment spent on a tool cannot buy another request anywhere', async () => {
      const pay = await payment('flights.summary')
      expect((await call('flights_summary', { destination: 'Osaka' }, pay)).isError).toBeFalsy()
      const replay = await call('flights_summary', { destination: 'Seoul' }, pay)
      expect(replay.isError).toBe(true)
      expect(JSON.parse(replay.content[0].text).error.code).toBe('payment_replayed')
      const http = await fetch(`${server.url}/v1/market-data/flights/summary?destination=Seoul`, {
        headers: { 'x402-payment': Buffer.from(JSON.stringify(pay)).toString('base64') },
      })
      expect(http.status).toBe(402)
      expect((await http.json()).error.code).toBe('payment_replayed')
    })

    test('a payment for another amount is refused with the requirements', async () => {
      const r = await call('flights_summary', { destination: 'Tokyo' }, await payment('flights.summary', 30_000n))
      expect(r.isError).toBe(true)
      expect(JSON.parse(r.content[0].text).error.code).toBe('payment_invalid')
      expect(r.structuredContent.accepts[0].amount).toBe('100000')
    })

    test('bad arguments and unknown names are free error results, before any payment is asked', async () => {
      const bad = await call('flights_summary', { destination: 'Tokyo', month: '2026-13' })
      expect(bad.isError).toBe(true)
      expect(bad.structuredContent.error.code).toBe('invalid_parameter')
      expect(bad.structuredContent.accepts).toBeUndefined()
      const unknown = await call('flights_summary', { destination: 'Atlantis' })
      expect(unknown.structuredContent.error).toMatchObject({ code: 'not_found', details: { parameter: 'destination' } })
      const path = await call('signals_brands_snapshot', { brand_slug: 'no-such-brand' })
      expect(path.structuredContent.error.code).toBe('not_found')
    })

    test('a near miss of a known name is a free error result with the names it may mean, as over HTTP', async () => {
      const r = await call('china_sentiment', { entity: 'Celestine Pairs' })
      expect(r.isError).toBe(true)
      expect(r.structuredContent.accepts).toBeUndefined()
      expect(r.structuredContent.error).toMatchObject({ code: 'not_found', details: { parameter: 'entity', value: 'Celestine Pairs' } })
      expect(r.structuredContent.error.details.did_you_mean).toContainEqual({
        id: 'brand:celestine-paris',
        kind: 'brand',
        name: 'Celestine Paris',
        name_zh: '赛勒斯汀',
      })
    })

    test('an unknown tool is the JSON-RPC error -32602 "Unknown tool", not a tool result', async () => {
      // Each client words the error its own way (1.x prefixes "MCP error -32602: "); the wire is checked below.
      await expect(call('no_such_tool', {})).rejects.toMatchObject({
        code: -32602,
        message: expect.stringMatching(/Unknown tool: no_such_tool$/),
      })
      // On the wire (2025 revisions; 2026-07-28: mcp-2026.test.ts): the spec's example shape, with our request id in `data`.
      const pay = await payment('flights.summary')
      const res = await fetch(`${server.url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: toolCallBody('no_such_tool', {}, pay, 3) })
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({
        jsonrpc: '2.0',
        id: 3,
        error: {
          code: -32602,
          message: 'Unknown tool: no_such_tool',
          data: { request_id: expect.stringMatching(/^req_/), name: 'no_such_tool' },
        },
      })
      // Nothing was charged: the payment sent along still buys a real call.
      expect((await call('flights_summary', { destination: 'Bangkok' }, pay)).structuredContent.pricing.payment_status).toBe('paid')
    })

    test('a wrapper tool with a path-free input and a paid call works the same way', async () => {
      const r = await call('capabilities_destination_demand', { destination: 'NRT' }, await payment('capabilities.destination_demand'))
      expect(r.isError).toBeFalsy()
      expect(r.structuredContent.data.destination).toBe('Tokyo')
    })
  })
}

test('a catalog route this release does not serve is not listed, so calling it is an unknown tool too', async () => {
  const rt = await testRuntime()
  try {
    const { 'flights.summary': _, ...handlers } = createHandlers({ market: rt.market, signals: rt.signals, intelligence: rt.intelligence })
    const deps = {
      paid: paidCaller({ gate: rt.gate, handlers }),
      implemented: new Set(Object.keys(handlers)),
      offers: [DEV_OFFER],
      evidence: 'sample' as const,
      requestId: () => 'req_test',
    }
    const post = (body: unknown) => handleMcp(deps, new Request('http://localhost/mcp', { method: 'POST', headers: MCP_HEADERS }), body)
    const list = (await (await post({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} })).json()) as any
    expect(list.result.tools.map((t: { name: string }) => t.name)).not.toContain('flights_summary')
    const called = (await (
      await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'flights_summary', arguments: { destination: 'Tokyo' } } })
    ).json()) as any
    expect(called.error).toMatchObject({ code: -32602, message: 'Unknown tool: flights_summary' })
  } finally {
    rt.close()
  }
})

test('over a real socket, a rebinding request (Host and Origin of another site) is refused 403 with our request id', async () => {
  const port = new URL(server.url).port
  const post = (headers: Record<string, string>) =>
    fetch(`${server.url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body: rpcBody('tools/list') })
  const rebound = await post({ host: `evil.example:${port}`, origin: `http://evil.example:${port}` })
  expect(rebound.status).toBe(403)
  const body = (await rebound.json()) as any
  expect(body.error).toMatchObject({ code: -32000, data: { code: 'forbidden_host', request_id: rebound.headers.get('x-request-id') } })
  expect((await post({ origin: 'https://evil.example' })).status).toBe(403)
  // The server's own default PUBLIC_BASE_URL is http://localhost:<port>; a localhost page may call it.
  expect((await post({ host: `localhost:${port}`, origin: `http://localhost:${port}` })).status).toBe(200)
})

test('GET and DELETE are 405 (stateless: no SSE stream, no session), so SDK clients do not keep reopening a stream', async () => {
  for (const method of ['GET', 'DELETE']) {
    const res = await fetch(`${server.url}/mcp`, { method, headers: { accept: 'text/event-stream' } })
    expect([method, res.status, res.headers.get('allow')]).toEqual([method, 405, 'POST'])
    const body = (await res.json()) as any
    expect(body.error).toMatchObject({ code: -32000, data: { code: 'method_not_allowed', request_id: res.headers.get('x-request-id') } })
  }
})

test('tool calls share the per-payer rate limit with HTTP: over it, a free rate_limited result', async () => {
  const limited = await startServer({ RATE_LIMIT_PAYER_PER_MINUTE: '1' })
  const c = new Client({ name: 'mcp-limit-test', version: '1.0.0' })
  try {
    await c.connect(new StreamableHTTPClientTransport(new URL(`${limited.url}/mcp`)))
    const first = (await c.callTool({
      name: 'flights_months',
      arguments: {},
      _meta: { 'x402/payment': await payment('flights.months') },
    })) as any
    expect(first.isError).toBeFalsy()
    const pay = await payment('flights.months')
    const second = (await c.callTool({ name: 'flights_months', arguments: {}, _meta: { 'x402/payment': pay } })) as any
    expect(second.isError).toBe(true)
    expect(second.structuredContent.error).toMatchObject({ code: 'rate_limited', details: { scope: 'payer' } })
    // HTTP counts against the same payer's limit.
    const http = await fetch(`${limited.url}/v1/market-data/flights/months`, {
      headers: { 'x402-payment': Buffer.from(JSON.stringify(pay)).toString('base64') },
    })
    expect(http.status).toBe(429)
    expect(http.headers.get('retry-after')).toBeTruthy()
  } finally {
    await c.close()
    await limited.stop()
  }
})
