#!/usr/bin/env node
/**
 * Signs a payment for an x402 v2 402 answer and prints the value of its PAYMENT-SIGNATURE header: the
 * signing step of curl.sh, for any HTTP client that can copy a header.
 *
 *   node examples/sign.mjs <value of the PAYMENT-REQUIRED header>
 *
 * The wallet is BUYER_PRIVATE_KEY, or a throwaway key (see buyer-key.mjs).
 */
import { x402Client, x402HTTPClient } from '@x402/core/client'
import { registerExactEvmScheme } from '@x402/evm/exact/client'
import { buyerAccount } from './buyer-key.mjs'

const header = process.argv[2]
if (!header) {
  console.error('usage: node examples/sign.mjs <value of the PAYMENT-REQUIRED header>')
  process.exit(2)
}
const client = new x402Client()
registerExactEvmScheme(client, { signer: buyerAccount() })
const http = new x402HTTPClient(client)
const required = http.getPaymentRequiredResponse((name) => (name.toLowerCase() === 'payment-required' ? header : null))
const headers = http.encodePaymentSignatureHeader(await client.createPaymentPayload(required))
console.log(headers['PAYMENT-SIGNATURE'])
