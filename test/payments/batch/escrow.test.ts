import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { x402Client } from '@x402/core/client'
import { x402ResourceServer, type FacilitatorClient } from '@x402/core/server'
import type { PaymentPayload, PaymentRequirements, SettleResponse } from '@x402/core/types'
import { BATCH_SETTLEMENT_DOMAIN, claimBatchTypes, refundTypes, toClientEvmSigner, voucherTypes } from '@x402/evm'
import { BatchSettlementEvmScheme as BatchClientScheme, computeChannelId, signVoucher } from '@x402/evm/batch-settlement/client'
import { BatchSettlementEvmScheme as BatchServerScheme } from '@x402/evm/batch-settlement/server'
import {
  createTestClient,
  createWalletClient,
  decodeFunctionData,
  hashTypedData,
  http,
  keccak256,
  toBytes,
  toEventSignature,
  toFunctionSelector,
  toFunctionSignature,
  type AbiEvent,
  type AbiFunction,
  type Hex,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import {
  BATCH_ESCROW,
  BATCH_ESCROW_ABI,
  batchFacilitator,
  compileBatchContracts,
  installBatchSettlement,
} from '../../../support/batch-chain'
import { startChain, type Chain } from '../../../support/chain'

/**
 * The x402 `batch-settlement` scheme of `@x402/evm` 2.27.0, unmodified, against our own escrow on anvil
 * (support/batch-chain.ts): the package's client signs, its server scheme (through @x402/core's
 * x402ResourceServer) charges vouchers off chain, and its facilitator scheme (in an in-process
 * x402Facilitator) deposits, claims, settles and refunds on chain. The digests our contract signs over
 * are compared with the package's own.
 */

const SLOW = 60_000
const NETWORK = 'eip155:84532' as const
const ONE_USDC = 1_000_000n
const PRICE = 1_000n
const DEPOSIT = 15_000n
const VOUCHERS = 12
const WITHDRAW_DELAY = 900
const RESOURCE = { url: 'http://127.0.0.1/v1/batch-test', description: 'batch test', mimeType: 'application/json' }
const ZERO32 = `0x${'00'.repeat(32)}` as Hex

let chain: Chain
let server: x402ResourceServer
let serverScheme: BatchServerScheme
let facilitatorClient: FacilitatorClient
let requirements: PaymentRequirements
const receiver = privateKeyToAccount(generatePrivateKey()).address
const receiverAuthorizer = privateKeyToAccount(generatePrivateKey())
const calls = { verify: 0, settle: 0 }

beforeAll(async () => {
  chain = await startChain()
  await installBatchSettlement(chain)
  const { client } = await batchFacilitator(chain)
  facilitatorClient = {
    verify: (payload, required) => (calls.verify++, client.verify(payload, required)),
    settle: (payload, required) => (calls.settle++, client.settle(payload, required)),
    getSupported: () => client.getSupported(),
  }
  // The receiver authorizer is the server's own key: the facilitator has none, and signs nothing for it.
  serverScheme = new BatchServerScheme(receiver, {
    receiverAuthorizerSigner: receiverAuthorizer,
    withdrawDelay: WITHDRAW_DELAY,
  })
  server = new x402ResourceServer(facilitatorClient).register(NETWORK, serverScheme)
  await server.initialize()
  requirements = await priced('$0.001')
}, SLOW)

afterAll(async () => {
  await chain?.stop()
})

async function priced(price: string): Promise<PaymentRequirements> {
  const [built] = await server.buildPaymentRequirements({
    scheme: 'batch-settlement',
    payTo: receiver,
    price,
    network: NETWORK,
    maxTimeoutSeconds: 60,
    extra: { minDeposit: DEPOSIT.toString() },
  })
  return built!
}

interface Buyer {
  account: PrivateKeyAccount
  scheme: BatchClientScheme
  client: x402Client
}

async function newBuyer(): Promise<Buyer> {
  const account = privateKeyToAccount(generatePrivateKey())
  await chain.fund(account.address, ONE_USDC)
  const scheme = new BatchClientScheme(toClientEvmSigner(account, chain.client))
  return { account, scheme, client: new x402Client().register(NETWORK, scheme) }
}

/** One paid request as a resource server runs it: 402, payload, verify, settle (same payload object), the client's response hook. */
async function pay(buyer: Buyer): Promise<{ payload: PaymentPayload; settled: SettleResponse }> {
  const payload = await buyer.client.createPaymentPayload(await server.createPaymentRequiredResponse([requirements], RESOURCE))
  const verified = await server.verifyPayment(payload, requirements)
  expect(verified).toMatchObject({ isValid: true })
  const settled = await server.settlePayment(payload, requirements)
  expect(settled.success).toBe(true)
  await buyer.client.handlePaymentResponse({ paymentPayload: payload, requirements, settleResponse: settled })
  return { payload, settled }
}

/** viem caches the block number for its polling interval: asked afresh. */
const blockNumber = () => chain.client.getBlockNumber({ cacheTime: 0 })
const channelOf = (buyer: Buyer) => computeChannelId(buyer.scheme.buildChannelConfig(requirements), NETWORK)
const read = <T>(functionName: string, args: readonly unknown[]) =>
  chain.client.readContract({ address: BATCH_ESCROW, abi: BATCH_ESCROW_ABI, functionName, args } as never) as Promise<T>

/** The escrow functions called by the transactions of the blocks after `since`. */
async function escrowCallsSince(since: bigint): Promise<string[]> {
  const names: string[] = []
  for (let number = since + 1n; number <= (await blockNumber()); number++) {
    const block = await chain.client.getBlock({ blockNumber: number, includeTransactions: true })
    for (const transaction of block.transactions) {
      if (transaction.to?.toLowerCase() !== BATCH_ESCROW.toLowerCase()) continue
      names.push(decodeFunctionData({ abi: compileBatchContracts().escrow.abi, data: transaction.input }).functionName)
    }
  }
  return names
}

test('our escrow answers the ABI the package calls, and its ids and digests are the package’s EIP-712 hashes', async () => {
  // The package's ABI is internal (a bundle chunk): found by the name it declares.
  const dist = join(import.meta.dir, '../../../node_modules/@x402/evm/dist/esm')
  const chunk = readdirSync(dist).find(
    (file) => file.endsWith('.mjs') && readFileSync(join(dist, file), 'utf8').includes('var batchSettlementABI ='),
  )
  const { batchSettlementABI } = (await import(join(dist, chunk!))) as { batchSettlementABI: readonly (AbiFunction | AbiEvent)[] }
  const signature = (item: AbiFunction | AbiEvent) => (item.type === 'event' ? toEventSignature(item) : toFunctionSignature(item))
  const ours = new Set((compileBatchContracts().escrow.abi as (AbiFunction | AbiEvent)[]).map(signature))
  expect(batchSettlementABI.map(signature).filter((wanted) => !ours.has(wanted))).toEqual([])

  const config = {
    payer: privateKeyToAccount(generatePrivateKey()).address,
    payerAuthorizer: privateKeyToAccount(generatePrivateKey()).address,
    receiver,
    receiverAuthorizer: privateKeyToAccount(generatePrivateKey()).address,
    token: chain.usdc,
    withdrawDelay: WITHDRAW_DELAY,
    salt: keccak256(toBytes('salt')),
  }
  const other = { ...config, salt: ZERO32, withdrawDelay: 3600 }
  const channelId = computeChannelId(config, NETWORK)
  expect(await read<Hex>('getChannelId', [config])).toBe(channelId)
  expect(await read<Hex>('CHANNEL_CONFIG_TYPEHASH', [])).toBe(
    keccak256(
      toBytes(
        'ChannelConfig(address payer,address payerAuthorizer,address receiver,address receiverAuthorizer,address token,uint40 withdrawDelay,bytes32 salt)',
      ),
    ),
  )
  const domain = { ...BATCH_SETTLEMENT_DOMAIN, chainId: 84532, verifyingContract: BATCH_ESCROW }
  expect(await read<Hex>('getVoucherDigest', [channelId, 12_345n])).toBe(
    hashTypedData({ domain, types: voucherTypes, primaryType: 'Voucher', message: { channelId, maxClaimableAmount: 12_345n } }),
  )
  expect(await read<Hex>('getRefundDigest', [channelId, 7n, 500n])).toBe(
    hashTypedData({ domain, types: refundTypes, primaryType: 'Refund', message: { channelId, nonce: 7n, amount: 500n } }),
  )
  const claims = [
    { voucher: { channel: config, maxClaimableAmount: 9_000n }, signature: '0x' as Hex, totalClaimed: 8_000n },
    { voucher: { channel: other, maxClaimableAmount: 4_000n }, signature: '0x' as Hex, totalClaimed: 4_000n },
  ]
  const entries = claims.map((claim) => ({
    channelId: computeChannelId(claim.voucher.channel, NETWORK),
    maxClaimableAmount: claim.voucher.maxClaimableAmount,
    totalClaimed: claim.totalClaimed,
  }))
  expect(await read<Hex>('getClaimBatchDigest', [claims])).toBe(
    hashTypedData({ domain, types: claimBatchTypes, primaryType: 'ClaimBatch', message: { claims: entries } }),
  )
})

test(
  'the package alone on our escrow: one deposit transaction, then vouchers charged off chain with no block, replay and over-spend refused, claimed and settled in two transactions, the rest refunded',
  async () => {
    const buyer = await newBuyer()
    const escrowBefore = await chain.balanceOf(BATCH_ESCROW)
    const receiverBefore = await chain.balanceOf(receiver)
    const startBlock = await blockNumber()

    const first = await pay(buyer)
    expect(first.payload.payload).toMatchObject({ type: 'deposit', deposit: { amount: DEPOSIT.toString() } })
    expect(first.settled.transaction).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await escrowCallsSince(startBlock)).toEqual(['deposit'])
    expect(await chain.balanceOf(buyer.account.address)).toBe(ONE_USDC - DEPOSIT)
    expect(await chain.balanceOf(BATCH_ESCROW)).toBe(escrowBefore + DEPOSIT)
    const channelId = channelOf(buyer)
    expect(await read<[bigint, bigint]>('channels', [channelId])).toEqual([DEPOSIT, 0n])

    // Vouchers: verified locally against the mirrored channel, charged in the server's storage only.
    const afterDeposit = await blockNumber()
    const before = { ...calls }
    const vouchers: PaymentPayload[] = []
    for (let index = 1; index <= VOUCHERS; index++) {
      const { payload, settled } = await pay(buyer)
      expect(payload.payload).toMatchObject({ type: 'voucher', voucher: { maxClaimableAmount: String(PRICE * BigInt(index + 1)) } })
      expect(settled).toMatchObject({ transaction: '', extra: { chargedAmount: PRICE.toString() } })
      vouchers.push(payload)
    }
    expect(await blockNumber()).toBe(afterDeposit)
    expect(calls).toEqual(before)
    const charged = PRICE * BigInt(VOUCHERS + 1)
    expect((await serverScheme.getStorage().get(channelId))?.chargedCumulativeAmount).toBe(charged.toString())

    // A voucher sent again: its cumulative is no longer charged + price.
    const replay = structuredClone(vouchers[4]!)
    const refused = await server.verifyPayment(replay, requirements)
    expect(refused).toMatchObject({ isValid: false, invalidReason: 'invalid_batch_settlement_evm_cumulative_amount_mismatch' })
    const corrective = await server.createPaymentRequiredResponse(
      [requirements],
      RESOURCE,
      refused.invalidReason,
      undefined,
      undefined,
      replay,
    )
    expect(corrective.accepts[0]!.extra).toMatchObject({ channelState: { chargedCumulativeAmount: charged.toString() } })

    // A voucher on the right base whose cumulative is above the channel's balance (a request priced above what is left).
    const dear = await priced('$0.005')
    const config = buyer.scheme.buildChannelConfig(dear)
    const overspent: PaymentPayload = {
      x402Version: 2,
      accepted: dear,
      resource: RESOURCE,
      payload: {
        type: 'voucher',
        channelConfig: config,
        voucher: await signVoucher(buyer.account, channelId, (charged + 5_000n).toString(), NETWORK),
      },
    }
    const overspend = 'invalid_batch_settlement_evm_cumulative_exceeds_balance'
    expect(await server.verifyPayment(overspent, dear)).toMatchObject({ isValid: false, invalidReason: overspend })
    expect(await facilitatorClient.verify(overspent, dear)).toMatchObject({ isValid: false, invalidReason: overspend })

    // The channel manager's claimAndSettle: one claimWithSignature, one settle.
    const beforeClaim = await blockNumber()
    const manager = serverScheme.createChannelManager(facilitatorClient, NETWORK, chain.usdc)
    const { claims, settle } = await manager.claimAndSettle()
    expect(claims).toMatchObject([{ vouchers: 1 }])
    expect(settle?.transaction).toMatch(/^0x[0-9a-f]{64}$/)
    const settleReceipt = await chain.client.getTransactionReceipt({ hash: settle!.transaction as Hex })
    expect(settleReceipt.gasUsed).toBeLessThan(120_000n)
    expect(await escrowCallsSince(beforeClaim)).toEqual(['claimWithSignature', 'settle'])
    expect(await chain.balanceOf(receiver)).toBe(receiverBefore + charged)
    expect(await read<[bigint, bigint]>('channels', [channelId])).toEqual([DEPOSIT, charged])
    expect(await read<[bigint, bigint]>('receivers', [receiver, chain.usdc])).toEqual([charged, charged])
    // Nothing more owed: the facilitator does not send a settle.
    await expect(manager.settle()).rejects.toThrow('invalid_batch_settlement_evm_nothing_to_settle')

    // The buyer's cooperative refund through the server: the rest of the deposit goes back.
    const beforeRefund = await blockNumber()
    const refundPayload: PaymentPayload = {
      x402Version: 2,
      accepted: requirements,
      resource: RESOURCE,
      payload: {
        type: 'refund',
        channelConfig: buyer.scheme.buildChannelConfig(requirements),
        voucher: await signVoucher(buyer.account, channelId, charged.toString(), NETWORK),
      },
    }
    expect(await server.verifyPayment(refundPayload, requirements)).toMatchObject({ isValid: true, skipHandler: expect.anything() })
    const refunded = await server.settlePayment(refundPayload, requirements)
    expect(refunded).toMatchObject({ success: true, amount: (DEPOSIT - charged).toString() })
    expect(await escrowCallsSince(beforeRefund)).toEqual(['multicall'])
    expect(await chain.balanceOf(buyer.account.address)).toBe(ONE_USDC - charged)
    expect(await read<[bigint, bigint]>('channels', [channelId])).toEqual([charged, charged])
    expect(await read<bigint>('refundNonce', [channelId])).toBe(1n)
    expect(await serverScheme.getStorage().get(channelId)).toBeUndefined()
    expect(await chain.balanceOf(BATCH_ESCROW)).toBe(escrowBefore)
  },
  SLOW,
)

test(
  'the escrow refuses a claim with a stranger’s voucher signature, above the voucher, above the balance, or without the receiver authorizer’s batch signature',
  async () => {
    const buyer = await newBuyer()
    await pay(buyer)
    const config = buyer.scheme.buildChannelConfig(requirements)
    const channelId = channelOf(buyer)
    const stub: PaymentRequirements = {
      scheme: 'batch-settlement',
      network: NETWORK,
      asset: chain.usdc,
      amount: '0',
      payTo: receiver,
      maxTimeoutSeconds: 0,
      extra: {},
    }
    const domain = { ...BATCH_SETTLEMENT_DOMAIN, chainId: 84532, verifyingContract: BATCH_ESCROW }
    const stranger = privateKeyToAccount(generatePrivateKey())
    const claimWith = async (voucherSigner: PrivateKeyAccount, max: bigint, total: bigint, batchSigner = receiverAuthorizer) => {
      const claims = [
        {
          voucher: { channel: config, maxClaimableAmount: max.toString() },
          signature: (await signVoucher(voucherSigner, channelId, max.toString(), NETWORK)).signature,
          totalClaimed: total.toString(),
        },
      ]
      const claimAuthorizerSignature = await batchSigner.signTypedData({
        domain,
        types: claimBatchTypes,
        primaryType: 'ClaimBatch',
        message: { claims: [{ channelId, maxClaimableAmount: max, totalClaimed: total }] },
      })
      return facilitatorClient.settle(
        { x402Version: 2, accepted: stub, payload: { type: 'claim', claims, claimAuthorizerSignature } },
        stub,
      )
    }
    const refusedWith = (error: string) => ({
      success: false,
      errorReason: 'invalid_batch_settlement_evm_claim_simulation_failed',
      errorMessage: expect.stringContaining(toFunctionSelector(error)),
    })
    expect(await claimWith(stranger, 2_000n, 2_000n)).toMatchObject(refusedWith('InvalidSignature()'))
    expect(await claimWith(buyer.account, 2_000n, 3_000n)).toMatchObject(refusedWith('ClaimAboveVoucher()'))
    expect(await claimWith(buyer.account, DEPOSIT + 1n, DEPOSIT + 1n)).toMatchObject(refusedWith('ClaimAboveBalance()'))
    expect(await claimWith(buyer.account, 2_000n, 2_000n, stranger)).toMatchObject(refusedWith('InvalidSignature()'))
    expect(await read<[bigint, bigint]>('channels', [channelId])).toEqual([DEPOSIT, 0n])
    // The same claim, rightly signed, goes through; sent again it changes nothing.
    expect(await claimWith(buyer.account, 2_000n, 2_000n)).toMatchObject({ success: true })
    expect(await claimWith(buyer.account, 2_000n, 2_000n)).toMatchObject({ success: true })
    expect(await read<[bigint, bigint]>('channels', [channelId])).toEqual([DEPOSIT, 2_000n])
    // Tidy for the next test: the channel refunded (capped at what is unclaimed) and the receiver paid what was claimed.
    const manager = serverScheme.createChannelManager(facilitatorClient, NETWORK, chain.usdc)
    await manager.refund([channelId])
    expect(await read<[bigint, bigint]>('channels', [channelId])).toEqual([2_000n, 2_000n])
    const receiverBefore = await chain.balanceOf(receiver)
    await manager.settle()
    expect(await chain.balanceOf(receiver)).toBe(receiverBefore + 2_000n)
    expect(await chain.balanceOf(buyer.account.address)).toBe(ONE_USDC - 2_000n)
  },
  SLOW,
)

test(
  'a payer’s own withdrawal: after the withdraw delay it takes back only what the receiver had not claimed',
  async () => {
    const buyer = await newBuyer()
    const anvil = createTestClient({ mode: 'anvil', transport: http(chain.rpcUrl) })
    await anvil.setBalance({ address: buyer.account.address, value: 10n ** 18n })
    for (let index = 0; index < 3; index++) await pay(buyer)
    const charged = 3n * PRICE
    const config = buyer.scheme.buildChannelConfig(requirements)
    const channelId = channelOf(buyer)
    const wallet = createWalletClient({ account: buyer.account, chain: chain.client.chain, transport: http(chain.rpcUrl) })
    const send = async (functionName: 'initiateWithdraw' | 'finalizeWithdraw', args: readonly unknown[]) => {
      const hash = await wallet.writeContract({ address: BATCH_ESCROW, abi: BATCH_ESCROW_ABI, functionName, args } as never)
      expect((await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 20 })).status).toBe('success')
    }
    await send('initiateWithdraw', [config, DEPOSIT])
    const [amount, initiatedAt] = await read<[bigint, number]>('pendingWithdrawals', [channelId])
    expect(amount).toBe(DEPOSIT)
    await expect(
      chain.client.simulateContract({
        account: buyer.account,
        address: BATCH_ESCROW,
        abi: BATCH_ESCROW_ABI,
        functionName: 'finalizeWithdraw',
        args: [config],
      }),
    ).rejects.toThrow('WithdrawTooEarly')

    // The receiver claims what it charged while the withdrawal waits.
    const receiverBefore = await chain.balanceOf(receiver)
    await serverScheme.createChannelManager(facilitatorClient, NETWORK, chain.usdc).claimAndSettle()
    expect(await chain.balanceOf(receiver)).toBe(receiverBefore + charged)

    await anvil.increaseTime({ seconds: WITHDRAW_DELAY + 1 })
    await anvil.mine({ blocks: 1 })
    expect(Number((await chain.client.getBlock()).timestamp)).toBeGreaterThan(initiatedAt + WITHDRAW_DELAY)
    const buyerBefore = await chain.balanceOf(buyer.account.address)
    await send('finalizeWithdraw', [config])
    expect(await chain.balanceOf(buyer.account.address)).toBe(buyerBefore + DEPOSIT - charged)
    expect(await read<[bigint, bigint]>('channels', [channelId])).toEqual([charged, charged])
    expect(await read<[bigint, number]>('pendingWithdrawals', [channelId])).toEqual([0n, 0])
  },
  SLOW,
)
