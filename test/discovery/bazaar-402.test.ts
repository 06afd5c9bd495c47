/**
 * Listed where agents look: every 402 carries the route's `bazaar` discovery extension in its x402 v2
 * PAYMENT-REQUIRED, valid by `@x402/extensions`' own validator; a v2 client (`@x402/fetch`) echoes it
 * into its payment payload, and a facilitator's extraction (`extractDiscoveryInfo`, what Bazaar
 * facilitators run on /verify and /settle) finds the resource, its method and example call there.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { decodePaymentRequiredHeader } from '@x402/core/http'
import { extractDiscoveryInfo, validateDiscoveryExtension, validateDiscoveryExtensionSpec } from '@x402/extensions/bazaar'
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts'
import { CATALOG } from '../../src/catalog'
import { exampleCall } from '../../src/catalog/examples'
import { decodeProofHeader, recordingFetch, v2Client } from '../../support/clients'
import { BASE, testRuntime } from '../../support/runtime'

let rt: Awaited<ReturnType<typeof testRuntime>>
beforeAll(async () => {
  rt = await testRuntime({ PAYMENT_NETWORKS: 'base-sepolia,polygon-amoy' })
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
  expect(found).toMatchObject({ resourceUrl: `${BASE}/v1/market-data/flights/summary`, method: 'GET', x402Version: 2 })
  expect((found as { discoveryInfo: { input: { queryParams: Record<string, string> } } }).discoveryInfo.input.queryParams).toEqual({
    destination: 'Tokyo',
  })
})
