// The size of the most frequent answer: the PAYMENT-REQUIRED header (x402 v2, base64 JSON, with the
// sign-in challenge an HTTP 402 carries) and the JSON body (x402 v1 `accepts`) of every route's unpaid
// 402, with one network, three and six. Proxies cap
// response headers (nginx's proxy_buffer_size holds the whole header block: 4 or 8 KB by default), so
// the largest header decides the buffer a seller's proxy needs (docs/operations.md).
// Usage: bun scripts/bench-402-size.ts
import { encodePaymentRequiredHeader } from '@x402/core/http'
import { CATALOG } from '../src/catalog'
import { DEV_PAY_TO } from '../src/config/config'
import { NETWORKS, type NetworkName } from '../src/payments/networks'
import { paymentRequirements, termsFor } from '../src/payments/gate/requirements'
import { withSignInChallenge } from '../src/payments/gate/sign-in'

const SETS: Record<string, NetworkName[]> = {
  '1 network (base)': ['base'],
  '3 networks (base, polygon, arbitrum)': ['base', 'polygon', 'arbitrum'],
  'all 6 networks': Object.keys(NETWORKS) as NetworkName[],
}
const MESSAGE = 'Payment required: USD 0.10 in USDC via x402 (send the proof in the x402-payment header).'
/** A challenge's fresh fields at their real lengths (a 32-hex nonce, ISO times). */
const FRESH = { nonce: '0'.repeat(32), issuedAt: '2026-11-28T00:00:00.000Z', expirationTime: '2026-11-28T00:05:00.000Z' }

const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return { min: sorted[0]!, median: sorted[Math.floor(sorted.length / 2)]!, max: sorted[sorted.length - 1]! }
}

console.log(`| networks | PAYMENT-REQUIRED bytes: min / median / max | largest (route) | v1 body accepts bytes: median / max |`)
console.log('|---|---|---|---|')
for (const [label, names] of Object.entries(SETS)) {
  const offers = names.map((name) => ({ network: NETWORKS[name], payTo: DEV_PAY_TO as `0x${string}` }))
  const sizes = CATALOG.map((route) => {
    const url = `https://api.example.com${route.path}`
    const required = paymentRequirements(
      route,
      offers.map((offer) => termsFor(route, offer)),
      url,
      MESSAGE,
    )
    const header = encodePaymentRequiredHeader(withSignInChallenge(required.v2, FRESH)!).length
    return { id: route.id, header, body: JSON.stringify(required.v1Accepts).length }
  })
  const header = stats(sizes.map((s) => s.header))
  const body = stats(sizes.map((s) => s.body))
  const largest = sizes.reduce((a, b) => (b.header > a.header ? b : a))
  console.log(`| ${label} | ${header.min} / ${header.median} / ${header.max} | ${largest.id} | ${body.median} / ${body.max} |`)
}
