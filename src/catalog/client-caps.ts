/**
 * What common x402 clients pay at most unless told otherwise, as their own code sets it: x402-fetch 1.2
 * (`wrapFetchWithPayment(fetch, wallet, maxValue = 0.1 USDC)`) and Vercel's x402-mcp 0.0.5
 * (`maxPaymentValue`, default 0.1 USDC). A route priced above it is refused by such a client with
 * "Payment amount exceeds maximum allowed" before it pays: buyers are told so, and how to raise it.
 */
import type { RouteSpec } from './types'

export const COMMON_CLIENT_CAP_USD = '0.10'

/** Whether common clients refuse this route's price by default. */
export const overCommonCap = (route: Pick<RouteSpec, 'priceUsd'>) => Number(route.priceUsd) > Number(COMMON_CLIENT_CAP_USD)

/** What a buyer whose client refuses the price needs to know, in one sentence. */
export const COMMON_CAP_ADVICE = `x402-fetch and x402-mcp pay at most USD ${COMMON_CLIENT_CAP_USD} unless raised: pass maxValue (x402-fetch, atomic units: 1000000 = USD 1) or maxPaymentValue (x402-mcp); @x402/fetch (v2) has no default cap, and the CDP SDK's spendControls.maxAmountPerPayment caps only when set.`

/** The headers standard clients send the proof in, then ours (all accepted, payments/gate/proof.ts). */
export const PROOF_HEADER_ADVICE = 'send the signed proof in the X-PAYMENT header (x402 v1) or PAYMENT-SIGNATURE (x402 v2)'

/** The message of a route's unpaid 402: its price, the headers standard clients use, and the cap advice where it applies. */
export const paymentRequiredMessage = (route: Pick<RouteSpec, 'priceUsd'>) =>
  `Payment required: USD ${route.priceUsd} in USDC via x402: ${PROOF_HEADER_ADVICE}.${overCommonCap(route) ? ` The price is over what some clients pay by default: ${COMMON_CAP_ADVICE}` : ''}`
