// A standalone x402 facilitator on `@x402/core` + `@x402/evm`: POST /verify, POST /settle, GET /supported,
// the standard API any x402 resource server speaks (PAYMENT_MODE=facilitator points at it). For sellers
// who want one settling process for several service instances, and for the end-to-end tests.
// Env: FACILITATOR_RPC_URL, FACILITATOR_PRIVATE_KEY (pays gas), FACILITATOR_NETWORK (base-sepolia, or several: base,polygon
//      with FACILITATOR_RPC_URL_POLYGON for each further network),
//      FACILITATOR_AUTH_TOKEN (optional: require `Authorization: Bearer <token>`), PORT (4020), HOST (127.0.0.1),
//      FACILITATOR_JWT_KEYS (optional: JSON {"<key id>": "<public key PEM>"}; require a fresh CDP-style JWT
//      signed by one of these keys on every call, as Coinbase's CDP facilitator does; each checked call is
//      logged on stderr as `auth ok …` or `auth refused …`).
// Usage: bun scripts/facilitator.ts
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types'
import { createEvmFacilitator } from '../src/payments/chain/evm-facilitator'
import { NETWORKS, type NetworkName } from '../src/payments/networks'
import { ChainUnavailableError, verifyingWithChain } from '../src/payments/chain/rpc-watch'
import { createJwtGuard, type JwtCheck } from './facilitator-jwt'

const env = process.env
// One network or several (comma-separated); each but the first needs FACILITATOR_RPC_URL_<NETWORK> (POLYGON, BASE_SEPOLIA).
const networks = (env.FACILITATOR_NETWORK ?? 'base-sepolia').split(',').map((n) => n.trim()) as NetworkName[]
for (const network of networks)
  if (!(network in NETWORKS)) throw new Error(`FACILITATOR_NETWORK: ${network} is not one of ${Object.keys(NETWORKS).join(', ')}`)
const rpcOf = (network: NetworkName, index: number) =>
  env[`FACILITATOR_RPC_URL_${network.toUpperCase().replaceAll('-', '_')}`] ?? (index === 0 ? env.FACILITATOR_RPC_URL : undefined)
if (networks.some((n, i) => !rpcOf(n, i)) || !/^0x[0-9a-fA-F]{64}$/.test(env.FACILITATOR_PRIVATE_KEY ?? '')) {
  console.error(
    'FACILITATOR_RPC_URL (FACILITATOR_RPC_URL_<NETWORK> for each further network) and FACILITATOR_PRIVATE_KEY (0x + 64 hex) are required',
  )
  process.exit(2)
}
const { facilitator, address } = createEvmFacilitator({
  networks: networks.map((network, index) => ({ network, rpcUrl: rpcOf(network, index)! })),
  privateKey: env.FACILITATOR_PRIVATE_KEY as `0x${string}`,
  // batch-settlement too: its deposits, claims, settlements and refunds (the seller's key authorizes them).
  batchNetworks: networks,
})
const token = env.FACILITATOR_AUTH_TOKEN
if (token && env.FACILITATOR_JWT_KEYS) {
  console.error('FACILITATOR_AUTH_TOKEN and FACILITATOR_JWT_KEYS both set: choose one way to authenticate callers')
  process.exit(2)
}
const jwt = env.FACILITATOR_JWT_KEYS ? await createJwtGuard(JSON.parse(env.FACILITATOR_JWT_KEYS) as Record<string, string>) : null

/** null when the caller may go on; otherwise the 401 to answer. */
async function authenticate(req: Request, path: string): Promise<Response | null> {
  if (token) return req.headers.get('authorization') === `Bearer ${token}` ? null : json({ error: 'unauthorized' }, 401)
  if (!jwt) return null
  const check: JwtCheck = await jwt(req)
  console.error(
    `auth ${check.ok ? 'ok' : 'refused'} ${req.method} ${path} kid=${check.kid ?? '-'} ${check.ok ? `nonce=${check.nonce} uri=${check.uri}` : `reason=${check.reason}`}`,
  )
  return check.ok ? null : json({ error: 'unauthorized', reason: check.reason }, 401)
}

const json = (body: unknown, status = 200) => Response.json(body, { status })

async function readRequest(req: Request): Promise<{ paymentPayload: PaymentPayload; paymentRequirements: PaymentRequirements } | Response> {
  let body: { paymentPayload?: unknown; paymentRequirements?: unknown }
  try {
    body = (await req.json()) as typeof body
  } catch {
    return json({ error: 'body is not JSON' }, 400)
  }
  if (typeof body?.paymentPayload !== 'object' || typeof body?.paymentRequirements !== 'object') {
    return json({ error: 'paymentPayload and paymentRequirements are required' }, 400)
  }
  return body as { paymentPayload: PaymentPayload; paymentRequirements: PaymentRequirements }
}

/** Verification that tells an RPC outage from a refusal (src/payments/chain/rpc-watch.ts). */
const checked = verifyingWithChain(facilitator)

const server = Bun.serve({
  port: Number(env.PORT ?? 4020),
  hostname: env.HOST ?? '127.0.0.1',
  async fetch(req) {
    const path = new URL(req.url).pathname
    const refused = await authenticate(req, path)
    if (refused) return refused
    try {
      if (req.method === 'GET' && path === '/supported') return json(facilitator.getSupported())
      if (req.method === 'POST' && (path === '/verify' || path === '/settle')) {
        const parsed = await readRequest(req)
        if (parsed instanceof Response) return parsed
        return json(
          path === '/verify'
            ? await checked.verify(parsed.paymentPayload, parsed.paymentRequirements)
            : await facilitator.settle(parsed.paymentPayload, parsed.paymentRequirements),
        )
      }
      return json({ error: 'not found' }, 404)
    } catch (error) {
      // The chain's RPC did not answer: no verdict, a 503 (a refusal would make the seller turn the buyer away).
      const status = error instanceof ChainUnavailableError ? 503 : 500
      console.error(`${path}: ${error instanceof Error ? error.message : String(error)}`)
      return json({ error: error instanceof Error ? error.message : String(error) }, status)
    }
  },
})
console.error(
  `x402 facilitator on http://${server.hostname}:${server.port} for ${networks.map((n) => `${n} (${NETWORKS[n].caip2})`).join(', ')}; settles from ${address}`,
)
