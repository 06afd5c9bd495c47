/**
 * PAYMENT_NETWORKS: one 402 offers every network, in order, each with its own USDC and payee; a proof
 * is checked against the terms of the network it names, and only those. In process, development mode
 * (signatures checked offline); the same on real chains is test/payments/networks-onchain.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http'
import { CATALOG, routeById } from '../../src/catalog'
import { bazaarExtension, serviceMetadata } from '../../src/catalog/bazaar'
import { termsFor, v2PaymentRequired } from '../../src/payments/gate/requirements'
import { withSignInChallenge } from '../../src/payments/gate/sign-in'
import { decodeProof, MAX_PROOF_BYTES } from '../../src/payments/gate/proof'
import { DEV_PAY_TO } from '../../src/config/config'
import { NETWORKS } from '../../src/payments/networks'
import { usdToAtomic } from '../../src/core/usdc'
import { createPayer, editProof } from '../../support/payer'
import { anvilAccount } from '../../support/chain'
import { startServer } from '../../support/server'
import { startFacilitator, type StartedFacilitator } from '../../support/facilitator'
import { testRuntime } from '../../support/runtime'

const SLOW = 60_000
const AMOY_PAY_TO = '0x3333333333333333333333333333333333333333'
const SUMMARY = '/v1/market-data/flights/summary?destination=Tokyo'
const PRICE = usdToAtomic(routeById.get('flights.summary')!.priceUsd)
let rt: Awaited<ReturnType<typeof testRuntime>>

beforeAll(async () => {
  rt = await testRuntime({ PAYMENT_NETWORKS: 'base-sepolia,polygon-amoy,eip155:421614', PAY_TO_POLYGON_AMOY: AMOY_PAY_TO })
})
afterAll(() => rt.close())

describe('a 402 on three networks', () => {
  test('v2 offers each network in order with its USDC, EIP-712 domain and payee; v1 only those x402 v1 names', async () => {
    const res = await rt.get(SUMMARY)
    expect(res.status).toBe(402)
    const v2 = decodePaymentRequiredHeader(res.headers.get('payment-required')!)
    expect(v2.accepts.map((a) => [a.network, a.asset, a.payTo, (a.extra as { name: string }).name, a.amount])).toEqual([
      ['eip155:84532', NETWORKS['base-sepolia'].asset, DEV_PAY_TO, 'USDC', PRICE.toString()],
      ['eip155:80002', NETWORKS['polygon-amoy'].asset, AMOY_PAY_TO, 'USDC', PRICE.toString()],
      ['eip155:421614', NETWORKS['arbitrum-sepolia'].asset, DEV_PAY_TO, 'USD Coin', PRICE.toString()],
    ])
    const body = await res.json()
    expect(body.accepts.map((a: { network: string; payTo: string }) => [a.network, a.payTo])).toEqual([
      ['base-sepolia', DEV_PAY_TO],
      ['polygon-amoy', AMOY_PAY_TO],
    ])
  })

  test('the front door, /.well-known/x402, llms.txt, OpenAPI and the payment page list every network', async () => {
    const door = await (await rt.get('/', { accept: 'application/json' })).json()
    expect(
      door.data.payment.networks.map((n: { network: string; pay_to: string; x402_v1: boolean }) => [n.network, n.pay_to, n.x402_v1]),
    ).toEqual([
      ['eip155:84532', DEV_PAY_TO, true],
      ['eip155:80002', AMOY_PAY_TO, true],
      ['eip155:421614', DEV_PAY_TO, false],
    ])
    const known = await (await rt.get('/.well-known/x402')).json()
    expect(known.items[0].accepts.map((a: { network: string }) => a.network)).toEqual(['eip155:84532', 'eip155:80002', 'eip155:421614'])
    expect(known.payment.networks).toHaveLength(3)
    const llms = await (await rt.get('/llms.txt')).text()
    const openapi = (await (await rt.get('/openapi/json')).json()).info.description
    // A browser's 402: the payment page.
    const page = await (await rt.get(SUMMARY, { accept: 'text/html' })).text()
    for (const id of ['eip155:84532', 'eip155:80002', 'eip155:421614']) {
      expect(llms).toContain(id)
      expect(openapi).toContain(id)
      expect(page).toContain(id)
    }
    expect(page).toContain(AMOY_PAY_TO)
  })
})

describe('paying on one of them', () => {
  for (const [network, version, receiptNetwork] of [
    ['polygon-amoy', 2, 'eip155:80002'],
    ['polygon-amoy', 1, 'polygon-amoy'],
    ['arbitrum-sepolia', 2, 'eip155:421614'],
    ['base-sepolia', 1, 'base-sepolia'],
  ] as const) {
    test(`a v${version} proof on ${network} buys the answer; the receipt names that network`, async () => {
      const payTo = network === 'polygon-amoy' ? AMOY_PAY_TO : DEV_PAY_TO
      const proof = await createPayer().proof({ value: PRICE, version, network, payTo })
      const res = await rt.get(SUMMARY, { 'x402-payment': proof })
      expect(res.status).toBe(200)
      expect(String(decodePaymentResponseHeader(res.headers.get('payment-response')!).network)).toBe(receiptNetwork)
    })
  }

  test("a proof paying another network's payee is refused: each network has its own terms", async () => {
    const proof = await createPayer().proof({ value: PRICE, version: 2, network: 'polygon-amoy', payTo: DEV_PAY_TO })
    const res = await rt.get(SUMMARY, { 'x402-payment': proof })
    expect(res.status).toBe(402)
    expect((await res.json()).error.details.reason).toBe('wrong_recipient')
  })

  test('a network not offered is refused with the list of those that are', async () => {
    const res = await rt.get(SUMMARY, { 'x402-payment': await createPayer().proof({ value: PRICE, version: 2, network: 'base' }) })
    expect(res.status).toBe(402)
    const { error } = await res.json()
    expect(error.details.reason).toBe('wrong_network')
    expect(error.message).toContain('base-sepolia (eip155:84532), polygon-amoy (eip155:80002), arbitrum-sepolia (eip155:421614)')
  })

  test('a proof signed for one network and relabelled as another fails its signature: no proof buys with the wrong terms', async () => {
    const signed = await createPayer().proof({ value: PRICE, version: 2, network: 'arbitrum-sepolia' })
    const relabelled = editProof(signed, (p) => {
      p.accepted.network = NETWORKS['base-sepolia'].caip2
      p.accepted.asset = NETWORKS['base-sepolia'].asset
      p.accepted.extra = NETWORKS['base-sepolia'].eip712
    })
    const res = await rt.get(SUMMARY, { 'x402-payment': relabelled })
    expect(res.status).toBe(402)
    expect((await res.json()).error.details.reason).toBe('invalid_signature')
    // The original still pays on its own network.
    expect((await rt.get(SUMMARY, { 'x402-payment': signed })).status).toBe(200)
  })
})

describe('a facilitator that settles some of the networks', () => {
  let facilitator: StartedFacilitator
  beforeAll(async () => {
    // Base Sepolia only (its /supported needs no chain to answer).
    facilitator = await startFacilitator({ rpcUrl: 'http://127.0.0.1:9', settler: anvilAccount(3) })
  }, SLOW)
  afterAll(async () => facilitator?.stop())
  const env = () => ({
    PAYMENT_MODE: 'facilitator',
    X402_FACILITATOR_URL: facilitator.url,
    PAYMENT_NETWORKS: 'base-sepolia,polygon-amoy',
    PAY_TO: '0x5555555555555555555555555555555555555555',
  })

  test(
    'the networks its /supported does not list are dropped with a warning; the 402 offers the others',
    async () => {
      const server = await startServer({ ...env(), LOG_LEVEL: 'info' })
      try {
        const res = await fetch(server.url + SUMMARY)
        expect(decodePaymentRequiredHeader(res.headers.get('payment-required')!).accepts.map((a) => a.network)).toEqual(['eip155:84532'])
        expect(server.output()).toContain('facilitator does not settle these networks: they are not offered')
        expect(server.output()).toContain('polygon-amoy (eip155:80002)')
      } finally {
        await server.stop()
      }
    },
    SLOW,
  )

  test(
    'in production the service refuses to start, naming them',
    async () => {
      const started = startServer({ ...env(), NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://api.example.test' })
      const error = (await started.then(
        async (server) => (await server.stop(), null),
        (e: Error) => e,
      )) as Error
      expect(error?.message).toContain('PAYMENT_NETWORKS: the facilitator at')
      expect(error?.message).toContain('does not settle x402 v2 exact payments on polygon-amoy (eip155:80002)')
    },
    SLOW,
  )
})

describe('proofs as their x402 version names networks', () => {
  test('a v1 proof names its network by v1 name only: labelled with a CAIP-2 id it is refused before any facilitator', async () => {
    const v1 = await createPayer().proof({ value: PRICE, version: 1, network: 'polygon-amoy', payTo: AMOY_PAY_TO })
    const res = await rt.get(SUMMARY, { 'x402-payment': editProof(v1, (p) => (p.network = 'eip155:80002')) })
    expect(res.status).toBe(402)
    expect((await res.json()).error.details.reason).toBe('wrong_network')
  })

  test('the largest proof a v2 client sends (every extension of the largest HTTP 402 echoed, a 1 KB smart-wallet signature) is within the size limit', async () => {
    const largest = CATALOG.reduce((a, b) =>
      JSON.stringify(bazaarExtension(b)).length > JSON.stringify(bazaarExtension(a)).length ? b : a,
    )
    // What @x402/core's client echoes: the 402's resource and all its extensions (bazaar, payment-identifier,
    // the sign-in challenge listing every network), as a public host on all six networks sends them.
    const url = `https://api.example.com${largest.path}`
    const terms = Object.values(NETWORKS).map((network) => termsFor(largest, { network, payTo: DEV_PAY_TO as `0x${string}` }))
    const fresh = { nonce: 'f'.repeat(32), issuedAt: new Date().toISOString(), expirationTime: new Date().toISOString() }
    const required = withSignInChallenge(v2PaymentRequired(largest, terms, url, '', serviceMetadata('https://api.example.com')), fresh)!
    const v2 = await createPayer().proof({ value: PRICE, version: 2, network: 'base-sepolia' })
    const header = editProof(v2, (p) => {
      p.extensions = required.extensions
      p.resource = required.resource
      p.extensions['payment-identifier'].info.id = `pay_${'0'.repeat(124)}`
      p.payload.signature = `0x${'ab'.repeat(1024)}`
    })
    expect(header.length).toBeGreaterThan(4096)
    expect(header.length).toBeLessThan(MAX_PROOF_BYTES)
    expect(decodeProof(header).signature).toHaveLength(2 + 2048)
  })
})
