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

/** The escrow's bounds on a channel's withdraw delay (seconds): 15 minutes to 30 days. */
export const WITHDRAW_DELAY_BOUNDS = { min: 900, max: 2_592_000 } as const

/** A route's terms on one network (gate/requirements.ts PaymentTerms). */
interface Terms {
  network: NetworkInfo
  payTo: `0x${string}`
  amountAtomic: bigint
  maxTimeoutSeconds: number
}

export function batchAccept(terms: Terms, batch: BatchOffer): PaymentRequirements {
  const minDeposit = batch.minDepositAtomic > terms.amountAtomic ? batch.minDepositAtomic : terms.amountAtomic
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
