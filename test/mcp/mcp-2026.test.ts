/**
 * /mcp on the wire in the 2026-07-28 revision, as the official server package (2.4.0) answers it and
 * the revision's specification asks: `server/discover`, the `MCP-Protocol-Version`, `Mcp-Method` and
 * `Mcp-Name` headers checked against the body (-32020), `resultType` on every result, cache hints on
 * `tools/list`; our tools, errors and receipts inside it as in the 2025 revisions (mcp.test.ts drives
 * both eras with the official clients).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { CATALOG, exampleCall, routeById, successEnvelope } from '../../src/catalog'
import { createHandlers } from '../../src/composition/handler-map'
import { usdToAtomic } from '../../src/core/usdc'
import { handleMcp } from '../../src/mcp/server'
import { paidCaller } from '../../src/paid-call/call'
import { MCP_HEADERS, MODERN_REVISION, modernBody, modernHeaders, paymentObject, rpcBody } from '../../support/mcp-messages'
import { DEV_OFFER } from '../../support/offers'
import { createPayer } from '../../support/payer'
import { testRuntime } from '../../support/runtime'
import { MCP_ERAS } from '../../support/mcp-clients'
import { startServer, type StartedServer } from '../../support/server'
import { implementedRouteIds } from '../../src/composition/handler-map'

let server: StartedServer
const payer = createPayer()

beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server?.stop()
})

const post = async (headers: Record<string, string>, body: string) => {
  const res = await fetch(`${server.url}/mcp`, { method: 'POST', headers, body })
  return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as any }
}

test('server/discover names the revision served, the tools capability and who we are', async () => {
  const { status, body } = await post(modernHeaders('server/discover'), modernBody('server/discover'))
  expect(status).toBe(200)
  expect(body.result).toMatchObject({
    supportedVersions: [MODERN_REVISION],
    capabilities: { tools: {} },
    resultType: 'complete',
    _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'china-market-intel' } },
  })
})

test('tools/list: the tools, a result type, and cache hints (the tools change with a release, not a caller)', async () => {
  const { status, body } = await post(modernHeaders('tools/list'), modernBody('tools/list'))
  expect(status).toBe(200)
  expect(body.result).toMatchObject({ resultType: 'complete', ttlMs: 300_000, cacheScope: 'public' })
  expect(body.result.tools.find((tool: { name: string }) => tool.name === 'flights_summary').annotations).toEqual({
    title: routeById.get('flights.summary')!.summary,
    readOnlyHint: true,
    openWorldHint: false,
  })
})

test('headers that disagree with the body are refused -32020 before any tool runs', async () => {
  const mismatch = await post(modernHeaders('tools/call', 'flights_months'), modernBody('tools/list'))
  expect([mismatch.status, mismatch.body.error.code]).toEqual([400, -32020])
  const nameless = await post(modernHeaders('tools/call'), modernBody('tools/call', { name: 'flights_months', arguments: {} }))
  expect([nameless.status, nameless.body.error.code]).toEqual([400, -32020])
  expect(nameless.body.error.message).toContain('Mcp-Name')
  const version = await post({ ...modernHeaders('tools/list'), 'mcp-protocol-version': '2025-06-18' }, modernBody('tools/list'))
  expect([version.status, version.body.error.code]).toEqual([400, -32020])
})

test('no subscription streams: the tools never change while the server runs, and a stream would hold a connection', async () => {
  const { status, type, body } = await post(
    modernHeaders('subscriptions/listen'),
    modernBody('subscriptions/listen', { notifications: { toolsListChanged: true } }),
  )
  expect([status, type]).toEqual([200, 'application/json;charset=utf-8'])
  expect(body.error).toMatchObject({ code: -32603, message: 'Subscription limit reached' })
})

test('an unpaid call, a paid one with its receipt, and an unknown tool, as in the 2025 revisions', async () => {
  const unpaid = await post(
    modernHeaders('tools/call', 'flights_months'),
    modernBody('tools/call', { name: 'flights_months', arguments: {} }),
  )
  expect(unpaid.body.result).toMatchObject({ isError: true, resultType: 'complete', structuredContent: { x402Version: 2 } })
  expect(unpaid.body.result.structuredContent.accepts[0].amount).toBe(usdToAtomic(routeById.get('flights.months')!.priceUsd).toString())

  const pay = await paymentObject(payer, usdToAtomic(routeById.get('flights.months')!.priceUsd))
  const paid = await post(
    modernHeaders('tools/call', 'flights_months'),
    modernBody('tools/call', { name: 'flights_months', arguments: {}, _meta: { 'x402/payment': pay } }),
  )
  expect(paid.body.result.structuredContent).toMatchObject({ success: true, pricing: { payment_status: 'paid' } })
  // Our receipt beside the package's server info in the result's _meta.
  expect(paid.body.result._meta['x402/payment-response']).toMatchObject({ success: true, payer: pay.payload.authorization.from })
  expect(paid.body.result._meta['io.modelcontextprotocol/serverInfo'].name).toBe('china-market-intel')

  const unknown = await post(modernHeaders('tools/call', 'no_such_tool'), modernBody('tools/call', { name: 'no_such_tool', arguments: {} }))
  expect(unknown.body.error).toEqual({
    code: -32602,
    message: 'Unknown tool: no_such_tool',
    data: { request_id: expect.stringMatching(/^req_/), name: 'no_such_tool' },
  })
})

test('a 2025 request without the envelope is still answered in JSON by the stateless transport', async () => {
  const { status, type, body } = await post({ ...MCP_HEADERS, 'mcp-protocol-version': '2025-06-18' }, rpcBody('tools/list'))
  expect([status, type]).toEqual([200, 'application/json'])
  expect(body.result.tools.length).toBeGreaterThan(20)
  expect(body.result.resultType).toBeUndefined() // 2026-07-28's additions stay out of the 2025 answers
})

test('with live providers, the tools that use the China evidence reach the open web; the datasets do not', async () => {
  const rt = await testRuntime()
  try {
    const handlers = createHandlers({ market: rt.market, signals: rt.signals, intelligence: rt.intelligence })
    const deps = {
      paid: paidCaller({ gate: rt.gate, handlers }),
      implemented: new Set(Object.keys(handlers)),
      offers: [DEV_OFFER],
      evidence: 'live' as const,
      requestId: () => 'req_test',
    }
    const request = new Request('http://localhost/mcp', { method: 'POST', headers: modernHeaders('tools/list') })
    const listed = (await (await handleMcp(deps, request, JSON.parse(modernBody('tools/list')))).json()) as any
    const open = (name: string) => listed.result.tools.find((tool: { name: string }) => tool.name === name).annotations.openWorldHint
    expect([open('china_sentiment'), open('capabilities_kol_shortlist'), open('flights_summary'), open('signals_brands_rankings')]).toEqual(
      [true, true, false, false],
    )
  } finally {
    rt.close()
  }
})

test("every tool's paid answer matches its outputSchema: the 2026-07-28 client checks it, and so does the catalog's schema", async () => {
  const client = await MCP_ERAS[1]!.connect(`${server.url}/mcp`)
  const served = implementedRouteIds()
  const mismatches: string[] = []
  try {
    for (const route of CATALOG.filter((r) => served.has(r.id))) {
      const { params, input } = exampleCall(route)
      const pay = await paymentObject(payer, usdToAtomic(route.priceUsd))
      // The client validates a successful result's structuredContent against the tool's outputSchema and throws if it does not match.
      const result = await client.callTool({
        name: route.id.replaceAll('.', '_'),
        arguments: { ...params, ...input },
        _meta: { 'x402/payment': pay },
      })
      if (result.isError) mismatches.push(`${route.id}: ${result.content[0].text.slice(0, 200)}`)
      else if (!Value.Check(successEnvelope(route), result.structuredContent))
        mismatches.push(
          `${route.id}: ${[...Value.Errors(successEnvelope(route), result.structuredContent)]
            .slice(0, 3)
            .map((e) => `${e.path} ${e.message}`)
            .join('; ')}`,
        )
    }
  } finally {
    await client.close()
  }
  expect(mismatches).toEqual([])
}, 120_000)
