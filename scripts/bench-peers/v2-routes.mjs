// The x402 v2 setup shared by hono-v2.ts (Bun) and express-v2.mjs (Node), plain JS so Node runs it as is:
// one paid route priced USD 0.10 in USDC on Base Sepolia, Polygon Amoy and Arbitrum Sepolia, with the bazaar
// discovery extension declared and registered; @x402/core, @x402/evm and @x402/extensions 2.27.0.
import { HTTPFacilitatorClient, x402ResourceServer } from '@x402/core/server'
import { ExactEvmScheme } from '@x402/evm/exact/server'
import { bazaarResourceServerExtension, declareDiscoveryExtension } from '@x402/extensions/bazaar'

export const PATH = '/v1/market-data/flights/summary'
export const NETWORKS = ['eip155:84532', 'eip155:80002', 'eip155:421614']
const payTo = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720'
// @x402/evm has no default asset on Polygon Amoy, so that price names Circle's USDC there (6 decimals, as x402 v1 does)
const AMOY_USDC = { amount: '100000', asset: '0x41E94Eb019C0762f9Bfcf9Fb1E58725BfB0e7582', extra: { name: 'USDC', version: '2' } }

export const routes = {
  [`GET ${PATH}`]: {
    accepts: NETWORKS.map((network) => ({ scheme: 'exact', network, payTo, price: network === 'eip155:80002' ? AMOY_USDC : '$0.10' })),
    description: 'Latest or month-specific destination summary',
    mimeType: 'application/json',
    extensions: declareDiscoveryExtension({
      input: { destination: 'Tokyo' },
      inputSchema: { properties: { destination: { type: 'string' } }, required: ['destination'] },
      output: { example: { destination: 'Tokyo', country: 'Japan', source_month: '2025-01', summary: { routes: 42 } } },
    }),
  },
}

/** A resource server that syncs with the facilitator at `url` (GET /supported) and knows the three networks. */
export function resourceServer(url) {
  const server = new x402ResourceServer(new HTTPFacilitatorClient({ url }))
  for (const network of NETWORKS) server.register(network, new ExactEvmScheme())
  return server.registerExtension(bazaarResourceServerExtension)
}

/** The paid handler: never reached without a payment. */
export const summary = (destination) => ({ destination, country: 'Japan', source_month: '2025-01', summary: { routes: 42 } })
