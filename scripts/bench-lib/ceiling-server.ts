// The ceilings of the benchmark, on plain Bun.serve with no framework:
//   plain:      a fixed JSON answer (what the runtime can do at all);
//   same-402:   the very bytes (status, headers, body) our service answers an unpaid request with,
//               fetched once from it at start: the floor of the 402 path;
//   paid:       the same answer after the same per-request payment crypto as ours — decode the header,
//               EIP-712 digest, signature recovery (whichever recovery the service runs) — so the paid
//               route can be compared with its floor;
//   paid-viem:  the same with viem's recoverTypedDataAddress, the usual way to check an EIP-3009 proof.
// Usage: bun ceiling-server.ts <plain|same-402|paid|paid-viem> <port> [service URL for same-402]
import { recoverTypedDataAddress } from 'viem'
import { authorizationDigest, domainSeparator, recoverSigner } from '../../src/payments/chain/eip3009'
import { NETWORKS } from '../../src/payments/networks'
import { TRANSFER_WITH_AUTHORIZATION } from '../../src/payments/chain/sign'

const [mode = 'plain', port = '3999', serviceUrl] = process.argv.slice(2)
const network = NETWORKS['base-sepolia']
const domain = { ...network.eip712, chainId: network.chainId, verifyingContract: network.asset }
const separator = domainSeparator(domain)
const BODY = JSON.stringify({
  success: true,
  data: {
    destination: 'Tokyo',
    country: 'Japan',
    source_month: '2026-10',
    summary: { routes: 48, estimated_passengers: 262327, top_origin_city: 'Shanghai' },
  },
  meta: { request_id: 'req_00000000000000000000000000000000', generated_at: '2026-11-21T00:00:00.000Z', pipeline_version: 'v1' },
  pricing: { amount_usd: '0.10', payment_status: 'paid' },
})
const headers = { 'content-type': 'application/json; charset=utf-8' }
const refused = () => new Response('{"success":false}', { status: 402, headers })

type Proof = { payload: { authorization: Parameters<typeof authorizationDigest>[1]; signature: `0x${string}` } }
const decode = (req: Request): Proof | null => {
  const header = req.headers.get('x402-payment')
  return header ? (JSON.parse(Buffer.from(header, 'base64').toString()) as Proof) : null
}

let fetchHandler: (req: Request) => Response | Promise<Response>
if (mode === 'same-402') {
  if (!serviceUrl) throw new Error('same-402 needs the service URL of a paid route')
  const response = await fetch(serviceUrl)
  if (response.status !== 402) throw new Error(`expected a 402 from ${serviceUrl}, got ${response.status}`)
  const body = new Uint8Array(await response.arrayBuffer())
  const sameHeaders: [string, string][] = []
  response.headers.forEach((value, name) => void (name !== 'date' && name !== 'content-length' && sameHeaders.push([name, value])))
  fetchHandler = () => new Response(body, { status: 402, headers: sameHeaders })
} else if (mode === 'paid') {
  fetchHandler = (req) => {
    const proof = decode(req)
    if (!proof) return refused()
    const authorization = proof.payload.authorization
    return recoverSigner(authorizationDigest(separator, authorization), proof.payload.signature) === authorization.from.toLowerCase()
      ? new Response(BODY, { headers })
      : refused()
  }
} else if (mode === 'paid-viem') {
  fetchHandler = async (req) => {
    const proof = decode(req)
    if (!proof) return refused()
    const authorization = proof.payload.authorization
    const message = {
      ...authorization,
      value: BigInt(authorization.value),
      validAfter: BigInt(authorization.validAfter),
      validBefore: BigInt(authorization.validBefore),
    }
    const signer = await recoverTypedDataAddress({
      domain,
      types: TRANSFER_WITH_AUTHORIZATION,
      primaryType: 'TransferWithAuthorization',
      message,
      signature: proof.payload.signature,
    }).catch(() => null)
    return signer?.toLowerCase() === authorization.from.toLowerCase() ? new Response(BODY, { headers }) : refused()
  }
} else {
  fetchHandler = () => new Response(BODY, { headers })
}

Bun.serve({ port: Number(port), hostname: '127.0.0.1', fetch: fetchHandler })
console.error(`ceiling server (${mode}) on ${port}`)
