import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { DEV_OFFER } from '../../../support/offers'
import { decodePaymentRequiredHeader } from '@x402/core/http'
import { CATALOG, routeById } from '../../../src/catalog'
import { DEV_PAY_TO } from '../../../src/config/config'
import { NETWORKS } from '../../../src/payments/networks'
import { usdToAtomic } from '../../../src/core/usdc'
import { createPayer, editProof } from '../../../support/payer'
import { BASE, testRuntime } from '../../../support/runtime'
import { createApp } from '../../../src/composition/app'
import { createHandlers } from '../../../src/composition/handler-map'

let rt: Awaited<ReturnType<typeof testRuntime>>
const payer = createPayer()
const SUMMARY = '/v1/market-data/flights/summary?destination=Tokyo'
const price = (id: string) => usdToAtomic(routeById.get(id)!.priceUsd)

beforeAll(async () => {
  rt = await testRuntime()
})
afterAll(() => rt.close())

/** A request that every implemented route accepts (valid parameters, known names). */
const SAMPLE_QUERY: Record<string, string> = {
  'spend.months': '',
  'spend.countries': '',
  'spend.summary': '?country=Japan',
  'spend.trends': '?country=Japan',
  'spend.series': '?country=Japan&metric=total_cards',
  'flights.months': '',
  'flights.summary': '?destination=Tokyo',
  'flights.trend': '?destination=Tokyo',
  'flights.top_routes': '?destination=Tokyo',
  'flights.ranking': '',
  'flights.growth': '',
  'flights.aggregate': '?destinations=Tokyo,Osaka&label=Japan%20pair',
}
const implemented = CATALOG.filter((r) => r.id in SAMPLE_QUERY)

describe('402 payment requirements', () => {
  test('the sample request list covers every implemented dataset route', () => {
    expect(implemented.map((r) => r.id).sort()).toEqual(
      CATALOG.filter((r) => r.family === 'spend' || r.family === 'flights')
        .map((r) => r.id)
        .sort(),
    )
  })

  for (const route of implemented) {
    test(`${route.path} answers 402 with our envelope, v1 accepts and a v2 PAYMENT-REQUIRED header`, async () => {
      const res = await rt.get(route.path + SAMPLE_QUERY[route.id])
      expect(res.status).toBe(402)
      const body = await res.json()
      expect(body.success).toBe(false)
      expect(body.error.code).toBe('payment_required')
      expect(body.meta.request_id).toBe(res.headers.get('x-request-id')!)
      expect(body.x402Version).toBe(1)
      const [v1] = body.accepts
      const network = NETWORKS['base-sepolia']
      expect(v1).toEqual({
        scheme: 'exact',
        network: 'base-sepolia',
        maxAmountRequired: usdToAtomic(route.priceUsd).toString(),
        resource: `${BASE}${route.path}`,
        description: expect.stringContaining(route.priceUsd),
        mimeType: 'application/json',
        payTo: DEV_PAY_TO,
        maxTimeoutSeconds: route.typicalWaitSeconds + 70,
        asset: network.asset,
        outputSchema: expect.any(Object),
        extra: { name: 'USDC', version: '2' },
      })
      // outputSchema: how to call the route and what `data` holds, from the catalog.
      const { input, output } = v1.outputSchema
      expect(input).toMatchObject({ type: 'http', method: 'GET', discoverable: true })
      expect(Object.keys(input.queryParams).sort()).toEqual(Object.keys(route.query.properties).sort())
      for (const name of route.query.required ?? []) expect(input.queryParams[name].required).toBe(true)
      expect(Object.keys(output.properties).sort()).toEqual(Object.keys((route.data as any).properties).sort())
      const v2 = decodePaymentRequiredHeader(res.headers.get('payment-required')!)
      expect(v2.resource).toMatchObject({ serviceName: expect.any(String), tags: expect.any(Array) })
      expect(v2.x402Version).toBe(2)
      expect(v2.resource.url).toBe(v1.resource)
      expect(v2.accepts).toEqual([
        {
          scheme: 'exact',
          network: 'eip155:84532',
          amount: v1.maxAmountRequired,
          asset: network.asset,
          payTo: DEV_PAY_TO,
          maxTimeoutSeconds: v1.maxTimeoutSeconds,
          extra: v1.extra,
        },
      ])
    })
  }

  test('the absolute resource URL uses PUBLIC_BASE_URL', async () => {
    const other = await testRuntime({ PUBLIC_BASE_URL: 'https://api.example.test/' })
    try {
      const body = await (await other.get(SUMMARY)).json()
      expect(body.accepts[0].resource).toBe('https://api.example.test/v1/market-data/flights/summary')
    } finally {
      other.close()
    }
  })

  test('X402_NETWORK=base asks for USDC on Base mainnet', async () => {
    const main = await testRuntime({ X402_NETWORK: 'base', PAY_TO: '0x1111111111111111111111111111111111111111' })
    try {
      const res = await main.get(SUMMARY)
      const body = await res.json()
      expect(body.accepts[0]).toMatchObject({
        network: 'base',
        asset: NETWORKS.base.asset,
        payTo: '0x1111111111111111111111111111111111111111',
        extra: { name: 'USD Coin', version: '2' },
      })
      expect(decodePaymentRequiredHeader(res.headers.get('payment-required')!).accepts[0]!.network).toBe('eip155:8453')
    } finally {
      main.close()
    }
  })
})

describe('paying', () => {
  for (const header of ['x402-payment', 'X-PAYMENT', 'PAYMENT-SIGNATURE']) {
    for (const version of [1, 2] as const) {
      test(`a v${version} proof in ${header} buys the answer`, async () => {
        const res = await rt.get(SUMMARY, { [header]: await payer.proof({ value: price('flights.summary'), version }) })
        expect(res.status).toBe(200)
        const body = await res.json()
        expect(body.success).toBe(true)
        expect(body.data.destination).toBe('Tokyo')
        expect(body.pricing).toEqual({ amount_usd: '0.10', payment_status: 'paid' })
        expect(body.meta.artifact_path).toMatch(/^\/v1\/artifacts\/art_[0-9a-f]{12}[A-Za-z0-9_-]{22}$/)
      })
    }
  }

  test('the artifact path returns the paid answer again without payment', async () => {
    const paid = await (await rt.get(SUMMARY, { 'x402-payment': await payer.proof({ value: price('flights.summary') }) })).json()
    const again = await rt.get(paid.meta.artifact_path)
    expect(again.status).toBe(200)
    expect(await again.json()).toEqual(paid)
  })

  for (const id of ['art_AAAAAAAAAAAAAAAAAAAAAA', 'xyz']) {
    test(`an unknown artifact (${id}) is a 404 envelope`, async () => {
      const res = await rt.get(`/v1/artifacts/${id}`)
      expect(res.status).toBe(404)
      expect((await res.json()).error.code).toBe('not_found')
    })
  }

  test('the payment is recorded in the ledger as served, with payer, route and amount', async () => {
    const proof = await payer.proof({ value: price('spend.months') })
    const res = await rt.get('/v1/market-data/spend/months', { 'x402-payment': proof })
    const body = await res.json()
    const nonce = JSON.parse(Buffer.from(proof, 'base64').toString()).payload.authorization.nonce
    const row = (rt.ledger as unknown as { db: import('bun:sqlite').Database }).db
      .query('SELECT payer, route, amount_atomic, request_id, state FROM payments WHERE nonce = ?')
      .get(nonce)
    expect(row).toEqual({
      payer: payer.address.toLowerCase(),
      route: 'spend.months',
      amount_atomic: '30000',
      request_id: body.meta.request_id,
      state: 'served',
    })
  })
})

describe('a proof buys exactly one request', () => {
  test('the same proof for the same request gets the stored answer, not a second charge', async () => {
    const proof = await payer.proof({ value: price('flights.summary') })
    const first = await rt.get(SUMMARY, { 'x402-payment': proof })
    const second = await rt.get(SUMMARY, { 'x402-payment': proof })
    expect(second.status).toBe(200)
    expect(second.headers.get('x-payment-replay')).toBe('stored-result')
    expect(await second.json()).toEqual(await first.json())
  })

  test('the same request spelled differently (tokyo vs TYO) is the same request', async () => {
    const proof = await payer.proof({ value: price('flights.summary') })
    const first = await (await rt.get('/v1/market-data/flights/summary?destination=tokyo', { 'x402-payment': proof })).json()
    const second = await rt.get('/v1/market-data/flights/summary?destination=TYO', { 'x402-payment': proof })
    expect(second.status).toBe(200)
    expect((await second.json()).meta.request_id).toBe(first.meta.request_id)
  })

  test('a used proof is refused for a different request of the same price', async () => {
    const proof = await payer.proof({ value: price('flights.summary') })
    expect((await rt.get(SUMMARY, { 'x402-payment': proof })).status).toBe(200)
    const res = await rt.get('/v1/market-data/flights/summary?destination=Osaka', { 'x402-payment': proof })
    expect(res.status).toBe(402)
    const body = await res.json()
    expect(body.error.code).toBe('payment_replayed')
    expect(body.accepts).toHaveLength(1)
  })

  test('concurrent retries with one proof run the work once and all get the same answer', async () => {
    const proof = await payer.proof({ value: price('flights.trend') })
    const path = '/v1/market-data/flights/trend?destination=Bangkok&limit=7'
    const answers = await Promise.all(Array.from({ length: 8 }, () => rt.get(path, { 'x402-payment': proof })))
    const bodies = await Promise.all(answers.map((r) => r.json()))
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200))
    expect(new Set(bodies.map((b) => b.meta.request_id)).size).toBe(1)
    expect(answers.filter((r) => r.headers.get('x-payment-replay') === null)).toHaveLength(1)
  })

  test('a failed request releases the proof: nothing was charged, so it can buy a request later', async () => {
    const proof = await payer.proof({ value: price('spend.summary') })
    // Fail inside the paid work: a datasets handler whose query breaks after payment.
    const snapshot = rt.market.snapshot()
    const broken = {
      ...snapshot,
      spend: { ...snapshot.spend, relation: 'no_such_relation', entry: { ...snapshot.spend.entry, version: 'broken' } },
    }
    const original = rt.market.snapshot
    rt.market.snapshot = () => broken
    const failed = await rt.get('/v1/market-data/spend/summary?country=France', { 'x402-payment': proof })
    rt.market.snapshot = original
    expect(failed.status).toBe(500)
    expect((await failed.json()).error.code).toBe('internal_error')
    const retry = await rt.get('/v1/market-data/spend/summary?country=France', { 'x402-payment': proof })
    expect(retry.status).toBe(200)
    expect(retry.headers.get('x-payment-replay')).toBeNull()
  })
})

describe('invalid proofs are refused with payment_invalid and the requirements', () => {
  async function refused(headers: Record<string, string>, path = SUMMARY) {
    const res = await rt.get(path, headers)
    expect(res.status).toBe(402)
    const body = await res.json()
    expect(body.error.code).toBe('payment_invalid')
    expect(body.accepts[0].payTo).toBe(DEV_PAY_TO)
    expect(res.headers.get('payment-required')).toBeTruthy()
    return body.error.details.reason as string
  }

  test('a proof made for a $0.03 route cannot buy a $0.10 route', async () => {
    expect(await refused({ 'x402-payment': await payer.proof({ value: price('flights.months') }) })).toBe('wrong_amount')
  })

  test('a proof for a $0.10 route cannot buy a $0.16 route', async () => {
    const proof = await payer.proof({ value: price('flights.summary') })
    expect(await refused({ 'x402-payment': proof }, '/v1/market-data/flights/aggregate?destinations=Tokyo')).toBe('wrong_amount')
  })

  test('overpaying is refused too: the amount must equal the price', async () => {
    expect(await refused({ 'x402-payment': await payer.proof({ value: price('flights.summary') + 1n }) })).toBe('wrong_amount')
  })

  test('a tampered signature is refused', async () => {
    const proof = editProof(await payer.proof({ value: price('flights.summary') }), (p) => {
      const sig: string = p.payload.signature
      p.payload.signature = `${sig.slice(0, 20)}${sig[20] === 'a' ? 'b' : 'a'}${sig.slice(21)}`
    })
    expect(await refused({ 'x402-payment': proof })).toBe('invalid_signature')
  })

  test('an authorization whose value was raised after signing is refused', async () => {
    const proof = editProof(await payer.proof({ value: price('flights.months') }), (p) => {
      p.payload.authorization.value = price('flights.summary').toString()
    })
    expect(await refused({ 'x402-payment': proof })).toBe('invalid_signature')
  })

  test('a payment to another address is refused', async () => {
    const proof = await payer.proof({ value: price('flights.summary'), payTo: '0x2222222222222222222222222222222222222222' })
    expect(await refused({ 'x402-payment': proof })).toBe('wrong_recipient')
  })

  test('a payment signed for another network is refused', async () => {
    expect(await refused({ 'x402-payment': await payer.proof({ value: price('flights.summary'), network: 'base' }) })).toBe('wrong_network')
  })

  test('a v2 proof that accepted another asset is refused', async () => {
    const proof = await payer.proof({
      value: price('flights.summary'),
      version: 2,
      accepted: { asset: '0x3333333333333333333333333333333333333333' },
    })
    expect(await refused({ 'x402-payment': proof })).toBe('wrong_asset')
  })

  test('an expired authorization is refused', async () => {
    const now = BigInt(Math.floor(Date.now() / 1000))
    expect(await refused({ 'x402-payment': await payer.proof({ value: price('flights.summary'), validBefore: now - 1n }) })).toBe('expired')
  })

  test('an authorization not valid yet is refused', async () => {
    const now = BigInt(Math.floor(Date.now() / 1000))
    expect(await refused({ 'x402-payment': await payer.proof({ value: price('flights.summary'), validAfter: now + 3600n }) })).toBe(
      'not_yet_valid',
    )
  })

  test('a scheme other than exact is refused', async () => {
    const proof = editProof(await payer.proof({ value: price('flights.summary') }), (p) => {
      p.scheme = 'upto'
    })
    expect(await refused({ 'x402-payment': proof })).toBe('unsupported_scheme')
  })

  for (const [name, header] of [
    ['garbage', 'not a proof at all'],
    ['base64 of non-JSON', Buffer.from('hello').toString('base64')],
    ['JSON of the wrong shape', Buffer.from(JSON.stringify({ x402Version: 1, scheme: 'exact' })).toString('base64')],
    ['an oversized header', 'A'.repeat(8000)],
  ] as const) {
    test(`a malformed header (${name}) is a 402, never a 500`, async () => {
      expect(await refused({ 'x402-payment': header })).toBe('malformed_proof')
    })
  }
})

describe('nothing is charged for a request that cannot be served', () => {
  test('invalid parameters are a free 400 even with a proof attached, and the proof stays unused', async () => {
    const proof = await payer.proof({ value: price('flights.summary') })
    const bad = await rt.get('/v1/market-data/flights/summary?destination=Tokyo&month=2026-13', { 'x402-payment': proof })
    expect(bad.status).toBe(400)
    expect((await rt.get(SUMMARY, { 'x402-payment': proof })).status).toBe(200)
  })

  test('an unknown destination is a free 404 even with a proof attached', async () => {
    const proof = await payer.proof({ value: price('flights.summary') })
    const res = await rt.get('/v1/market-data/flights/summary?destination=Atlantis', { 'x402-payment': proof })
    expect(res.status).toBe(404)
    expect((await res.json()).error.details.parameter).toBe('destination')
    expect((await rt.get(SUMMARY, { 'x402-payment': proof })).status).toBe(200)
  })

  test('a catalog route this build has no handler for answers 501 without asking for payment', async () => {
    // Every route is served by this release; a build without one handler stands in for a partial release.
    const { 'capabilities.destination_demand': _, ...handlers } = createHandlers({
      market: rt.market,
      signals: rt.signals,
      intelligence: rt.intelligence,
    })
    const app = createApp({
      gate: rt.gate,
      ledger: rt.ledger,
      handlers,
      publicBaseUrl: BASE,
      logger: rt.logger,
      readiness: async () => ({ ready: true, checks: {} }),
      offers: [DEV_OFFER],
    })
    const proof = await payer.proof({ value: price('capabilities.destination_demand') })
    const res = await app.handle(
      new Request(`${BASE}/v1/destination-demand/snapshot?destination=Tokyo`, { headers: { 'x402-payment': proof } }),
    )
    expect(res.status).toBe(501)
    expect((await res.json()).error.code).toBe('not_implemented')
  })
})

describe('edge cases found in review', () => {
  test('an authorization number beyond uint256 is a malformed proof (402), not a 500', async () => {
    const proof = editProof(await payer.proof({ value: price('flights.summary') }), (p) => {
      p.payload.authorization.validBefore = '9'.repeat(78)
    })
    const res = await rt.get(SUMMARY, { 'x402-payment': proof })
    expect(res.status).toBe(402)
    expect((await res.json()).error.details.reason).toBe('malformed_proof')
  })

  test('after its window closes, a proof still fetches the result it paid for, and buys nothing else', async () => {
    let now = Math.floor(Date.now() / 1000)
    const clock = await testRuntime()
    try {
      ;(clock.gate as unknown as { now: () => number }).now = () => now
      const proof = await payer.proof({ value: price('flights.summary'), validBefore: BigInt(now + 30) })
      const first = await clock.get(SUMMARY, { 'x402-payment': proof })
      expect(first.status).toBe(200)
      now += 3600 // the authorization has expired
      const retry = await clock.get(SUMMARY, { 'x402-payment': proof })
      expect(retry.status).toBe(200)
      expect(retry.headers.get('x-payment-replay')).toBe('stored-result')
      expect(await retry.json()).toEqual(await first.json())
      const other = await clock.get('/v1/market-data/flights/summary?destination=Osaka', { 'x402-payment': proof })
      expect(other.status).toBe(402)
    } finally {
      clock.close()
    }
  })

  test('an expired proof that never bought anything is refused as expired', async () => {
    const now = BigInt(Math.floor(Date.now() / 1000))
    const res = await rt.get(SUMMARY, { 'x402-payment': await payer.proof({ value: price('flights.summary'), validBefore: now - 10n }) })
    expect(res.status).toBe(402)
    expect((await res.json()).error.details.reason).toBe('expired')
  })

  test('a claim left in progress by a process that died is taken over once the payment window has passed', async () => {
    const claim = {
      key: 'k1',
      network: 'eip155:84532',
      payer: '0xabc',
      nonce: '0x01',
      routeId: 'flights.summary',
      fingerprint: 'f',
      amountAtomic: '100000',
      requestId: 'r1',
    }
    expect((await rt.ledger.claim(claim, 1000, 1000 - 61)).status).toBe('claimed')
    // Within the window the claim is still held by its (possibly live) owner.
    expect(await rt.ledger.claim({ ...claim, requestId: 'r2' }, 1030, 1030 - 61)).toMatchObject({ status: 'taken', state: 'in_progress' })
    // Past it, the next claim takes it over.
    expect((await rt.ledger.claim({ ...claim, requestId: 'r3' }, 1100, 1100 - 61)).status).toBe('claimed')
  })
})
