import type { PaymentEvent, SpendRecord } from './contract'
import type { PAYMENT_EVENTS, PROVIDER_SPEND, SharedColumn } from './tables'

/** A row as both engines write it: every shared column of the table but its sequence (a column renamed there fails to compile here). */
type RowOf<Of extends typeof PAYMENT_EVENTS | typeof PROVIDER_SPEND> = Record<Exclude<SharedColumn<Of>, 'seq'>, string | number | null>

/** A payment event as its `payment_events` row. */
export const eventRow = (event: PaymentEvent): RowOf<typeof PAYMENT_EVENTS> => ({
  at: event.at,
  event: event.event,
  payment_key: event.key,
  request_id: event.requestId,
  route: event.routeId,
  payer: event.payer,
  amount_atomic: event.amountAtomic,
  nonce: event.nonce,
  network: event.network,
  tx_hash: event.txHash ?? null,
  detail: event.detail ?? null,
})

/** A provider's spend as its `provider_spend` row (nano-USD as decimal text: a bigint does not fit a JS number). */
export const spendRow = (spend: SpendRecord): RowOf<typeof PROVIDER_SPEND> => ({
  at: spend.at,
  request_id: spend.requestId,
  route: spend.routeId,
  provider: spend.provider,
  role: spend.role,
  requests: spend.requests,
  input_tokens: spend.inputTokens ?? null,
  output_tokens: spend.outputTokens ?? null,
  cost_nano_usd: spend.costNanoUsd === null ? null : spend.costNanoUsd.toString(),
})
