import { BATCH_SETTLEMENT, type NetworkInfo, type PaymentOffer, PROOF_HEADERS } from '../payments'
import { escapeHtml } from './pages/page'

/** Header names of the x402 exchange, as this server speaks it (see src/payments). */
export const PAYMENT_HEADERS = {
  /** x402 v2 requirements on every 402 (v1 requirements are in the JSON body's `accepts`). */
  requirements: 'PAYMENT-REQUIRED',
  /** Where the client sends its proof: our spec's name first, then x402 v1's and v2's. */
  proof: PROOF_HEADERS,
  /** The settlement receipt on a paid answer (v1 clients read X-PAYMENT-RESPONSE, the same value). */
  receipt: 'PAYMENT-RESPONSE',
} as const

/** The payment terms shared by every route, for people and for agents: the first network's, then every network's. */
export function paymentTerms(offers: readonly PaymentOffer[]) {
  const [first] = offers as [PaymentOffer]
  return {
    protocol: 'x402',
    scheme: 'exact',
    network: first.network.caip2,
    network_name: first.network.name,
    testnet: first.network.testnet,
    asset: first.network.asset,
    asset_symbol: 'USDC',
    pay_to: first.payTo,
    networks: offers.map(({ network, payTo, batch }) => ({
      network: network.caip2,
      schemes: batch ? ['exact', BATCH_SETTLEMENT] : ['exact'],
      network_name: network.name,
      testnet: network.testnet,
      asset: network.asset,
      pay_to: payTo,
      x402_v1: network.v1 !== null,
    })),
    headers: PAYMENT_HEADERS,
  }
}

/** The x402 flow in two sentences (plain text: the JSON front door carries it too). */
export const HOW_TO_PAY =
  `Call a route without payment and it answers 402 Payment Required with its price and terms (x402 v2 in the ${PAYMENT_HEADERS.requirements} header, x402 v1 in the JSON body's accepts). ` +
  `Have any x402 client sign a USDC transferWithAuthorization for exactly that amount and repeat the request with the proof in the ${PAYMENT_HEADERS.proof[0]} header (${PAYMENT_HEADERS.proof
    .slice(1)
    .map((h) => h.toUpperCase())
    .join(' and ')} work too); the answer carries the receipt in ${PAYMENT_HEADERS.receipt}.`

export const networkLabel = (network: NetworkInfo) =>
  `${network.name} (${network.caip2})${network.testnet ? ', a testnet: test USDC, no real money' : ''}`

/** The networks in a sentence: `base (eip155:8453) or polygon (eip155:137)`. */
export const networksLabel = (offers: readonly PaymentOffer[]) =>
  offers.map(({ network }) => networkLabel(network)).join(offers.length > 2 ? ', or ' : ' or ')

/** HOW_TO_PAY as HTML, the header names as code. */
export const HOW_TO_PAY_HTML = escapeHtml(HOW_TO_PAY).replace(
  new RegExp(
    `\\b(${[PAYMENT_HEADERS.requirements, PAYMENT_HEADERS.receipt, ...PAYMENT_HEADERS.proof, ...PAYMENT_HEADERS.proof.map((h) => h.toUpperCase())].join('|')})\\b`,
    'g',
  ),
  '<code>$1</code>',
)

/** The terms as an HTML definition list, a network's rows each; `before` adds rows (already HTML) at the top. */
export function termsHtml(offers: readonly PaymentOffer[], before = ''): string {
  const row = (term: string, value: string) => `<dt>${escapeHtml(term)}</dt><dd>${value}</dd>`
  const networks = offers
    .map(
      ({ network, payTo }) => `${row('Network', escapeHtml(networkLabel(network)))}
${row('Asset', `USDC <code>${escapeHtml(network.asset)}</code>`)}
${row('Pay to', `<code>${escapeHtml(payTo)}</code>`)}`,
    )
    .join('\n')
  return `<dl class="terms">${before}
${networks}
${row('Requirements', `<code>${PAYMENT_HEADERS.requirements}</code> header (x402 v2); <code>accepts</code> in the JSON body (x402 v1)`)}
${row('Proof', PAYMENT_HEADERS.proof.map((h) => `<code>${h}</code>`).join(', '))}
${row('Receipt', `<code>${PAYMENT_HEADERS.receipt}</code> header`)}
</dl>`
}
