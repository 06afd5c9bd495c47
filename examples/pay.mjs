#!/usr/bin/env node
/**
 * Pays for one answer of the API over HTTP, from plain Node.js, with the x402 v2 client (`@x402/fetch`
 * and `@x402/evm`): the first request gets a 402 with the payment requirements, the client signs one
 * (an EIP-3009 USDC authorization, nothing is sent on chain by the buyer) and repeats the request with
 * the proof; the answer comes with the seller's receipt in the PAYMENT-RESPONSE header.
 *
 *   node examples/pay.mjs [url]
 *
 * url: a paid route (default: flight arrivals to Tokyo on http://localhost:3000). The wallet is
 * BUYER_PRIVATE_KEY, or a throwaway key (see buyer-key.mjs). The client refuses to pay more than its
 * default cap of USD 1 per request (@x402/core's spend controls); every route of this API costs less.
 */
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from '@x402/fetch'
import { registerExactEvmScheme } from '@x402/evm/exact/client'
import { buyerAccount } from './buyer-key.mjs'

const url = process.argv[2] ?? 'http://localhost:3000/v1/market-data/flights/summary?destination=Tokyo'

const client = new x402Client()
registerExactEvmScheme(client, { signer: buyerAccount() })
const fetchWithPayment = wrapFetchWithPayment(fetch, client)

const response = await fetchWithPayment(url)
const body = await response.json()
if (!response.ok) {
  console.error(`${response.status} ${body.error?.code}: ${body.error?.message}`)
  process.exit(1)
}
const receipt = response.headers.get('payment-response')
console.log(JSON.stringify(body, null, 2))
if (receipt) console.error('receipt:', JSON.stringify(decodePaymentResponseHeader(receipt)))
