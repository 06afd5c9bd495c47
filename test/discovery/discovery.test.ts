/** Discovery documents for agents and catalogs, checked against the catalog they are generated from. */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { decodePaymentRequiredHeader } from '@x402/core/http'
import { Value } from '@sinclair/typebox/value'
import { CATALOG, routeById } from '../../src/catalog'
import { plainSchema } from '../../src/catalog/json-schema'
import { DEV_PAY_TO } from '../../src/config/config'
import { ERROR_CODES } from '../../src/core/errors'
import { implementedRouteIds } from '../../src/composition/handler-map'
import { NETWORKS } from '../../src/payments/networks'
import { usdToAtomic } from '../../src/core/usdc'
import { testRuntime } from '../../support/runtime'

let rt: Awaited<ReturnType<typeof testRuntime>>
beforeAll(async () => {
  rt = await testRuntime({ PUBLIC_BASE_URL: 'https://api.example.test' })
})
afterAll(() => rt.close())

test('/.well-known/x402 lists every served route with its price, payment terms and schemas', async () => {
  const res = await rt.get('/.well-known/x402')
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toContain('application/json')
  expect(res.headers.get('x-request-id')).toBeTruthy()
  const doc = await res.json()
  const live = implementedRouteIds()
  expect(doc.items.map((i: any) => i.metadata.id).sort()).toEqual([...live].sort())
  expect(doc.planned.map((p: any) => p.id).sort()).toEqual(
    CATALOG.filter((r) => !live.has(r.id))
      .map((r) => r.id)
      .sort(),
  )
  for (const item of doc.items) {
    const route = routeById.get(item.metadata.id)!
    expect(item.resource).toBe(`https://api.example.test${route.path}`)
    expect(item.metadata.price_usd).toBe(route.priceUsd)
    expect(item.accepts).toEqual([
      expect.objectContaining({
        scheme: 'exact',
        network: 'eip155:84532',
        amount: usdToAtomic(route.priceUsd).toString(),
        asset: NETWORKS['base-sepolia'].asset,
        payTo: DEV_PAY_TO,
      }),
    ])
    const inputs = [...Object.keys(route.params?.properties ?? {}), ...Object.keys(route.query.properties)]
    expect(Object.keys(item.metadata.input.properties).sort()).toEqual(inputs.sort())
    expect(item.metadata.output).toEqual(plainSchema(route.data))
    // The bazaar example call is a valid request of the route, and its own schema lists what it sends.
    const bazaar = item.metadata.bazaar
    expect(Value.Check(route.query, bazaar.info.input.queryParams)).toBe(true)
    const querySchema = bazaar.schema.properties.input.properties.queryParams
    for (const name of querySchema.required) expect(bazaar.info.input.queryParams[name]).toBeString()
    for (const name of Object.keys(bazaar.info.input.queryParams)) expect(querySchema.properties[name]).toBeDefined()
  }
  expect(doc.payment).toMatchObject({ network: 'eip155:84532', payTo: DEV_PAY_TO })
})

test('/llms.txt describes every route with its price and parameters, how to pay, and the error codes', async () => {
  const res = await rt.get('/llms.txt')
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toContain('text/markdown')
  const text = await res.text()
  expect(text).toStartWith('# ')
  for (const route of CATALOG) {
    expect(text).toContain(`${route.path}](https://api.example.test${route.path}) — USD ${route.priceUsd}`)
    for (const name of route.query.required ?? []) expect(text).toContain(`\`${name}\` (required)`)
  }
  for (const code of Object.keys(ERROR_CODES)) expect(text).toContain(`\`${code}\``)
  expect(text).toContain('x402-payment')
  expect(text).toContain('https://api.example.test/.well-known/x402')
  expect(text).toMatch(/generated, deterministic samples/)
})

test("both documents list the x402 extensions, and they are exactly those every 402's PaymentRequired carries", async () => {
  const listed = ((await (await rt.get('/.well-known/x402')).json()).payment.extensions as { name: string }[]).map((e) => e.name)
  const unpaid = await rt.get('/v1/market-data/flights/summary?destination=Tokyo')
  const carried = Object.keys(decodePaymentRequiredHeader(unpaid.headers.get('payment-required')!).extensions ?? {})
  expect(listed).toEqual(carried)
  expect(listed).toContain('bazaar')
  const llms = await (await rt.get('/llms.txt')).text()
  for (const name of listed) expect(llms).toContain(`\`${name}\` (`)
  expect(llms).toContain('revisions 2026-07-28 and 2025')
})

test('the discovery documents are free and only answer GET', async () => {
  for (const path of ['/.well-known/x402', '/llms.txt']) {
    const post = await rt.app.handle(new Request(`https://api.example.test${path}`, { method: 'POST' }))
    expect(post.status).toBe(405)
    expect((await post.json()).error.code).toBe('method_not_allowed')
  }
})

test('the listed waits follow the evidence mode: sample answers say 1 s, live providers their catalog wait', async () => {
  const waits = async (r: Awaited<ReturnType<typeof testRuntime>>) =>
    Object.fromEntries(
      ((await (await r.get('/.well-known/x402')).json()).items as { resource: string; metadata: { typical_wait_seconds: number } }[]).map(
        (i) => [new URL(i.resource).pathname, i.metadata.typical_wait_seconds],
      ),
    )
  const sample = await waits(rt)
  const liveRt = await testRuntime({ WEB_SEARCH_URL: 'http://127.0.0.1:9/search' })
  try {
    const live = await waits(liveRt)
    for (const id of ['china.trends', 'capabilities.visibility']) {
      const route = routeById.get(id)!
      expect(sample[route.path]).toBe(1)
      expect(live[route.path]).toBe(route.typicalWaitSeconds)
      expect(route.typicalWaitSeconds).toBeGreaterThan(1)
    }
    const dataset = routeById.get('flights.summary')!
    expect([sample[dataset.path], live[dataset.path]]).toEqual([dataset.typicalWaitSeconds, dataset.typicalWaitSeconds])
  } finally {
    liveRt.close()
  }
})
