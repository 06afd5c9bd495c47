/**
 * What an answer cost the seller at its providers: search requests (pages) and model tokens, priced
 * where the seller configured a price (PROVIDER_PRICES in the configuration). Recorded per paid request
 * in the ledger, so `payments report` sets provider spend against revenue; never shown to buyers.
 */

/** Requests one provider made for an answer, and their price when configured. */
export interface ProviderSpend {
  provider: string
  role: 'native' | 'web' | 'summary'
  requests: number
  inputTokens?: number
  outputTokens?: number
  /** In nano-USD (1e-9 USD: token prices are fractions of a micro-dollar); null when no price is configured. */
  costNanoUsd: bigint | null
}

const NANO = 1_000_000_000n

/** A decimal USD price ("0.001") as nano-USD, exactly. */
export function usdToNano(usd: string): bigint {
  const match = /^(\d+)(?:\.(\d{1,9}))?$/.exec(usd.trim())
  if (!match) throw new Error(`not a USD amount with at most 9 decimals: "${usd}"`)
  return BigInt(match[1]!) * NANO + BigInt((match[2] ?? '').padEnd(9, '0'))
}

/** Nano-USD as a decimal USD string, trailing zeros dropped (at least two decimals). */
export function nanoToUsd(nano: bigint): string {
  const sign = nano < 0n ? '-' : ''
  const abs = nano < 0n ? -nano : nano
  const frac = (abs % NANO).toString().padStart(9, '0').replace(/0+$/, '').padEnd(2, '0')
  return `${sign}${abs / NANO}.${frac}`
}

/** Token prices in nano-USD per million tokens; cached input tokens at their own price when the seller set one. */
export interface TokenPrices {
  inputPerMillionNanoUsd: bigint
  outputPerMillionNanoUsd: bigint
  cachedInputPerMillionNanoUsd?: bigint
}

/**
 * The price of a model call's tokens, rounded up to a whole nano-USD. `cachedInputTokens` are part of
 * `inputTokens`; they cost the cached-input price when one is configured, else the full input price: an
 * upper bound, never an assumed discount, since the discount differs by vendor and model and changes
 * (DeepSeek's cache-hit price was 1/4, 1/8, then 1/10 of its miss price; DashScope's implicit cache 2/5, then 1/5).
 */
export function tokenCost(prices: TokenPrices, inputTokens: number, outputTokens: number, cachedInputTokens = 0): bigint {
  const cached = prices.cachedInputPerMillionNanoUsd === undefined ? 0 : Math.min(cachedInputTokens, inputTokens)
  const total =
    prices.inputPerMillionNanoUsd * BigInt(inputTokens - cached) +
    (prices.cachedInputPerMillionNanoUsd ?? 0n) * BigInt(cached) +
    prices.outputPerMillionNanoUsd * BigInt(outputTokens)
  return (total + 999_999n) / 1_000_000n
}
