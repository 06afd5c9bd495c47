/**
 * Offline checks of a `batch-settlement` proof before anything is claimed or any facilitator is asked:
 * the channel is one this seller's terms open (receiver, token, receiver-authorizer, withdraw delay), its
 * id is the package's `computeChannelId` of its config, and the voucher is signed by the channel's payer
 * authorizer (ECDSA over the scheme's EIP-712 Voucher, the package's own types). Whether the ceiling is
 * the next one, and what the escrow holds, the scheme's server and facilitator decide (batch-settler.ts).
 */
import { BATCH_SETTLEMENT_ADDRESS, BATCH_SETTLEMENT_DOMAIN, voucherTypes } from '@x402/evm'
import { computeChannelId } from '@x402/evm/batch-settlement/client'
import { hashTypedData, hexToBytes } from 'viem'
import { recoverSigner } from '../chain/eip3009'
import type { BatchProof } from '../gate/proof'
import type { PaymentTerms } from '../gate/requirements'
import { minDepositOf } from './batch-terms'
import { VALID_BEFORE_MARGIN_SECONDS, type VerifyResult } from '../gate/verify-local'

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000'
const same = (left: string, right: string) => left.toLowerCase() === right.toLowerCase()
const fail = (reason: string, message: string): VerifyResult => ({ ok: false, reason, message })

function channelRefusal(proof: BatchProof, terms: PaymentTerms): VerifyResult | undefined {
  const batch = terms.batch
  if (!batch) return fail('unsupported_scheme', `Scheme "batch-settlement" is not offered on ${terms.network.name}; use "exact".`)
  const { config } = proof.batch
  if (proof.accepted && !same(proof.accepted.asset, terms.network.asset))
    return fail('wrong_asset', `Asset must be ${terms.network.asset}.`)
  if (proof.accepted && !same(proof.accepted.payTo, terms.payTo)) return fail('wrong_recipient', `payTo must be ${terms.payTo}.`)
  if (proof.accepted && proof.accepted.amount !== terms.amountAtomic.toString())
    return fail('wrong_amount', `This route costs ${terms.amountAtomic} atomic USDC; the proof accepted ${proof.accepted.amount}.`)
  if (!same(config.receiver, terms.payTo)) return fail('wrong_recipient', `The channel pays ${config.receiver}, not ${terms.payTo}.`)
  if (!same(config.token, terms.network.asset)) return fail('wrong_asset', `The channel's token must be ${terms.network.asset}.`)
  if (!same(config.receiverAuthorizer, batch.receiverAuthorizer))
    return fail(
      'invalid_batch_settlement_evm_receiver_authorizer_mismatch',
      `The channel's receiverAuthorizer must be ${batch.receiverAuthorizer}.`,
    )
  if (config.withdrawDelay !== batch.withdrawDelaySeconds)
    return fail(
      'invalid_batch_settlement_evm_withdraw_delay_mismatch',
      `The channel's withdrawDelay must be ${batch.withdrawDelaySeconds} seconds.`,
    )
  if (!same(channelIdOf(config, terms.network.chainId), proof.batch.channelId))
    return fail('invalid_batch_settlement_evm_channel_id_mismatch', 'The voucher names another channel than its config.')
  const minDeposit = minDepositOf(terms, batch)
  if (proof.batch.deposit && proof.batch.deposit.amount < minDeposit)
    return fail('invalid_batch_settlement_evm_deposit_below_min_deposit', `A deposit must be at least ${minDeposit} atomic USDC.`)
  // Each refund is a transaction the seller pays for: a partial one must be worth it.
  if (proof.batch.refundAmount !== undefined && proof.batch.refundAmount < minDeposit)
    return fail(
      'invalid_batch_settlement_evm_refund_amount_invalid',
      `A partial refund must be at least ${minDeposit} atomic USDC; leave out the amount to refund all.`,
    )
  return undefined
}

/** The package's channel id of a config; a config whose addresses viem refuses (a bad EIP-55 checksum) names none. */
function channelIdOf(config: BatchProof['batch']['config'], chainId: number): string {
  try {
    return computeChannelId(config, chainId)
  } catch {
    return ''
  }
}

/** The proof pays these terms through a channel they open, signed by its payer's authorizer. */
export function verifyBatchLocally(
  proof: BatchProof,
  terms: PaymentTerms,
  nowSeconds: number,
  options: { ignoreTime?: boolean; contractSignatures?: boolean } = {},
): VerifyResult {
  const refusal = channelRefusal(proof, terms)
  if (refusal) return refusal
  const deposit = proof.batch.deposit
  if (deposit && !options.ignoreTime && BigInt(deposit.validBefore) <= BigInt(nowSeconds + VALID_BEFORE_MARGIN_SECONDS))
    return fail('expired', "The deposit's authorization has expired (validBefore has passed or is too close).")
  const { config, channelId, maxClaimable } = proof.batch
  // The voucher proves its payer authorizer, not the channel's payer: per-payer limits key on who signed.
  const payer = (same(config.payerAuthorizer, ZERO_ADDRESS) ? config.payer : config.payerAuthorizer).toLowerCase() as `0x${string}`
  // No payer authorizer: the voucher is the payer's own (a smart wallet's ERC-1271), checked only on chain.
  if (same(config.payerAuthorizer, ZERO_ADDRESS) || proof.signature.length !== 132) {
    return options.contractSignatures
      ? { ok: true, payer }
      : fail('invalid_signature', 'Only vouchers signed by an ECDSA payer authorizer can be checked offline.')
  }
  const digest = hashTypedData({
    domain: { ...BATCH_SETTLEMENT_DOMAIN, chainId: terms.network.chainId, verifyingContract: BATCH_SETTLEMENT_ADDRESS },
    types: voucherTypes,
    primaryType: 'Voucher',
    message: { channelId, maxClaimableAmount: maxClaimable },
  })
  const signer = recoverSigner(hexToBytes(digest), proof.signature)
  if (!signer || !same(signer, config.payerAuthorizer))
    return fail('invalid_batch_settlement_evm_voucher_signature', "The voucher is not signed by the channel's payer authorizer.")
  return { ok: true, payer }
}
