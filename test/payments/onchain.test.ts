import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { readFileSync, truncateSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { PrivateKeyAccount } from 'viem/accounts'
import { CATALOG } from '../../src/catalog'
import { exampleRequests } from '../../src/cli/smoke/smoke-requests'
import { DEV_PAY_TO } from '../../src/config/config'
import { implementedRouteIds } from '../../src/composition/handler-map'
import { usdToAtomic } from '../../src/core/usdc'
import type { Chain } from '../../support/chain'
import { decodeProofHeader, recordingFetch, v1Client, v2Client, type PayingFetch } from '../../support/clients'
import {
  buyForPrice,
  fundedAccount,
  moved,
  ONE_USDC,
  startChainAndFacilitator,
  whileNotMining,
  type ChainAndFacilitator,
} from '../../support/chain-and-facilitator'
import { startServer, type StartedServer } from '../../support/server'
import { datasetsCopy, tempDir } from '../../support/temp-dirs'

/**
 * Real money flow, end to end, with real parts only: anvil as Base Sepolia with Circle's FiatTokenV2_2 at
 * the USDC address, the facilitator process of scripts/facilitator.ts (@x402/core + @x402/evm), the
 * service in `facilitator` mode, and the unmodified `x402-fetch` and `@x402/fetch` clients. Every claim
 * about money is checked against on-chain balances.
 */

const ROOT = resolve(import.meta.dir, '../..')
/** Tests that wait out the 3 s settle timeout or spawn the CLI; the 50-buyer test on a loaded 2-core machine. */
const SLOW = 60_000
let onchain: ChainAndFacilitator
/** onchain's chain, which most tests read. */
let chain: Chain
let server: StartedServer
/** A second instance whose settle timeout (2 s) the pending tests wait out; its own ledger (one instance per file). */
let slow: StartedServer
/** The copy of the shipped datasets both instances serve (a test makes one of its files unreadable for a while). */
let datasets: string
/** The two instances' SQLite ledgers, read by the tests and the CLI. */
const ledgers = tempDir('onchain-')
const ledgerPath = join(ledgers, 'ledger.sqlite')
const slowLedgerPath = join(ledgers, 'slow-ledger.sqlite')

beforeAll(async () => {
  onchain = await startChainAndFacilitator()
  chain = onchain.chain
  datasets = datasetsCopy('onchain-datasets-')
  const env = { ...onchain.serviceEnv, DATASETS_DIR: datasets, DATASETS_RELOAD_SECONDS: '0' }
  // Generous settle timeout on the main instance: 50 concurrent settlements on a loaded 2-core machine
  // must not turn pending.
  ;[server, slow] = await Promise.all([
    startServer({ ...env, X402_FACILITATOR_TIMEOUT_SECONDS: '30', LEDGER_PATH: ledgerPath }),
    startServer({ ...env, X402_FACILITATOR_TIMEOUT_SECONDS: '2', LEDGER_PATH: slowLedgerPath }),
  ])
}, SLOW)

afterAll(async () => {
  await server?.stop()
  await slow?.stop()
  await onchain?.stop()
})

const CLIENTS = {
  'x402-fetch (v1)': (buyer: PrivateKeyAccount): PayingFetch => v1Client(buyer, recordingFetch().fetch, ONE_USDC),
  '@x402/fetch (v2)': (buyer: PrivateKeyAccount): PayingFetch => v2Client(buyer, recordingFetch().fetch),
}
type ClientName = keyof typeof CLIENTS

const ledger = () => new Database(ledgerPath, { readonly: true })
const receiptOf = (res: Response) => {
  const header = res.headers.get('x-payment-response')
  return header ? JSON.parse(Buffer.from(header, 'base64').toString()) : null
}

const live = implementedRouteIds()
const PAID_ROUTES = CATALOG.filter((r) => live.has(r.id))
  .map((r) => exampleRequests(r, 'http://x')[0]!)
  .filter((r) => r.method === 'GET')

describe('each paid route moves exactly its price from payer to payTo', () => {
  PAID_ROUTES.forEach((req, index) => {
    const clientName = Object.keys(CLIENTS)[index % 2] as ClientName
    test(`${req.route.id} (USD ${req.route.priceUsd}) with ${clientName}`, async () => {
      const url = server.url + req.url.slice('http://x'.length)
      const { buyer, res, text } = await buyForPrice(chain, url, usdToAtomic(req.route.priceUsd), CLIENTS[clientName])
      expect(JSON.parse(text).pricing).toEqual({ amount_usd: req.route.priceUsd, payment_status: 'paid' })
      // The receipt names the transaction that moved the money.
      const receipt = receiptOf(res)
      expect(receipt).toMatchObject({
        success: true,
        payer: buyer.address,
        network: clientName.includes('v1') ? 'base-sepolia' : 'eip155:84532',
      })
      expect(res.headers.get('payment-response')).toBe(res.headers.get('x-payment-response'))
      const tx = await chain.client.getTransactionReceipt({ hash: receipt.transaction })
      expect(tx.status).toBe('success')
    })
  })
})

describe('nothing moves for what is not served', () => {
  test('a handler that fails after verification (dataset file unreadable) answers a 5xx envelope and moves nothing', async () => {
    const file = join(datasets, 'flights.parquet')
    const original = readFileSync(file)
    const buyer = await fundedAccount(chain)
    truncateSync(file, 0) // the next uncached flights query fails inside the paid work
    const { result: res, delta } = await moved(chain, buyer.address, () =>
      v2Client(buyer, recordingFetch().fetch)(`${server.url}/v1/market-data/flights/top-routes?destination=Bangkok&limit=3`),
    ).finally(() => writeFileSync(file, original))
    expect(delta).toEqual({ payer: 0n, payTo: 0n })
    const body = await res.json()
    const db = ledger()
    const events = db.query(`SELECT event, detail FROM payment_events WHERE request_id = ? ORDER BY seq`).all(body.meta?.request_id ?? '')
    db.close()
    // One object, so a failure shows status, body and ledger together.
    expect({ status: res.status, body, events }).toMatchObject({
      status: 500,
      body: { success: false, error: { code: 'internal_error' }, meta: { request_id: expect.stringMatching(/^req_/) } },
      events: [
        { event: 'verified', detail: null },
        { event: 'failed', detail: expect.stringMatching(/^handler: .*flights\.parquet/) },
      ],
    })
  })

  test('an unknown name is refused before payment: a free 404, the client never signs', async () => {
    const buyer = await fundedAccount(chain)
    const rec = recordingFetch()
    const { result: res, delta } = await moved(chain, buyer.address, () =>
      v1Client(buyer, rec.fetch, ONE_USDC)(`${server.url}/v1/signals/brands/no-such-brand/snapshot`),
    )
    expect(res.status).toBe(404)
    expect(rec.exchanges.map((e) => e.status)).toEqual([404])
    expect(delta).toEqual({ payer: 0n, payTo: 0n })
  })

  test('a replayed proof moves nothing more: the same request gets its stored answer, another request a 402', async () => {
    const buyer = await fundedAccount(chain)
    const rec = recordingFetch()
    const url = `${server.url}/v1/market-data/spend/summary?country=Japan`
    const first = await v1Client(buyer, rec.fetch, ONE_USDC)(url)
    expect(first.status).toBe(200)
    const proof = rec.exchanges[1]!.proofs['x-payment']!
    expect(decodeProofHeader(proof).payload.authorization.from).toBe(buyer.address)
    const { delta } = await moved(chain, buyer.address, async () => {
      const again = await fetch(url, { headers: { 'X-PAYMENT': proof } })
      expect(again.status).toBe(200)
      expect(again.headers.get('x-payment-replay')).toBe('stored-result')
      expect(receiptOf(again).transaction).toBe(receiptOf(first).transaction)
      const other = await fetch(`${server.url}/v1/market-data/spend/summary?country=France`, { headers: { 'X-PAYMENT': proof } })
      expect(other.status).toBe(402)
      expect((await other.json()).error.code).toBe('payment_replayed')
    })
    expect(delta).toEqual({ payer: 0n, payTo: 0n })
  })

  test('a buyer without enough USDC is refused before the handler and nothing moves', async () => {
    const buyer = await fundedAccount(chain, 1000n) // USD 0.001 for a USD 0.10 route
    const rec = recordingFetch()
    const { result: res, delta } = await moved(chain, buyer.address, () =>
      v2Client(buyer, rec.fetch)(`${server.url}/v1/market-data/flights/summary?destination=Seoul`),
    )
    expect(res.status).toBe(402)
    const body = await res.json()
    expect(body.error.code).toBe('payment_invalid')
    // The facilitator's simulation of the transfer fails (it names the cause when Multicall3 is deployed).
    expect(body.error.details.reason).toMatch(/^invalid_exact_evm_(insufficient_balance|transaction_simulation_failed)$/)
    expect(delta).toEqual({ payer: 0n, payTo: 0n })
  })
})

test(
  '50 concurrent buyers all settle: no lost and no double transfers',
  async () => {
    const buyers = await Promise.all(Array.from({ length: 50 }, () => fundedAccount(chain)))
    const url = `${server.url}/v1/market-data/flights/summary?destination=Tokyo`
    const price = usdToAtomic('0.10')
    const before = await chain.balanceOf(DEV_PAY_TO)
    const responses = await Promise.all(
      buyers.map((b, i) => (i % 2 ? v1Client(b, recordingFetch().fetch, ONE_USDC) : v2Client(b, recordingFetch().fetch))(url)),
    )
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(200))
    expect(await chain.balanceOf(DEV_PAY_TO)).toBe(before + 50n * price)
    const balances = await Promise.all(buyers.map((b) => chain.balanceOf(b.address)))
    expect(balances).toEqual(Array(50).fill(ONE_USDC - price))
    const txs = new Set(responses.map((r) => receiptOf(r).transaction))
    expect(txs.size).toBe(50)
    const db = ledger()
    const settled = db
      .query(
        `SELECT COUNT(DISTINCT tx_hash) AS n FROM payments WHERE state = 'served' AND settlement = 'settled' AND tx_hash IN (${[...txs].map(() => '?').join(',')})`,
      )
      .get(...txs) as { n: number }
    db.close()
    expect(settled.n).toBe(50)
  },
  SLOW,
)

/**
 * A v2 purchase of flights.trend from the slow instance while mining is paused: its settlement times out
 * and it is answered 202, `meanwhile` runs before mining resumes. `retry` sends the same proof again.
 */
async function pendingPurchase(destination: string, meanwhile: () => Promise<void> = async () => {}) {
  const buyer = await fundedAccount(chain)
  const rec = recordingFetch()
  const url = `${slow.url}/v1/market-data/flights/trend?destination=${destination}&limit=4`
  await whileNotMining(chain, async () => {
    expect((await v2Client(buyer, rec.fetch)(url)).status).toBe(202)
    await meanwhile()
  })
  const proof = rec.exchanges.at(-1)!.proofs['payment-signature']!
  return { buyer, retry: () => fetch(url, { headers: { 'PAYMENT-SIGNATURE': proof } }) }
}

describe('settlement that times out is pending, then reconciled from the chain', () => {
  test(
    'pending: the answer is kept back, nothing moves until the transfer is mined, then the retry gets it, charged once',
    async () => {
      const buyer = await fundedAccount(chain)
      const rec = recordingFetch()
      const url = `${slow.url}/v1/market-data/flights/trend?destination=Seoul&limit=4`
      const price = usdToAtomic('0.10')
      const { delta } = await moved(chain, buyer.address, async () => {
        // The facilitator's transfer waits in the mempool past the 2 s settle timeout; mining again lands it.
        await whileNotMining(chain, async () => {
          const pending = await v1Client(buyer, rec.fetch, ONE_USDC)(url)
          expect(await chain.balanceOf(buyer.address)).toBe(ONE_USDC) // not moved yet
          expect(pending.status).toBe(202)
          expect(pending.headers.get('retry-after')).toBe('5')
          const body = await pending.json()
          expect(body.error.code).toBe('settlement_pending')
          expect(body.data).toBeUndefined()
        })
        await chain.mine()
        const proof = rec.exchanges.at(-1)!.proofs['x-payment']!
        const retry = await fetch(url, { headers: { 'X-PAYMENT': proof } })
        expect(retry.status).toBe(200)
        expect((await retry.json()).data.destination).toBe('Seoul')
        const tx = receiptOf(retry).transaction
        expect((await chain.client.getTransactionReceipt({ hash: tx })).status).toBe('success')
        const again = await fetch(url, { headers: { 'X-PAYMENT': proof } })
        expect(again.headers.get('x-payment-replay')).toBe('stored-result')
      })
      expect(delta).toEqual({ payer: -price, payTo: price })
      const proof = rec.exchanges.at(-1)!.proofs['x-payment']!
      const db = new Database(slowLedgerPath, { readonly: true })
      const key = db
        .query(`SELECT key FROM payments WHERE nonce = ?`)
        .get(decodeProofHeader(proof).payload.authorization.nonce.toLowerCase()) as { key: string }
      const events = db
        .query(`SELECT event FROM payment_events WHERE payment_key = ? ORDER BY seq`)
        .all(key.key)
        .map((e: any) => e.event)
      db.close()
      expect(events).toEqual(['verified', 'pending', 'reconciled'])
    },
    SLOW,
  )

  test(
    '`payments reconcile` settles a pending payment from the chain, and `payments report` lists it until then',
    async () => {
      const { buyer, retry } = await pendingPurchase('Osaka')
      const cli = async (...args: string[]) => {
        const proc = Bun.spawn([process.execPath, resolve(ROOT, 'src/index.ts'), 'payments', ...args], {
          cwd: ROOT,
          env: { ...process.env, LEDGER_PATH: slowLedgerPath, X402_RPC_URL: chain.rpcUrl, NODE_ENV: 'test' },
          stdout: 'pipe',
          stderr: 'pipe',
        })
        const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
        return { out, err, code }
      }
      const before = await cli('report', '--by', 'route')
      expect(before.code).toBe(0)
      expect(before.out).toContain('Unsettled (pending)')
      expect(before.out).toMatch(new RegExp(`flights\\.trend .*${buyer.address.toLowerCase()}`))
      await chain.mine()
      const reconciled = await cli('reconcile')
      expect(reconciled).toMatchObject({ code: 0 })
      expect(reconciled.out).toContain('1 settled')
      const after = await cli('report')
      expect(after.out).not.toMatch(new RegExp(buyer.address.toLowerCase()))
      // The kept-back answer is released: the retry gets it without a new payment.
      const released = await retry()
      expect(released.status).toBe(200)
      expect(released.headers.get('x-payment-replay')).toBe('stored-result')
      expect(await chain.balanceOf(buyer.address)).toBe(ONE_USDC - usdToAtomic('0.10'))
    },
    SLOW,
  )
})

test('/metrics counts settled payments and revenue by route', async () => {
  const text = await (await fetch(`${server.url}/metrics`)).text()
  expect(text).toMatch(/x402_payments_total\{route="flights.summary",settlement="settled"\} (\d+)/)
  const settled = Number(/x402_payments_total\{route="flights.summary",settlement="settled"\} (\d+)/.exec(text)![1])
  expect(settled).toBeGreaterThanOrEqual(51)
  expect(text).toMatch(/x402_revenue_usd_total\{route="flights.summary",settlement="settled"\} \d/)
  expect(text).not.toContain('outcome="pending"')
  const slowText = await (await fetch(`${slow.url}/metrics`)).text()
  expect(slowText).toContain('x402_settlements_total{mode="facilitator",outcome="pending"} 2')
  expect(slowText).toContain('x402_reconciled_total{outcome="settled"} 1')
})

describe('the facilitator down', () => {
  test(
    'a paid request gets a clean 502 envelope, nothing is served as paid and nothing moves',
    async () => {
      await onchain.facilitator.stop()
      try {
        const buyer = await fundedAccount(chain)
        const { result: res, delta } = await moved(chain, buyer.address, () =>
          v1Client(buyer, recordingFetch().fetch, ONE_USDC)(`${server.url}/v1/market-data/flights/summary?destination=Paris`),
        )
        expect(delta).toEqual({ payer: 0n, payTo: 0n })
        expect(res.status).toBe(502)
        const body = await res.json()
        expect(body).toMatchObject({
          success: false,
          error: { code: 'facilitator_unavailable' },
          meta: { request_id: res.headers.get('x-request-id') },
        })
        expect(body.data).toBeUndefined()
      } finally {
        await onchain.restartFacilitator()
      }
    },
    SLOW,
  )
})

test(
  'a settlement that never lands is failed once its authorization expired on chain, and moves nothing',
  async () => {
    const { buyer, retry } = await pendingPurchase('Tokyo', async () => {
      // The transfer is lost from the mempool, and the chain's clock passes the authorization's validBefore.
      await chain.client.request({ method: 'anvil_dropAllTransactions' as never })
      await chain.client.request({ method: 'evm_increaseTime' as never, params: [3600] as never })
    })
    await chain.mine()
    const refused = await retry()
    expect(refused.status).toBe(402)
    expect((await refused.json()).error).toMatchObject({
      code: 'settlement_failed',
      details: { reason: 'authorization_expired_unsettled' },
    })
    expect(await chain.balanceOf(buyer.address)).toBe(ONE_USDC)
  },
  SLOW,
)
