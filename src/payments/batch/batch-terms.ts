/**
 * The `batch-settlement` entry of a 402's `accepts` (x402 specs/schemes/batch-settlement, EVM binding):
 * the same price per request as `exact`, and in `extra` what the buyer's channel is opened with. These
 * are the fields `@x402/evm` 2.27.0's server scheme adds (`enhancePaymentRequirements`): built here
 * without it, once per route, and held equal to it by a test.
 */
import type { PaymentRequirements } from '@x402/core/types'
import { getAddress } from 'viem'
import type { BatchOffer, NetworkInfo } from '../networks'
import { BATCH_SETTLEMENT } from './batch-proof'

/** The longest x402's batch server holds a channel for one request (its pending-request TTL, @x402/evm 2.27.0). */
export const BATCH_RESERVATION_MAX_SECONDS = 600

/** The smallest deposit a channel opens with: the seller's minimum, never below one request's price. */
export const minDepositOf = (terms: { amountAtomic: bigint }, batch: BatchOffer): bigint =>
  batch.minDepositAtomic > terms.amountAtomic ? batch.minDepositAtomic : terms.amountAtomic

/** A route's terms on one network (gate/requirements.ts PaymentTerms). */
interface Terms {
  network: NetworkInfo
  payTo: `0x${string}`
  amountAtomic: bigint
  maxTimeoutSeconds: number
}

export function batchAccept(terms: Terms, batch: BatchOffer): PaymentRequirements {
  const minDeposit = minDepositOf(terms, batch)
  return {
    scheme: BATCH_SETTLEMENT,
    network: terms.network.caip2,
    amount: terms.amountAtomic.toString(),
    asset: terms.network.asset,
    payTo: terms.payTo,
    maxTimeoutSeconds: terms.maxTimeoutSeconds,
    extra: {
      ...terms.network.eip712,
      assetTransferMethod: 'eip3009',
      receiverAuthorizer: getAddress(batch.receiverAuthorizer),
      withdrawDelay: batch.withdrawDelaySeconds,
      minDeposit: minDeposit.toString(),
    },
  }
}
