// The two ceilings of the benchmark, on plain Bun.serve with no framework:
//   plain: a fixed JSON answer (what the runtime can do at all);
//   paid:  the same answer after the same per-request payment crypto as ours — decode the header,
//          EIP-712 digest, signature recovery — so the paid route can be compared with its floor.
// Usage: bun ceiling-server.ts <plain|paid> <port>
import { authorizationDigest, domainSeparator, recoverSigner } from '../../src/payments/eip3009'
import { NETWORKS } from '../../src/payments/networks'

const [mode = 'plain', port = '3999'] = process.argv.slice(2)
const network = NETWORKS['base-sepolia']
const separator = domainSeparator({ ...network.eip712, chainId: network.chainId, verifyingContract: network.asset })
const BODY = JSON.stringify({
  success: true,
  data: { destination: 'Tokyo', country: 'Japan', source_month: '2026-10', summary: { routes: 48, estimated_passengers: 262327, top_origin_city: 'Shanghai' } },
  meta: { request_id: 'req_00000000000000000000000000000000', generated_at: '2026-11-21T00:00:00.000Z', pipeline_version: 'v1' },
  pricing: { amount_usd: '0.10', payment_status: 'paid' },
})
const headers = { 'content-type': 'application/json; charset=utf-8' }

Bun.serve({
  port: Number(port),
  hostname: '127.0.0.1',
  fetch(req) {
    if (mode === 'paid') {
      const header = req.headers.get('x402-payment')
      if (!header) return new Response('{"success":false}', { status: 402, headers })
      const proof = JSON.parse(Buffer.from(header, 'base64').toString())
      const a = proof.payload.authorization
      if (recoverSigner(authorizationDigest(separator, a), proof.payload.signature) !== a.from.toLowerCase()) {
        return new Response('{"success":false}', { status: 402, headers })
      }
    }
    return new Response(BODY, { headers })
  },
})
console.error(`ceiling server (${mode}) on ${port}`)
