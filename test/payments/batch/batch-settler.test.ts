import { afterAll, beforeAll, expect, test } from 'bun:test'
import { x402Client } from '@x402/core/client'
import type { PaymentPayload } from '@x402/core/types'
import { toClientEvmSigner } from '@x402/evm'
import { BatchSettlementEvmScheme as BatchClientScheme } from '@x402/evm/batch-settlement/client'
import { BatchSettlementEvmScheme as BatchServerScheme } from '@x402/evm/batch-settlement/server'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { routeById } from '../../../src/catalog'
import { ApiError } from '../../../src/core'
import { SqliteLedger } from '../../../src/ledger/sqlite'
import { BatchRouting, createBatchServer } from '../../../src/payments/batch/batch-settler'
import { batchAccept } from '../../../src/payments/batch/batch-terms'
import { Redeemer } from '../../../src/payments/batch/redeemer'
import { createEscrowReader } from '../../../src/payments/chain/escrow-reader'
import { FacilitatorSettler } from '../../../src/payments/facilitator/facilitator-settler'
import { PaymentGate, type PaidRequest } from '../../../src/payments/gate/gate'
import { termsFor, v2PaymentRequired } from '../../../src/payments/gate/requirements'
import type { PaymentOffer } from '../../../src/payments/networks'
import { batchFacilitator, installBatchSettlement } from '../../../support/batch-chain'
import { startChain, type Chain } from '../../../support/chain'
import { DEV_OFFER } from '../../../support/offers'

/**
 * The gate with batch-settlement, in process: the package's resource server over a SQLite ledger's
 * channels, an in-process facilitator on anvil with our escrow. What a failed handler leaves, and that
 * the 402's batch entry is what the package's own server scheme would announce.
 */

const SLOW = 60_000
const NETWORK = 'eip155:84532'
const ROUTE = routeById.get('flights.months')!
const AUTHORIZER_KEY = generatePrivateKey()
const AUTHORIZER = privateKeyToAccount(AUTHORIZER_KEY)
const OFFER: PaymentOffer = {
  ...DEV_OFFER,
  batch: { receiverAuthorizer: AUTHORIZER.address, withdrawDelaySeconds: 900, minDepositAtomic: 300_000n },
}
let chain: Chain
let ledger: SqliteLedger
let gate: PaymentGate
let client: Awaited<ReturnType<typeof batchFacilitator>>['client']
let schemes: ReturnType<typeof createBatchServer>['schemes']

beforeAll(async () => {
  chain = await startChain()
  await installBatchSettlement(chain)
  ;({ client } = await batchFacilitator(chain))
  ledger = new SqliteLedger(':memory:')
  const storage = (network: string) => ledger.channelStorage(network)
  const created = createBatchServer({ offers: [OFFER], authorizerKey: AUTHORIZER_KEY, storage, facilitator: client })
  schemes = created.schemes
  const server = created.server
  const settler = new BatchRouting(new FacilitatorSettler('self', client), server, schemes)
  gate = new PaymentGate({ offers: [OFFER], artifactTtlSeconds: 3600, ledger, settler })
}, SLOW)

afterAll(async () => {
  ledger?.close()
  await chain?.stop()
})

const RESOURCE = 'http://localhost/v1/market-data/flights/months'
const terms = termsFor(ROUTE, OFFER)

function request(payment: PaymentPayload, fingerprint = 'flights.months|'): PaidRequest {
  return { route: ROUTE, payment, resourceUrl: RESOURCE, requestId: `req_${crypto.randomUUID()}`, fingerprint }
}

async function newBuyer() {
  const account = privateKeyToAccount(generatePrivateKey())
  await chain.fund(account.address, 1_000_000n)
  const client = new x402Client().register(NETWORK, new BatchClientScheme(toClientEvmSigner(account, chain.client)))
  return {
    account,
    /** A payment payload for the route, as the client makes it from our 402 (the same object goes through the gate). */
    payload: () => client.createPaymentPayload(v2PaymentRequired(ROUTE, [terms], RESOURCE, '')),
    /** The client learns the charge from the receipt, as @x402/fetch would tell it. */
    settled: (payload: PaymentPayload, receipt: unknown) =>
      client.handlePaymentResponse({ paymentPayload: payload, requirements: payload.accepted, settleResponse: receipt as never }),
  }
}

const answer = async () => JSON.stringify({ success: true, data: { months: [] } })

test(
  "the 402's batch entry is what the package's own server scheme announces for these terms",
  async () => {
    const scheme = new BatchServerScheme(OFFER.payTo, { receiverAuthorizerSigner: AUTHORIZER, withdrawDelay: 900 })
    const ours = batchAccept(terms, OFFER.batch!)
    const base = { ...ours, extra: { name: 'USDC', version: '2', assetTransferMethod: 'eip3009', minDeposit: '300000' } }
    const theirs = await scheme.enhancePaymentRequirements(base, { x402Version: 2, scheme: 'batch-settlement', network: NETWORK }, [])
    expect(ours).toEqual(theirs)
  },
  SLOW,
)

test(
  'a handler that fails charges nothing and frees the channel at once: the same voucher then buys the request',
  async () => {
    const buyer = await newBuyer()
    const deposit = await buyer.payload()
    const opened = await gate.fulfil(gate.authorize(request(deposit)) as never, answer)
    await buyer.settled(deposit, opened.receipt)
    const channelId = (deposit.payload as { voucher: { channelId: string } }).voucher.channelId
    const storage = ledger.channelStorage(NETWORK)
    expect((await storage.get(channelId))?.chargedCumulativeAmount).toBe('30000')

    const voucher = await buyer.payload()
    const failing = gate.fulfil(gate.authorize(request(voucher)) as never, async () => {
      throw new ApiError('dataset_unavailable', 'the dataset is not loaded')
    })
    expect(failing).rejects.toMatchObject({ code: 'dataset_unavailable' })
    await failing.catch(() => {})
    const after = await storage.get(channelId)
    expect(after?.chargedCumulativeAmount).toBe('30000')
    expect(after?.pendingRequest).toBeUndefined()

    // The same voucher, sent again (a new request object from the same header): served and charged once.
    const again = JSON.parse(JSON.stringify(voucher)) as PaymentPayload
    const served = await gate.fulfil(gate.authorize(request(again)) as never, answer)
    expect(served.receipt?.extra).toMatchObject({ chargedAmount: '30000', channelState: { chargedCumulativeAmount: '60000' } })
    expect((await storage.get(channelId))?.chargedCumulativeAmount).toBe('60000')
  },
  SLOW,
)

test(
  "the redeemer refunds an idle channel's unclaimed rest, its charges claimed and settled first",
  async () => {
    const buyer = await newBuyer()
    for (let call = 0; call < 2; call++) {
      const payload = await buyer.payload()
      const served = await gate.fulfil(gate.authorize(request(payload)) as never, answer)
      await buyer.settled(payload, served.receipt)
    }
    const escrow = createEscrowReader({ 'base-sepolia': chain.rpcUrl })
    const before = await chain.balanceOf(buyer.account.address)
    const sellerBefore = await chain.balanceOf(OFFER.payTo)
    // Idle for a microsecond counts: every channel of this ledger is idle by the time the pass looks.
    const redeemer = new Redeemer({ offers: [OFFER], schemes, facilitator: client, ledger, escrow, refundIdleSeconds: 0.000001 })
    const summary = await redeemer.run()
    expect(summary.errors).toEqual([])
    expect(summary.refunds).toBeGreaterThanOrEqual(1)
    expect(await chain.balanceOf(buyer.account.address)).toBe(before + 300_000n - 60_000n)
    expect(await chain.balanceOf(OFFER.payTo)).toBeGreaterThanOrEqual(sellerBefore + 60_000n)
    expect((await ledger.redemptionTotals(0)).find((total) => total.kind === 'refund')).toMatchObject({ count: summary.refunds })
  },
  SLOW,
)
