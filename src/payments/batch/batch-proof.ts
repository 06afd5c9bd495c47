/**
 * x402 `batch-settlement` payloads (scheme spec: x402 specs/schemes/batch-settlement, EVM binding; the
 * shapes `@x402/evm` 2.27.0's client sends): a deposit (an ERC-3009 authorization to the escrow's
 * collector and the first voucher), a voucher (a signed cumulative ceiling), or a refund request. Only
 * what a buyer may send is accepted: the claim and settle payloads, and a refund's server-side fields,
 * are the seller's own and refused here.
 */
import { Type as T, type Static } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import type { ChannelConfig } from '@x402/evm'
import { encodeAbiParameters, keccak256 } from 'viem'

export const BATCH_SETTLEMENT = 'batch-settlement'

const Hex = (bytes: number) => T.String({ pattern: `^0x[0-9a-fA-F]{${bytes * 2}}$` })
const Uint = T.String({ pattern: '^\\d{1,39}$' })
const Signature = T.String({ pattern: '^0x[0-9a-fA-F]+$', maxLength: 2 + 2 * 1024 })
const strict = { additionalProperties: false }

const ChannelConfig = T.Object(
  {
    payer: Hex(20),
    payerAuthorizer: Hex(20),
    receiver: Hex(20),
    receiverAuthorizer: Hex(20),
    token: Hex(20),
    withdrawDelay: T.Integer({ minimum: 0, maximum: 2 ** 40 - 1 }),
    salt: Hex(32),
  },
  strict,
)
const Voucher = T.Object({ channelId: Hex(32), maxClaimableAmount: Uint, signature: Signature }, strict)
const Erc3009 = T.Object({ validAfter: Uint, validBefore: Uint, salt: Hex(32), signature: Signature }, strict)

const BatchPayload = T.Union([
  T.Object(
    {
      type: T.Literal('deposit'),
      channelConfig: ChannelConfig,
      voucher: Voucher,
      deposit: T.Object({ amount: Uint, authorization: T.Object({ erc3009Authorization: Erc3009 }, strict) }, strict),
    },
    strict,
  ),
  T.Object({ type: T.Literal('voucher'), channelConfig: ChannelConfig, voucher: Voucher }, strict),
  T.Object({ type: T.Literal('refund'), channelConfig: ChannelConfig, voucher: Voucher, amount: T.Optional(Uint) }, strict),
])
export const checkBatchPayload = TypeCompiler.Compile(BatchPayload)
export type BatchPayload = Static<typeof BatchPayload>

/** What the gate reads of a batch payload: the channel, the voucher's ceiling, and a deposit's authorization. */
export interface BatchPayment {
  type: BatchPayload['type']
  /** Lower case, as the channel storage keys it. */
  channelId: `0x${string}`
  config: ChannelConfig
  maxClaimable: bigint
  /** A deposit's ERC-3009 authorization: its nonce (as the token records it, per payer) and its window. */
  deposit?: { amount: bigint; nonce: `0x${string}`; validBefore: string }
  /** A refund's requested amount (absent: all that is unclaimed). */
  refundAmount?: bigint
}

/** The ERC-3009 nonce a deposit's collector uses: keccak256(abi.encode(channelId, salt)) (the scheme's EVM binding). */
export const depositNonce = (channelId: `0x${string}`, salt: `0x${string}`): `0x${string}` =>
  keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'bytes32' }], [channelId, salt]))

export function batchPaymentOf(payload: BatchPayload): BatchPayment {
  const channelId = payload.voucher.channelId.toLowerCase() as `0x${string}`
  const config = payload.channelConfig as ChannelConfig
  const common = { type: payload.type, channelId, config, maxClaimable: BigInt(payload.voucher.maxClaimableAmount) }
  if (payload.type === 'deposit') {
    const authorization = payload.deposit.authorization.erc3009Authorization
    const nonce = depositNonce(payload.voucher.channelId as `0x${string}`, authorization.salt as `0x${string}`)
    return { ...common, deposit: { amount: BigInt(payload.deposit.amount), nonce, validBefore: authorization.validBefore } }
  }
  if (payload.type === 'refund' && payload.amount !== undefined) return { ...common, refundAmount: BigInt(payload.amount) }
  return common
}

/**
 * How the ledger keys a batch payment (one key buys one request, as an EIP-3009 nonce does): a deposit by
 * its ERC-3009 nonce, as an exact payment (the reconciler reads the token's record of it); a voucher by its
 * channel and ceiling, which the scheme makes unique per charge; a refund by its channel, ceiling and
 * amount. Vouchers and refunds move no money in the request, so they carry no validBefore.
 */
export function batchClaimOf(
  batch: BatchPayment,
  network: { caip2: string; asset: string },
  price: bigint,
): { key: string; nonce: string; amountAtomic: string; validBefore?: string } {
  const payer = batch.config.payer
  if (batch.deposit)
    return {
      key: `${network.caip2}:${network.asset}:${payer}:${batch.deposit.nonce}`.toLowerCase(),
      nonce: batch.deposit.nonce.toLowerCase(),
      amountAtomic: price.toString(),
      validBefore: batch.deposit.validBefore,
    }
  const channel = `${network.caip2}:batch:${batch.channelId}:${batch.maxClaimable}`
  if (batch.type === 'refund') return { key: `${channel}:refund:${batch.refundAmount ?? 'all'}`, nonce: batch.channelId, amountAtomic: '0' }
  return { key: channel, nonce: batch.channelId, amountAtomic: price.toString() }
}

/** A ledger key of batchClaimOf's voucher or refund form, read back; undefined for any other key. */
export function batchKeyOf(key: string): { network: string; channelId: string; ceiling: bigint; refund: boolean } | undefined {
  const parts = /^(eip155:\d+):batch:(0x[0-9a-f]{64}):(\d+)(:refund:)?/.exec(key)
  return parts ? { network: parts[1]!, channelId: parts[2]!, ceiling: BigInt(parts[3]!), refund: parts[4] !== undefined } : undefined
}
