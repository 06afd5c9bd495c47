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

/** Nothing listening (or a name that does not resolve): said in one line, not a stack trace. */
function notRunning(error) {
  const cause = error?.cause?.code ?? error?.code ?? error?.message
  console.error(`Could not reach ${new URL(url).origin} (${cause}). Is the service running? Start it with: npm start`)
  process.exit(1)
}

const response = await fetchWithPayment(url).catch(notRunning)
const type = response.headers.get('content-type') ?? ''
if (!response.ok) {
  const body = type.includes('json') ? await response.json() : { error: { message: await response.text() } }
  console.error(`${response.status} ${body.error?.code ?? ''}: ${body.error?.message}`)
  process.exit(1)
}
// A table route asked with format=csv or format=arrow answers the table itself, not JSON.
if (type.includes('json')) console.log(JSON.stringify(await response.json(), null, 2))
else if (type.startsWith('text/')) process.stdout.write(await response.text())
else {
  const bytes = new Uint8Array(await response.arrayBuffer())
  if (process.stdout.isTTY)
    console.error(`${bytes.length} bytes of ${type}: redirect them to a file (node examples/pay.mjs '${url}' > answer.arrows)`)
  else process.stdout.write(bytes)
}
const receipt = response.headers.get('payment-response')
if (receipt) console.error('receipt:', JSON.stringify(decodePaymentResponseHeader(receipt)))
