/**
 * Several networks end to end on real local chains: two anvil chains as Base (chain id 8453) and Polygon
 * (137), each with USDC (Circle's FiatTokenV2_2) at that network's address and EIP-712 name. The service
 * settles in `self` mode over each network's own RPC. A v2 client whose wallet can pay only on Polygon
 * pays there and the transfer lands on Polygon alone; an x402 v1 client pays on Base; a proof is never
 * good for the other network.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { decodePaymentResponseHeader } from '@x402/core/http'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createChainReader } from '../../src/payments/chain/chain-reader'
import { Reconciler } from '../../src/payments/reconciler'
import { SqliteLedger } from '../../src/ledger/sqlite'
import { NETWORKS } from '../../src/payments/networks'
import { anvilAccount, startChain, type Chain } from '../../support/chain'
import { editProof } from '../../support/payer'
import { startServer, type StartedServer } from '../../support/server'
import { recordingFetch, v1Client, v2Client } from '../../support/clients'
import { keyOf } from '../../support/facilitator'
import { ONE_USDC, submittedTransfer } from '../../support/chain-and-facilitator'
import { artifactOf, claimOf } from '../../support/ledger-fixtures'

const SLOW = 90_000
const PRICE = 100_000n // flights.summary
const SUMMARY = '/v1/market-data/flights/summary?destination=Tokyo'
const PAY_TO = '0x4444444444444444444444444444444444444444'
let base: Chain
let polygon: Chain
let server: StartedServer

beforeAll(async () => {
  ;[base, polygon] = await Promise.all([startChain({ network: 'base' }), startChain({ network: 'polygon' })])
  server = await startServer({
    PAYMENT_MODE: 'self',
    PAYMENT_NETWORKS: 'base,polygon',
    X402_RPC_URL_BASE: base.rpcUrl,
    X402_RPC_URL_POLYGON: polygon.rpcUrl,
    X402_SETTLER_PRIVATE_KEY: keyOf(anvilAccount(2)),
    PAY_TO,
    RECONCILE_SECONDS: '0',
  })
}, SLOW)

afterAll(async () => {
  await server?.stop()
  await Promise.all([base?.stop(), polygon?.stop()])
})

/** A fresh wallet holding one USDC on each of `chains`. */
async function buyer(...chains: Chain[]) {
  const account = privateKeyToAccount(generatePrivateKey())
  for (const chain of chains) await chain.fund(account.address, ONE_USDC)
  return account
}

test(
  'a v2 wallet that can pay only on Polygon pays there: the transfer is on Polygon, nothing moves on Base',
  async () => {
    const account = await buyer(polygon)
    const before = { base: await base.balanceOf(PAY_TO), polygon: await polygon.balanceOf(PAY_TO) }
    const recording = recordingFetch()
    const res = await v2Client(account, recording.fetch, [NETWORKS.polygon.caip2])(server.url + SUMMARY)
    expect(res.status).toBe(200)
    const receipt = decodePaymentResponseHeader(res.headers.get('payment-response')!)
    expect(receipt.network).toBe('eip155:137')
    expect(await polygon.balanceOf(PAY_TO)).toBe(before.polygon + PRICE)
    expect(await polygon.balanceOf(account.address)).toBe(ONE_USDC - PRICE)
    expect(await base.balanceOf(PAY_TO)).toBe(before.base)
    // The transaction is Polygon's: its receipt is on that chain, not on Base's.
    const hash = receipt.transaction as `0x${string}`
    expect((await polygon.client.getTransactionReceipt({ hash })).status).toBe('success')
    expect(await base.client.getTransactionReceipt({ hash }).catch(() => null)).toBeNull()
  },
  SLOW,
)

test(
  'an x402 v1 client pays on Base, the first network its requirements list',
  async () => {
    const account = await buyer(base)
    const before = { base: await base.balanceOf(PAY_TO), polygon: await polygon.balanceOf(PAY_TO) }
    const res = await v1Client(account, recordingFetch().fetch, ONE_USDC)(server.url + SUMMARY)
    expect(res.status).toBe(200)
    expect(String(decodePaymentResponseHeader(res.headers.get('x-payment-response')!).network)).toBe('base')
    expect(await base.balanceOf(PAY_TO)).toBe(before.base + PRICE)
    expect(await polygon.balanceOf(PAY_TO)).toBe(before.polygon)
  },
  SLOW,
)

test(
  "a Polygon proof relabelled as Base's is refused before anything settles, and a used proof buys nothing more on either network",
  async () => {
    const account = await buyer(polygon, base)
    const recording = recordingFetch()
    expect((await v2Client(account, recording.fetch, [NETWORKS.polygon.caip2])(server.url + SUMMARY)).status).toBe(200)
    const paid = recording.exchanges.find((e) => e.status === 200)!.proofs['payment-signature']!
    const asBase = editProof(paid, (p) => {
      p.accepted.network = NETWORKS.base.caip2
      p.accepted.asset = NETWORKS.base.asset
      p.accepted.extra = NETWORKS.base.eip712
    })
    const before = { base: await base.balanceOf(account.address), polygon: await polygon.balanceOf(account.address) }
    const relabelled = await fetch(server.url + SUMMARY, { headers: { 'payment-signature': asBase } })
    expect(relabelled.status).toBe(402)
    expect((await relabelled.json()).error.details.reason).toBe('invalid_signature')
    // The same proof for another request: its authorization is spent.
    const reused = await fetch(`${server.url}/v1/market-data/flights/summary?destination=Osaka`, { headers: { 'payment-signature': paid } })
    expect(reused.status).toBe(402)
    expect(await base.balanceOf(account.address)).toBe(before.base)
    expect(await polygon.balanceOf(account.address)).toBe(before.polygon)
  },
  SLOW,
)

test(
  'the reconciler reads each pending payment on its own chain: one authorization, used on Polygon and not on Base',
  async () => {
    const account = await buyer(polygon)
    // Signed for Polygon and submitted there by someone else, as a facilitator whose answer was lost would have.
    const { authorization, status } = await submittedTransfer(polygon, account, PAY_TO, PRICE)
    expect(status).toBe('success')
    // The same payer and nonce recorded on both networks, both pending; Base's authorization has expired unused.
    const ledger = new SqliteLedger(':memory:')
    const pendingOn = async (network: string, validBefore: string) => {
      const key = `${network}:${authorization.nonce}`
      const claim = { ...claimOf(key), network, payer: account.address, nonce: authorization.nonce, validBefore }
      await ledger.claim(claim, 1000, 900)
      ledger.park(key, artifactOf(key), 1001)
      return key
    }
    const onPolygon = await pendingOn(NETWORKS.polygon.caip2, authorization.validBefore)
    const onBase = await pendingOn(NETWORKS.base.caip2, '1')
    const reconciler = new Reconciler(ledger, createChainReader({ base: base.rpcUrl, polygon: polygon.rpcUrl }))
    expect(await reconciler.run()).toMatchObject({ checked: 2, settled: 1, failed: 1, errors: 0 })
    expect((await ledger.lookup(onPolygon))?.state).toBe('served')
    expect((await ledger.lookup(onBase))?.state).toBe('failed')
    ledger.close()
  },
  SLOW,
)
