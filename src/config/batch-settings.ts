/**
 * x402 batch-settlement (payments/batch): on which networks it is offered beside exact (BATCH_NETWORKS),
 * with the seller's receiver-authorizer key, the channels' withdraw delay and minimum deposit, how often
 * vouchers are claimed and settled, and when idle channels are refunded.
 */
import { read } from './read'
import { ConfigError, usdToAtomic } from '../core'
import { networkNamed, type NetworkName, type PaymentMode, type PaymentOffer } from '../payments'
import { privateKeyToAddress } from 'viem/accounts'

export interface BatchSettings {
  /** Signs claims and refunds; its address is every channel's receiverAuthorizer. A secret. */
  authorizerKey: `0x${string}`
  /** How often the leaseholder claims and settles what vouchers have charged. */
  claimSeconds: number
  /** A channel without a request this long is refunded (0 = never). */
  refundIdleSeconds: number
}

export function readBatch(
  env: Record<string, string | undefined>,
  offers: readonly PaymentOffer[],
  paymentMode: PaymentMode,
): { offers: readonly PaymentOffer[]; batch?: BatchSettings } {
  const list = read(env, 'BATCH_NETWORKS') as string | undefined
  if (!list) return { offers }
  if (paymentMode === 'local')
    throw new ConfigError('BATCH_NETWORKS', 'needs PAYMENT_MODE=self or facilitator (deposits, claims and refunds are made on chain)')
  const named: NetworkName[] = []
  for (const entry of list.split(',')) {
    const name = networkNamed(entry)
    if (!name || !offers.some((offer) => offer.network.name === name))
      throw new ConfigError('BATCH_NETWORKS', `${JSON.stringify(entry.trim())} is not a network of PAYMENT_NETWORKS`)
    named.push(name)
  }
  // read() checks the key's form without quoting it, and the delay against the escrow's bounds (settings.ts).
  const authorizerKey = read(env, 'BATCH_RECEIVER_AUTHORIZER_KEY') as `0x${string}` | undefined
  if (!authorizerKey) throw new ConfigError('BATCH_RECEIVER_AUTHORIZER_KEY', 'is required when BATCH_NETWORKS is set')
  const withdrawDelaySeconds = (read(env, 'BATCH_WITHDRAW_DELAY_SECONDS') as number | undefined) ?? 86_400
  const claimSeconds = (read(env, 'BATCH_CLAIM_SECONDS') as number | undefined) ?? 600
  // A payer may withdraw what is unclaimed once the delay has passed: claims must come well before.
  if (claimSeconds * 4 > withdrawDelaySeconds)
    throw new ConfigError('BATCH_CLAIM_SECONDS', `must be at most a quarter of BATCH_WITHDRAW_DELAY_SECONDS (${withdrawDelaySeconds})`)
  const minDepositAtomic = usdToAtomic((read(env, 'BATCH_MIN_DEPOSIT_USD') as string | undefined) ?? '1')
  const receiverAuthorizer = privateKeyToAddress(authorizerKey)
  return {
    offers: offers.map((offer) =>
      named.includes(offer.network.name as NetworkName)
        ? { ...offer, batch: { receiverAuthorizer, withdrawDelaySeconds, minDepositAtomic } }
        : offer,
    ),
    batch: {
      authorizerKey,
      claimSeconds,
      refundIdleSeconds: ((read(env, 'BATCH_REFUND_IDLE_HOURS') as number | undefined) ?? 72) * 3600,
    },
  }
}
