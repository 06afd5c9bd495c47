/**
 * Listed where agents look: every 402 carries the route's `bazaar` discovery extension in its x402 v2
 * PAYMENT-REQUIRED, valid by `@x402/extensions`' own validator; a v2 client (`@x402/fetch`) echoes it
 * into its payment payload, and a facilitator's extraction (`extractDiscoveryInfo`, what Bazaar
 * facilitators run on /verify and /settle) finds the resource, its method and example call there. A
 * route sold as an MCP tool carries the bazaar spec's MCP entry instead (`input.type: "mcp"`, `toolName`).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { x402Client } from '@x402/core/client'
import { decodePaymentRequiredHeader } from '@x402/core/http'
import { registerExactEvmScheme } from '@x402/evm/exact/client'
import { extractDiscoveryInfo, validateDiscoveryExtension, validateDiscoveryExtensionSpec } from '@x402/extensions/bazaar'
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts'
import { CATALOG } from '../../src/catalog'
import { exampleCall } from '../../src/catalog/examples'
import { decodeProofHeader, recordingFetch, v2Client } from '../../support/clients'
import { MCP_HEADERS, rpcBody } from '../../support/mcp-messages'
import { BASE, testRuntime } from '../../support/runtime'

/** The public origin the service is configured with: a catalogue fetches its icon there. */
const PUBLIC = 'https://api.example.test'
let rt: Awaited<ReturnType<typeof testRuntime>>
beforeAll(async () => {
  rt = await testRuntime({ PAYMENT_NETWORKS: 'base-sepolia,polygon-amoy', PUBLIC_BASE_URL: PUBLIC })
})
afterAll(() => rt.close())

/** The route's documented example request. */
const exampleUrl = (route: (typeof CATALOG)[number]) => {
  const query = new URLSearchParams(Object.entries(exampleCall(route).input).map(([k, v]) => [k, String(v)])).toString()
  return `${route.path}${query ? `?${query}` : ''}`
}

test('every route: the 402 carries a bazaar extension that @x402/extensions validates, its example being a real call of the route', async () => {
  for (const route of CATALOG.filter((r) => r.methods[0] === 'GET' && !r.path.includes(':'))) {
    const res = await rt.get(exampleUrl(route))
    expect([route.id, res.status]).toEqual([route.id, 402])
    const bazaar = decodePaymentRequiredHeader(res.headers.get('payment-required')!).extensions?.bazaar as Record<string, unknown>
    expect([route.id, validateDiscoveryExtension(bazaar as never)]).toEqual([route.id, { valid: true }])
    expect([route.id, validateDiscoveryExtensionSpec(bazaar).valid]).toEqual([route.id, true])
  }
})

test("a v2 client echoes the extension into its payment, and a facilitator's extraction catalogues the resource from it", async () => {
  const recording = recordingFetch({
    base: ((input: RequestInfo | URL, init?: RequestInit) => rt.app.handle(new Request(input, init))) as typeof fetch,
  })
  const pay = v2Client(privateKeyToAccount(generatePrivateKey()), recording.fetch)
  const res = await pay(`${BASE}/v1/market-data/flights/summary?destination=Tokyo`)
  expect(res.status).toBe(200)
  const payload = decodeProofHeader(recording.exchanges.find((e) => e.status === 200)!.proofs['payment-signature']!)
  expect(payload.extensions?.bazaar).toBeDefined()
  const found = extractDiscoveryInfo(payload, payload.accepted)
  expect(found).toMatchObject({
    resourceUrl: `${PUBLIC}/v1/market-data/flights/summary`,
    method: 'GET',
    x402Version: 2,
    iconUrl: `${PUBLIC}/favicon.svg`,
  })
  expect((found as { discoveryInfo: { input: { queryParams: Record<string, string> } } }).discoveryInfo.input.queryParams).toEqual({
    destination: 'Tokyo',
  })
})

/** The PaymentRequired of an unpaid MCP call of a tool, as its tool result carries it. */
async function toolPaymentRequired(name: string, args: Record<string, unknown>) {
  const res = await rt.app.handle(
    new Request(`${BASE}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: rpcBody('tools/call', { name, arguments: args }) }),
  )
  const body = (await res.json()) as { result: { isError: boolean; structuredContent: any } }
  expect(body.result.isError).toBe(true)
  return body.result.structuredContent
}

test("every tool: an unpaid call's PaymentRequired carries the tool's own MCP entry, which @x402/extensions validates", async () => {
  for (const route of CATALOG) {
    const name = route.id.replaceAll('.', '_')
    const { params, input } = exampleCall(route)
    const required = await toolPaymentRequired(name, { ...params, ...input })
    expect([name, required.resource.url, required.resource.serviceName, required.resource.iconUrl]).toEqual([
      name,
      `mcp://tool/${name}`,
      'China Market Intelligence',
      `${PUBLIC}/favicon.svg`,
    ])
    const bazaar = required.extensions.bazaar
    expect([name, bazaar.info.input.type, bazaar.info.input.toolName]).toEqual([name, 'mcp', name])
    expect([name, validateDiscoveryExtension(bazaar)]).toEqual([name, { valid: true }])
    expect([name, validateDiscoveryExtensionSpec(bazaar).valid]).toEqual([name, true])
  }
})

test("a client's payment for a tool echoes the entry, and a facilitator's extraction catalogues it as that tool", async () => {
  const required = await toolPaymentRequired('flights_summary', { destination: 'Tokyo' })
  const payer = new x402Client()
  registerExactEvmScheme(payer, { signer: privateKeyToAccount(generatePrivateKey()) })
  const payload = await payer.createPaymentPayload(required)
  const found = extractDiscoveryInfo(payload, payload.accepted)
  expect(found).toMatchObject({
    toolName: 'flights_summary',
    serviceName: 'China Market Intelligence',
    iconUrl: `${PUBLIC}/favicon.svg`,
    x402Version: 2,
  })
  // The icon named is served, as an image.
  const icon = await rt.get('/favicon.svg')
  expect([icon.status, icon.headers.get('content-type')]).toEqual([200, 'image/svg+xml'])
  // The resource is x402's own default for a tool (@x402/mcp: mcp://tool/<name>); the package's extraction
  // keeps only an origin and path of it, and an mcp: URL has no origin, so the tool is told by `toolName`.
  expect((found as { resourceUrl: string }).resourceUrl).toBe('null/flights_summary')
  expect((found as { discoveryInfo: { input: Record<string, unknown> } }).discoveryInfo.input).toMatchObject({
    type: 'mcp',
    toolName: 'flights_summary',
    example: { destination: 'Tokyo' },
  })
})

test('on localhost or an IP address the PaymentRequired names no icon: catalogues drop those', async () => {
  const local = await testRuntime()
  try {
    const res = await local.get('/v1/market-data/flights/summary?destination=Tokyo')
    const resource = decodePaymentRequiredHeader(res.headers.get('payment-required')!).resource as unknown as Record<string, unknown>
    expect([resource.serviceName, resource.iconUrl]).toEqual(['China Market Intelligence', undefined])
  } finally {
    local.close()
  }
})
