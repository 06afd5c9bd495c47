import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { routeById } from '../../src/catalog'
import { DEV_PAY_TO } from '../../src/config/config'
import { atomicToUsd, usdToAtomic } from '../../src/core/usdc'
import { startServer, type StartedServer } from '../../support/server'
import { anvilAccount, startChain, type Chain } from '../../support/chain'
import { decodeProofHeader, recordingFetch, v2Client } from '../../support/clients'
import { keyOf } from '../../support/facilitator'
import { fundedAccount, ONE_USDC, whileNotMining } from '../../support/chain-and-facilitator'
import { until, waitFor } from '../../support/until'

/**
 * SETTLE_MODE=deferred on a real local chain (anvil, Circle's USDC), `self` mode: answers are released on
 * verification and settled in the background. Mining is paused where a test needs the transfer to be
 * still to come when the answer arrives. The payer cap is five answers of the route paid, and a dearer route
 * is over DEFERRED_MAX_PRICE_USD (prices from the route catalog).
 */

const SLOW = 120_000
const MONTHS = '/v1/market-data/flights/months'
const PRICE = usdToAtomic(routeById.get('flights.months')!.priceUsd)
const CAP_ANSWERS = 5
const EXCLUDED = '/v1/signals/brands/rankings?category=beauty'
const EXCLUDED_PRICE = usdToAtomic(routeById.get('signals.brands.rankings')!.priceUsd)
const MAX_PRICE_USD = '0.20'
const ROOT = resolve(import.meta.dir, '../..')
let chain: Chain
let server: StartedServer
let dir: string

beforeAll(async () => {
  // The two routes fall on either side of the price limit.
  expect(PRICE).toBeLessThanOrEqual(usdToAtomic(MAX_PRICE_USD))
  expect(EXCLUDED_PRICE).toBeGreaterThan(usdToAtomic(MAX_PRICE_USD))
  chain = await startChain()
  dir = mkdtempSync(join(tmpdir(), 'deferred-'))
  server = await startServer({
    PAYMENT_MODE: 'self',
    SETTLE_MODE: 'deferred',
    DEFERRED_MAX_UNSETTLED_USD: atomicToUsd(BigInt(CAP_ANSWERS) * PRICE),
    DEFERRED_MAX_PRICE_USD: MAX_PRICE_USD,
    X402_RPC_URL: chain.rpcUrl,
    X402_SETTLER_PRIVATE_KEY: keyOf(anvilAccount(3)),
    RECONCILE_SECONDS: '0',
    RATE_LIMIT_PAYER_PER_MINUTE: '0',
    LEDGER_PATH: join(dir, 'ledger.sqlite'),
    LOG_LEVEL: 'info',
  })
}, SLOW)

afterAll(async () => {
  await server?.stop()
  await chain?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

const receiptOf = (res: Response) => JSON.parse(Buffer.from(res.headers.get('payment-response')!, 'base64').toString('utf8'))

/** `payments report --json` over the server's ledger file, as the seller reads it. */
async function report(): Promise<{ totals: Record<string, unknown>; unsettled: unknown[]; event_counts: Record<string, number> }> {
  const proc = Bun.spawn([process.execPath, join(ROOT, 'src/index.ts'), 'payments', 'report', '--json'], {
    cwd: ROOT,
    env: { ...process.env, LEDGER_PATH: join(dir, 'ledger.sqlite'), LOG_LEVEL: 'silent' },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const out = await new Response(proc.stdout).text()
  if ((await proc.exited) !== 0) throw new Error(`payments report failed: ${await new Response(proc.stderr).text()}`)
  return JSON.parse(out)
}

/** Mines until `payer`'s authorization `nonce` is used on chain (the background settlement's transfer). */
async function mineUntilUsed(payer: `0x${string}`, nonce: `0x${string}`): Promise<void> {
  await until('the deferred transfer on chain', async () => {
    await chain.mine()
    return (await chain.authorizationUsed(payer, nonce)) || undefined
  })
}

test(
  'the answer is released before its transfer: pending receipt while the authorization is unused on chain; then settled once, and a retry gets the stored answer with its transaction',
  async () => {
    const buyer = await fundedAccount(chain)
    const before = await chain.balanceOf(DEV_PAY_TO)
    const recording = recordingFetch()
    const proofHeader = await whileNotMining(chain, async () => {
      const res = await v2Client(buyer, recording.fetch)(server.url + MONTHS)
      expect(res.status).toBe(200)
      const receipt = receiptOf(res)
      expect(receipt).toMatchObject({ success: true, transaction: '', network: 'eip155:84532', payer: buyer.address })
      expect(receipt.extensions.settlement).toMatchObject({ status: 'pending', artifact: expect.stringMatching(/^\/v1\/artifacts\/art_/) })
      const proof = recording.exchanges.find((x) => x.proofs['payment-signature'])!.proofs['payment-signature']!
      const nonce = decodeProofHeader(proof).payload.authorization.nonce
      // Answered, and no block has included the transfer yet.
      expect(await chain.authorizationUsed(buyer.address, nonce)).toBe(false)
      expect(await chain.balanceOf(buyer.address)).toBe(ONE_USDC)
      await mineUntilUsed(buyer.address, nonce)
      return proof
    })
    // The same proof again: the stored answer, now with the transaction that settled it.
    const again = await until('the settled answer for the same proof', async () => {
      const r = await fetch(server.url + MONTHS, { headers: { 'payment-signature': proofHeader } })
      return r.status === 200 ? r : undefined
    })
    expect(again.headers.get('x-payment-replay')).toBe('stored-result')
    expect(receiptOf(again).transaction).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await chain.balanceOf(DEV_PAY_TO)).toBe(before + PRICE)
    expect(await chain.balanceOf(buyer.address)).toBe(ONE_USDC - PRICE)
  },
  SLOW,
)

test(
  'a route priced over DEFERRED_MAX_PRICE_USD is settled before its answer: the receipt carries its transaction',
  async () => {
    const buyer = await fundedAccount(chain)
    const res = await v2Client(buyer, recordingFetch().fetch)(server.url + EXCLUDED)
    expect(res.status).toBe(200)
    const receipt = receiptOf(res)
    expect(receipt.transaction).toMatch(/^0x[0-9a-f]{64}$/)
    expect(receipt.extensions).toBeUndefined()
    expect(await chain.balanceOf(buyer.address)).toBe(ONE_USDC - EXCLUDED_PRICE)
  },
  SLOW,
)

test(
  `a payer who cannot cover what it signed gets at most the cap (${CAP_ANSWERS} answers) before paying; its failed settlements end failed, and it is settled before its answers until one settles`,
  async () => {
    // Funds for two answers; eight proofs signed at once, all verified against the same balance.
    const buyer = await fundedAccount(chain, 2n * PRICE)
    const paidBefore = await chain.balanceOf(DEV_PAY_TO)
    const pay = v2Client(buyer, recordingFetch().fetch)
    const answers: Response[] = []
    const { burst, deferred } = await whileNotMining(chain, async () => {
      const sent = Array.from({ length: 8 }, () => pay(server.url + MONTHS).then((r) => (answers.push(r), r)))
      // The deferred answers come back with mining paused; the others wait for their own settlement.
      await waitFor(`${CAP_ANSWERS} deferred answers`, () => answers.length >= CAP_ANSWERS)
      return { burst: sent, deferred: answers.filter((r) => r.status === 200 && receiptOf(r).extensions?.settlement.status === 'pending') }
    })
    expect(deferred).toHaveLength(CAP_ANSWERS)
    await until('the mempool mined', async () => {
      await chain.mine()
      return (await chain.client.getBlock({ blockTag: 'pending' })).transactions.length === 0 || undefined
    })
    const all = await Promise.all(burst)
    // Exactly what the payer held moved, once; nothing else did.
    expect(await chain.balanceOf(buyer.address)).toBe(0n)
    expect(await chain.balanceOf(DEV_PAY_TO)).toBe(paidBefore + 2n * PRICE)
    // The answers beyond the cap waited for settlement: served only when theirs settled, else refused.
    const beyondCap = all.filter((r) => !deferred.includes(r))
    for (const r of beyondCap) {
      if (r.status === 200) expect(receiptOf(r).transaction).toMatch(/^0x[0-9a-f]{64}$/)
      else expect((await r.json()).error.code).toMatch(/^(settlement_failed|payment_invalid)$/)
    }
    // Answered without being paid: at most the cap.
    const settledAnswers = beyondCap.filter((r) => r.status === 200).length
    expect(all.filter((r) => r.status === 200).length - 2).toBeLessThanOrEqual(CAP_ANSWERS)
    expect(settledAnswers).toBeLessThanOrEqual(2)
    // Every deferred settlement reaches a final state, in the ledger and in `payments report`.
    // A settlement whose receipt was not seen in time is watched on chain until it lands or its authorization expires (~61 s).
    const final = await until(
      'no pending payment in payments report',
      async () => {
        const r = await report()
        return r.unsettled.length === 0 ? r : undefined
      },
      { ms: 90_000, every: 500 },
    )
    expect(final.event_counts.failed).toBeGreaterThanOrEqual(CAP_ANSWERS - 2)

    // Refused deferral: funded again, its next answer is settled first (a transaction in the receipt)...
    await chain.fund(buyer.address, 2n * PRICE)
    const first = await pay(server.url + MONTHS)
    expect(first.status).toBe(200)
    expect(receiptOf(first).transaction).toMatch(/^0x[0-9a-f]{64}$/)
    // ...which clears it: the next one is deferred again.
    const next = await pay(server.url + MONTHS)
    expect(next.status).toBe(200)
    expect(receiptOf(next).extensions?.settlement.status).toBe('pending')
    await until('the payer charged for both', async () => ((await chain.balanceOf(buyer.address)) === 0n ? true : undefined))
  },
  SLOW,
)

test(
  '/metrics shows the background settlements: queue length, age of its oldest, settlements per block',
  async () => {
    const text = await (await fetch(`${server.url}/metrics`)).text()
    expect(text).toMatch(/^x402_deferred_queue_length \d+/m)
    expect(text).toMatch(/^x402_deferred_queue_oldest_seconds [\d.]+/m)
    expect(text).toMatch(/^x402_deferred_settlements_per_block [\d.]+/m)
    expect(text).toMatch(/^x402_deferred_payers_refused \d+/m)
  },
  SLOW,
)
