import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { DEV_PAY_TO } from '../../src/config/config'
import { startServer, type StartedServer } from '../../support/server'
import {
  decodeProofHeader,
  isLoopback,
  recordingFetch,
  v1Client,
  v1WalletClient,
  v2Client,
  type PayingFetch,
  type ProofHeaderName,
  type RecordingFetch,
} from '../../support/clients'

/**
 * Unmodified x402 clients — `x402-fetch` 1.2.0 (v1) and `@x402/fetch` 2.27.0 with `@x402/evm` (v2) —
 * pay the real service, started as its own process (development payment mode, offline verification,
 * base-sepolia, payTo DEV_PAY_TO). Every signer is a local viem account: nothing may leave loopback.
 */

interface PaidRoute {
  name: string
  path: string
  priceUsd: string
  atomic: string
  checkData(data: any): void
}

const ROUTES: PaidRoute[] = [
  {
    name: 'flight months',
    path: '/v1/market-data/flights/months',
    priceUsd: '0.03',
    atomic: '30000',
    checkData(data) {
      expect(data.months.length).toBeGreaterThan(0)
      expect(data.count).toBe(data.months.length)
      expect(data.latest).toBe(data.months.at(-1))
    },
  },
  {
    name: 'Tokyo flight summary',
    path: '/v1/market-data/flights/summary?destination=tokyo',
    priceUsd: '0.10',
    atomic: '100000',
    checkData(data) {
      expect(data.destination).toBe('Tokyo')
      expect(data.summary.estimated_passengers).toBeGreaterThan(0)
    },
  },
  {
    name: 'Tokyo + Osaka flight aggregate',
    path: '/v1/market-data/flights/aggregate?destinations=Tokyo,Osaka',
    priceUsd: '0.16',
    atomic: '160000',
    checkData(data) {
      expect([...data.destinations].sort()).toEqual(['Osaka', 'Tokyo'])
      expect(data.members).toHaveLength(2)
    },
  },
]
const SUMMARY = ROUTES[1]!

interface ClientKind {
  name: string
  version: 1 | 2
  /** The header the client itself sends its proof in. */
  header: ProofHeaderName
  make(fetchImpl: typeof fetch): PayingFetch
}

const CLIENTS: ClientKind[] = [
  { name: 'x402-fetch (x402 v1)', version: 1, header: 'x-payment', make: (f) => v1Client(privateKeyToAccount(generatePrivateKey()), f) },
  {
    name: '@x402/fetch (x402 v2)',
    version: 2,
    header: 'payment-signature',
    make: (f) => v2Client(privateKeyToAccount(generatePrivateKey()), f),
  },
]

let server: StartedServer
const realFetch = globalThis.fetch
/** Every non-loopback URL any code in this process tried to fetch while the tests ran. */
const egress: string[] = []

beforeAll(async () => {
  server = await startServer()
  // A library reaching for an RPC goes through global fetch (viem's http transport does): record and refuse it.
  const guard = async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input)
    if (!isLoopback(url)) {
      egress.push(url)
      throw new Error(`offline test: refused to fetch ${url}`)
    }
    return realFetch(input, init)
  }
  globalThis.fetch = Object.assign(guard, { preconnect: realFetch.preconnect }) as typeof fetch
})

afterAll(async () => {
  globalThis.fetch = realFetch
  await server?.stop()
})

async function paidBody(response: Response) {
  const text = await response.text()
  expect({ status: response.status, text }).toMatchObject({ status: 200 })
  return JSON.parse(text)
}

/** The paid answer every successful call must carry. */
function expectPaidAnswer(body: any, route: PaidRoute) {
  expect(body.success).toBe(true)
  expect(body.pricing).toEqual({ amount_usd: route.priceUsd, payment_status: 'paid' })
  expect(body.meta.request_id).toMatch(/^req_/)
  route.checkData(body.data)
}

/** Two requests per paid call: the bare one that got the 402, then the retry carrying exactly one proof under `header`. */
function expectOneProofAfter402(rec: RecordingFetch, route: PaidRoute, header: ProofHeaderName) {
  expect(rec.exchanges.map((e) => e.status)).toEqual([402, 200])
  const [first, second] = rec.exchanges
  expect(first!.proofs).toEqual({})
  expect(Object.keys(second!.proofs)).toEqual([header])
  expect(new URL(second!.url).pathname + new URL(second!.url).search).toBe(route.path)
}

/**
 * The receipt of a paid answer in development mode: as in every mode, under the header each version's
 * clients read, with the network as that version names it; the transaction is empty (nothing on chain).
 */
function expectLocalReceipt(response: Response, version: 1 | 2, payer: string) {
  const encoded = response.headers.get(version === 1 ? 'x-payment-response' : 'payment-response')
  expect(encoded).not.toBeNull()
  expect(JSON.parse(Buffer.from(encoded!, 'base64').toString('utf8'))).toEqual({
    success: true,
    transaction: '',
    network: version === 1 ? 'base-sepolia' : 'eip155:84532',
    payer,
  })
}

function expectProofOf(version: 1 | 2, route: PaidRoute, encoded: string) {
  const proof = decodeProofHeader(encoded)
  expect(proof.x402Version).toBe(version)
  if (version === 1) expect(proof.network).toBe('base-sepolia')
  else expect(proof.accepted).toMatchObject({ scheme: 'exact', network: 'eip155:84532', amount: route.atomic })
  expect(proof.payload.authorization.value).toBe(route.atomic)
  expect(proof.payload.authorization.to.toLowerCase()).toBe(DEV_PAY_TO.toLowerCase())
}

for (const client of CLIENTS) {
  describe(client.name, () => {
    for (const route of ROUTES) {
      test(`pays USD ${route.priceUsd} for the ${route.name} with its own ${client.header} header and receives the paid answer`, async () => {
        const rec = recordingFetch()
        const response = await client.make(rec.fetch)(`${server.url}${route.path}`)
        const payer = decodeProofHeader(rec.exchanges[1]!.proofs[client.header]!).payload.authorization.from
        expectLocalReceipt(response, client.version, payer)
        const body = await paidBody(response)
        expectPaidAnswer(body, route)
        expectOneProofAfter402(rec, route, client.header)
        expectProofOf(client.version, route, rec.exchanges[1]!.proofs[client.header]!)
      })

      test(`pays USD ${route.priceUsd} for the ${route.name} with its proof moved into the x402-payment header`, async () => {
        const rec = recordingFetch({ moveProofTo: 'x402-payment' })
        const body = await paidBody(await client.make(rec.fetch)(`${server.url}${route.path}`))
        expectPaidAnswer(body, route)
        expectOneProofAfter402(rec, route, 'x402-payment')
        expectProofOf(client.version, route, rec.exchanges[1]!.proofs['x402-payment']!)
      })
    }

    test('signs a new proof for a repeated call and gets a fresh answer, not a replay of the first', async () => {
      const rec = recordingFetch()
      const pay = client.make(rec.fetch)
      const first = await pay(`${server.url}${SUMMARY.path}`)
      const second = await pay(`${server.url}${SUMMARY.path}`)
      const [a, b] = [await paidBody(first), await paidBody(second)]
      expectPaidAnswer(a, SUMMARY)
      expectPaidAnswer(b, SUMMARY)
      expect(rec.exchanges.map((e) => e.status)).toEqual([402, 200, 402, 200])
      expect(first.headers.get('x-payment-replay')).toBeNull()
      expect(second.headers.get('x-payment-replay')).toBeNull()
      expect(b.meta.request_id).not.toBe(a.meta.request_id)
      expect(b.meta.artifact_path).not.toBe(a.meta.artifact_path)
      const nonces = [rec.exchanges[1]!, rec.exchanges[3]!].map(
        (e) => decodeProofHeader(e.proofs[client.header]!).payload.authorization.nonce,
      )
      expect(nonces[1]).not.toBe(nonces[0])
    })
  })
}

describe('x402-fetch (x402 v1) configured as its README shows', () => {
  test('refuses on its own, after only the 402, a USD 0.16 route above its default 0.10 limit', async () => {
    const rec = recordingFetch()
    const pay = v1Client(privateKeyToAccount(generatePrivateKey()), rec.fetch, 'library-default')
    await expect(pay(`${server.url}${ROUTES[2]!.path}`)).rejects.toThrow('Payment amount exceeds maximum allowed')
    expect(rec.exchanges.map((e) => e.status)).toEqual([402])
  })

  test('the 402 says why and how to raise the cap; raised as it says, the same client pays', async () => {
    const unpaid = await (await fetch(`${server.url}${ROUTES[2]!.path}`)).json()
    expect(unpaid.error.message).toContain('X-PAYMENT')
    expect(unpaid.error.message).toContain('maxValue (x402-fetch, atomic units: 1000000 = USD 1)')
    // A route at or under the cap is not told about it.
    const cheap = await (await fetch(`${server.url}${SUMMARY.path}`)).json()
    expect(Number(SUMMARY.priceUsd)).toBeLessThanOrEqual(0.1)
    expect(cheap.error.message).not.toContain('maxValue')
    const pay = v1Client(privateKeyToAccount(generatePrivateKey()), fetch, 1_000_000n)
    expectPaidAnswer(await paidBody(await pay(`${server.url}${ROUTES[2]!.path}`)), ROUTES[2]!)
  })

  test('pays with the wallet client of createSigner("base-sepolia", key) and never calls its RPC', async () => {
    const rec = recordingFetch()
    const pay = await v1WalletClient(generatePrivateKey(), rec.fetch)
    const body = await paidBody(await pay(`${server.url}${SUMMARY.path}`))
    expectPaidAnswer(body, SUMMARY)
    expectOneProofAfter402(rec, SUMMARY, 'x-payment')
    expect(egress).toEqual([])
  })
})

test('no client reached for anything beyond loopback while signing and paying', async () => {
  for (const client of CLIENTS) {
    const rec = recordingFetch()
    expectPaidAnswer(await paidBody(await client.make(rec.fetch)(`${server.url}${SUMMARY.path}`)), SUMMARY)
  }
  expect(egress).toEqual([])
})
