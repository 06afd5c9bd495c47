import { afterAll, beforeAll, expect, test } from 'bun:test'
import { x402Client } from '@x402/core/client'
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http'
import type { PaymentRequirements } from '@x402/core/types'
import { toClientEvmSigner } from '@x402/evm'
import { BatchSettlementEvmScheme as BatchClientScheme, computeChannelId, signVoucher } from '@x402/evm/batch-settlement/client'
import { wrapFetchWithPayment } from '@x402/fetch'
import { generatePrivateKey, privateKeyToAccount, privateKeyToAddress, type PrivateKeyAccount } from 'viem/accounts'
import { DEV_PAY_TO } from '../../../src/config/config'
import { BATCH_ESCROW, BATCH_ESCROW_ABI, installBatchSettlement } from '../../../support/batch-chain'
import { anvilAccount, startChain, type Chain } from '../../../support/chain'
import { createTestClient, createWalletClient, http } from 'viem'
import { baseSepolia } from 'viem/chains'
import { runCli } from '../../../support/cli-run'
import { keyOf } from '../../../support/facilitator'
import { startServer, type StartedServer } from '../../../support/server'
import { tempDir } from '../../../support/temp-dirs'
import { SqliteLedger } from '../../../src/ledger/sqlite'

/**
 * x402 batch-settlement through our gate, end to end: a buyer with `@x402/evm`'s batch client and
 * `@x402/fetch` deposits once into the escrow (our own, support/batch-chain.ts) and pays each further
 * request with a voucher, which the service charges to the channel in its ledger without a transaction.
 */

const SLOW = 90_000
const NETWORK = 'eip155:84532'
const MONTHS = '/v1/market-data/flights/months'
const PRICE = 30_000n // flights.months: USD 0.03
const DEPOSIT = 500_000n // BATCH_MIN_DEPOSIT_USD below
const AUTHORIZER_KEY = generatePrivateKey()
let chain: Chain
let server: StartedServer
let env: Record<string, string>

beforeAll(async () => {
  chain = await startChain()
  await installBatchSettlement(chain)
  env = {
    PAYMENT_MODE: 'self',
    X402_RPC_URL: chain.rpcUrl,
    X402_SETTLER_PRIVATE_KEY: keyOf(anvilAccount(2)),
    RECONCILE_SECONDS: '0',
    RATE_LIMIT_PAYER_PER_MINUTE: '0',
    LEDGER_PATH: `${tempDir('batch-gate')}/ledger.sqlite`,
    BATCH_NETWORKS: 'base-sepolia',
    BATCH_RECEIVER_AUTHORIZER_KEY: AUTHORIZER_KEY,
    BATCH_WITHDRAW_DELAY_SECONDS: '900',
    // The service's own passes stay out of the way: `payments claim` runs them here.
    BATCH_CLAIM_SECONDS: '225',
    BATCH_REFUND_IDLE_HOURS: '0',
    BATCH_MIN_DEPOSIT_USD: '0.5',
  }
  server = await startServer(env)
}, SLOW)

afterAll(async () => {
  await server?.stop()
  await chain?.stop()
})

interface Buyer {
  account: PrivateKeyAccount
  scheme: BatchClientScheme
  pay: typeof fetch
  /** Every PAYMENT-RESPONSE the buyer got, decoded, and every payment header it sent. */
  receipts: Record<string, unknown>[]
  sent: string[]
}

async function newBuyer(): Promise<Buyer> {
  const account = privateKeyToAccount(generatePrivateKey())
  await chain.fund(account.address, 1_000_000n)
  const scheme = new BatchClientScheme(toClientEvmSigner(account, chain.client))
  const receipts: Record<string, unknown>[] = []
  const sent: string[] = []
  const recording: typeof fetch = Object.assign(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init)
    const proof = request.headers.get('payment-signature')
    if (proof) sent.push(proof)
    const response = await fetch(request)
    const receipt = response.headers.get('payment-response')
    if (receipt) receipts.push(decodePaymentResponseHeader(receipt) as unknown as Record<string, unknown>)
    return response
  }, fetch)
  const pay = wrapFetchWithPayment(recording, new x402Client().register(NETWORK, scheme)) as typeof fetch
  return { account, scheme, pay, receipts, sent }
}

const blockNumber = () => chain.client.getBlockNumber({ cacheTime: 0 })
const charged = (receipt: Record<string, unknown>) =>
  (receipt.extra as { channelState: { chargedCumulativeAmount: string } }).channelState.chargedCumulativeAmount
/** The batch entry of our 402 as the client reads it, for the channel config a buyer builds from it. */
const ACCEPT = (): PaymentRequirements => ({
  scheme: 'batch-settlement',
  network: NETWORK,
  amount: PRICE.toString(),
  asset: chain.usdc,
  payTo: DEV_PAY_TO,
  maxTimeoutSeconds: 60,
  extra: { receiverAuthorizer: privateKeyToAddress(AUTHORIZER_KEY), withdrawDelay: 900 },
})
const channelOf = (buyer: Buyer) => computeChannelId(buyer.scheme.buildChannelConfig(ACCEPT()), NETWORK)
const escrowChannel = async (buyer: Buyer) =>
  (await chain.client.readContract({
    address: BATCH_ESCROW,
    abi: BATCH_ESCROW_ABI,
    functionName: 'channels',
    args: [channelOf(buyer)],
  })) as readonly [bigint, bigint]
/** The ledger file the service writes, read as another process would. */
async function ledgerChannels() {
  const ledger = new SqliteLedger(env.LEDGER_PATH!)
  try {
    return { summary: await ledger.channelSummary(), actions: await ledger.redemptionTotals(0) }
  } finally {
    ledger.close()
  }
}
/** A payment header of `buyer` re-signed with another ceiling (what a buyer's own key can always do). */
async function resigned(buyer: Buyer, header: string, maxClaimable: bigint): Promise<string> {
  const payload = JSON.parse(Buffer.from(header, 'base64').toString()) as { payload: Record<string, unknown> }
  const voucher = await signVoucher(toClientEvmSigner(buyer.account, chain.client), channelOf(buyer), maxClaimable.toString(), NETWORK)
  const forged = { ...payload, payload: { type: 'voucher', channelConfig: payload.payload.channelConfig, voucher } }
  return Buffer.from(JSON.stringify(forged)).toString('base64')
}

const SPEND_COUNTRIES = '/v1/market-data/spend/countries' // the same price as MONTHS
let main: Buyer

test(
  'the 402 offers batch-settlement after exact on the network, at the same price, with the channel terms',
  async () => {
    const unpaid = await fetch(server.url + MONTHS)
    expect(unpaid.status).toBe(402)
    // The receiver-authorizer key is a secret like the settler key: only its address goes out, never the key.
    expect(server.output()).toContain(
      `batch:   x402 batch-settlement on base-sepolia: receiver-authorizer ${privateKeyToAddress(AUTHORIZER_KEY)}, withdraw delay 900 s, claimed every 225 s`,
    )
    expect(server.output()).not.toContain(AUTHORIZER_KEY.slice(2))
    const required = decodePaymentRequiredHeader(unpaid.headers.get('payment-required')!)
    expect(required.accepts.map((accept) => accept.scheme)).toEqual(['exact', 'batch-settlement'])
    expect(required.accepts[1]).toMatchObject({
      network: NETWORK,
      amount: PRICE.toString(),
      payTo: DEV_PAY_TO,
      extra: {
        receiverAuthorizer: privateKeyToAddress(AUTHORIZER_KEY),
        withdrawDelay: 900,
        minDeposit: DEPOSIT.toString(),
        assetTransferMethod: 'eip3009',
        name: 'USDC',
        version: '2',
      },
    })
  },
  SLOW,
)

test(
  'discovery says where batch-settlement is offered and how to use it',
  async () => {
    const document = await (await fetch(`${server.url}/.well-known/x402`)).json()
    expect(document.payment.networks).toEqual([
      expect.objectContaining({
        network: NETWORK,
        schemes: ['exact', 'batch-settlement'],
        batchSettlement: { receiverAuthorizer: privateKeyToAddress(AUTHORIZER_KEY), withdrawDelaySeconds: 900, minDepositAtomic: '500000' },
      }),
    ])
    expect(document.items[0].accepts.map((accept: { scheme: string }) => accept.scheme)).toEqual(['exact', 'batch-settlement'])
    expect(await (await fetch(`${server.url}/llms.txt`)).text()).toContain('On base-sepolia the 402 also offers x402 `batch-settlement`')
    // x402 v1 has no batch-settlement: its body offers exact alone.
    const v1 = (await (await fetch(server.url + MONTHS)).json()).accepts
    expect(v1.map((accept: { scheme: string }) => accept.scheme)).toEqual(['exact'])
  },
  SLOW,
)

test(
  'one deposit, then vouchers: twelve paid answers, one transaction, a running total in every receipt, the channel in the ledger',
  async () => {
    main = await newBuyer()
    const first = await main.pay(server.url + MONTHS)
    expect(first.status).toBe(200)
    expect(await chain.balanceOf(main.account.address)).toBe(1_000_000n - DEPOSIT)
    const afterDeposit = await blockNumber()
    for (let call = 2; call <= 12; call++) {
      const response = await main.pay(server.url + MONTHS)
      expect(response.status).toBe(200)
      expect((await response.json()).success).toBe(true)
    }
    expect(await blockNumber()).toBe(afterDeposit)
    expect(main.receipts.map(charged)).toEqual(Array.from({ length: 12 }, (_, index) => String(PRICE * BigInt(index + 1))))
    expect(await escrowChannel(main)).toEqual([DEPOSIT, 0n])
    const { summary, actions } = await ledgerChannels()
    expect(summary).toEqual([
      {
        network: NETWORK,
        channels: 1,
        unclaimedChannels: 1,
        balance: DEPOSIT.toString(),
        charged: String(12n * PRICE),
        claimed: '0',
        unclaimed: String(12n * PRICE),
      },
    ])
    expect(actions).toEqual([{ network: NETWORK, kind: 'deposit', count: 1, amountAtomic: DEPOSIT.toString(), channels: 1 }])
  },
  SLOW,
)

test(
  'a voucher sent again buys its own request once (the stored answer, with its running total) and no other; one over the deposit is refused',
  async () => {
    const last = main.sent.at(-1)!
    const again = await fetch(server.url + MONTHS, { headers: { 'payment-signature': last } })
    expect(again.status).toBe(200)
    expect(decodePaymentResponseHeader(again.headers.get('payment-response')!).extra).toMatchObject({
      chargedAmount: PRICE.toString(),
      channelState: { chargedCumulativeAmount: String(12n * PRICE) },
    })
    const other = await fetch(server.url + SPEND_COUNTRIES, { headers: { 'payment-signature': last } })
    expect(other.status).toBe(402)
    // Spent on another request: the corrective 402, from which a client that lost its running total resyncs.
    expect((await other.json()).error).toMatchObject({
      code: 'payment_invalid',
      details: { reason: 'invalid_batch_settlement_evm_cumulative_amount_mismatch' },
    })
    expect(decodePaymentRequiredHeader(other.headers.get('payment-required')!).accepts[1]!.extra.channelState).toMatchObject({
      chargedCumulativeAmount: String(12n * PRICE),
    })
    // A ceiling past the deposit, signed by the buyer: the channel cannot pay it.
    const beyond = await fetch(server.url + SPEND_COUNTRIES, {
      headers: { 'payment-signature': await resigned(main, last, DEPOSIT + PRICE) },
    })
    expect(beyond.status).toBe(402)
    // A channel config with a bad EIP-55 checksum names no channel: a 402, never a 500.
    const decoded = JSON.parse(Buffer.from(last, 'base64').toString()) as { payload: { channelConfig: { payer: string } } }
    const payer = decoded.payload.channelConfig.payer
    decoded.payload.channelConfig.payer = `0x${payer.slice(2, 3) === payer.slice(2, 3).toUpperCase() ? payer.slice(2, 3).toLowerCase() : payer.slice(2, 3).toUpperCase()}${payer.slice(3)}`
    const miscased = await fetch(server.url + SPEND_COUNTRIES, {
      headers: { 'payment-signature': Buffer.from(JSON.stringify(decoded)).toString('base64') },
    })
    expect(miscased.status).toBe(402)
    // A ceiling that skips a charge: the scheme's corrective 402 names the channel's state.
    const skipping = await fetch(server.url + SPEND_COUNTRIES, {
      headers: { 'payment-signature': await resigned(main, last, 14n * PRICE) },
    })
    expect(skipping.status).toBe(402)
    const corrective = decodePaymentRequiredHeader(skipping.headers.get('payment-required')!)
    expect(corrective.error).toBe('invalid_batch_settlement_evm_cumulative_amount_mismatch')
    const batchAccept = corrective.accepts.find((accept) => accept.scheme === 'batch-settlement')!
    expect(batchAccept.extra.channelState).toMatchObject({ chargedCumulativeAmount: String(12n * PRICE) })
    expect((await ledgerChannels()).summary[0]!.charged).toBe(String(12n * PRICE))
    // The buyer's own client goes on from where the channel stands.
    expect((await main.pay(server.url + SPEND_COUNTRIES)).status).toBe(200)
    expect(charged(main.receipts.at(-1)!)).toBe(String(13n * PRICE))
  },
  SLOW,
)

test(
  'a restart keeps the channel: the next voucher goes on from the charged total',
  async () => {
    await server.stop()
    server = await startServer(env)
    expect((await main.pay(server.url + MONTHS)).status).toBe(200)
    expect(charged(main.receipts.at(-1)!)).toBe(String(14n * PRICE))
  },
  SLOW,
)

test(
  '`payments claim`: one claim and one settle for every voucher; the seller is paid what was charged',
  async () => {
    const before = await chain.balanceOf(DEV_PAY_TO)
    const startBlock = await blockNumber()
    const run = await runCli(['payments', 'claim'], env)
    expect(run.err).toBe('')
    expect(run.code).toBe(0)
    expect(run.out).toContain('Claimed 0.42 USD in 1 transaction(s), settled 0.42 USD in 1')
    expect(await blockNumber()).toBe(startBlock + 2n)
    expect(await chain.balanceOf(DEV_PAY_TO)).toBe(before + 14n * PRICE)
    expect(await escrowChannel(main)).toEqual([DEPOSIT, 14n * PRICE])
    // Nothing left: a second pass makes no transaction.
    const idle = await runCli(['payments', 'claim'], env)
    expect(idle.out).toContain('Claimed 0.00 USD in 0 transaction(s), settled 0.00 USD in 0')
    expect(await blockNumber()).toBe(startBlock + 2n)
    const report = await runCli(['payments', 'report'], env)
    expect(report.out).toContain('Batch-settlement channels now')
    expect(report.out).toMatch(/claim\s+1\s+0\.42/)
    // Each answer a voucher paid is on record as charged to its channel, not as settled on chain.
    const exported = await runCli(['payments', 'export'], env)
    expect(exported.out.split('\n').filter((line) => line.includes(',voucher,')).length).toBe(13)
    // The seller's console and /metrics show the same: one open channel, nothing left unclaimed.
    const console = (await (await fetch(`${server.url}/console`, { headers: { accept: 'application/json' } })).json()).data
    expect(console.exposure.batch).toEqual([
      {
        network: 'base-sepolia',
        channels: 1,
        deposited_usd: '0.08',
        unclaimed_usd: '0.00',
        unclaimed_channels: 0,
        claims_30d: 1,
        settled_30d_usd: '0.42',
        refunds_30d: 0,
      },
    ])
    const metrics = await (await fetch(`${server.url}/metrics`)).text()
    expect(metrics).toContain(`x402_batch_unclaimed_usd{network="${NETWORK}"} 0`)
    expect(metrics).toContain(`x402_batch_charged_usd{network="${NETWORK}"} 0.42`)
    expect(metrics).toContain(`x402_batch_chain_actions{network="${NETWORK}",kind="claim"} 1`)
  },
  SLOW,
)

test(
  "the buyer's refund: answered without the route, never charged, the rest of the deposit back",
  async () => {
    const before = await chain.balanceOf(main.account.address)
    const refunded = await main.scheme.refund(server.url + MONTHS)
    expect(refunded.success).toBe(true)
    expect(await chain.balanceOf(main.account.address)).toBe(before + DEPOSIT - 14n * PRICE)
    expect(await escrowChannel(main)).toEqual([14n * PRICE, 14n * PRICE])
    expect((await ledgerChannels()).summary).toEqual([])
  },
  SLOW,
)

test(
  'a payer who withdraws: the next pass sees it and claims first; after the delay only the unclaimed rest leaves',
  async () => {
    const buyer = await newBuyer()
    for (let call = 0; call < 3; call++) expect((await buyer.pay(server.url + MONTHS)).status).toBe(200)
    const config = buyer.scheme.buildChannelConfig(ACCEPT())
    const wallet = createWalletClient({ account: buyer.account, chain: baseSepolia, transport: http(chain.rpcUrl) })
    const anvil = createTestClient({ mode: 'anvil', transport: http(chain.rpcUrl) })
    await anvil.setBalance({ address: buyer.account.address, value: 10n ** 18n }) // gas for the payer's own transactions
    await chain.client.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: BATCH_ESCROW,
        abi: BATCH_ESCROW_ABI,
        functionName: 'initiateWithdraw',
        args: [config, DEPOSIT],
      }),
    })
    const pass = await runCli(['payments', 'claim'], env)
    expect(pass.out).toContain('1 withdrawal(s) newly seen')
    expect(await escrowChannel(buyer)).toEqual([DEPOSIT, 3n * PRICE])
    await anvil.increaseTime({ seconds: 901 })
    const before = await chain.balanceOf(buyer.account.address)
    await chain.client.waitForTransactionReceipt({
      hash: await wallet.writeContract({ address: BATCH_ESCROW, abi: BATCH_ESCROW_ABI, functionName: 'finalizeWithdraw', args: [config] }),
    })
    expect(await chain.balanceOf(buyer.account.address)).toBe(before + DEPOSIT - 3n * PRICE)
    expect((await ledgerChannels()).actions.find((action) => action.kind === 'withdraw_seen')).toMatchObject({ count: 1 })
  },
  SLOW,
)
