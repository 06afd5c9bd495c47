// The check a CDP-style facilitator makes of every call: `Authorization: Bearer <JWT>` signed by a known
// API key, for exactly this method, host and path, inside its time window, and never seen before.
// Used by scripts/facilitator.ts (FACILITATOR_JWT_KEYS) to stand in for Coinbase's CDP facilitator in tests.
// `jose` is the service's own dependency (src/payments/facilitator/cdp-auth.ts signs with it).
import { createPublicKey } from 'node:crypto'
import { decodeProtectedHeader, importSPKI, jwtVerify, type CryptoKey } from 'jose'

/** Seconds of clock skew allowed on nbf/exp/iat. */
const SKEW_SECONDS = 5
/** Longest lifetime a token may declare (the CDP SDK signs 120 s). */
const MAX_LIFETIME_SECONDS = 300

/** `kid`: the key id the token names, when it could be read. */
export type JwtCheck = { ok: true; kid: string; nonce: string; uri: string } | { ok: false; kid?: string; reason: string }

/**
 * `keys`: key id -> public key PEM (SPKI) of that API key, Ed25519 (EdDSA) or P-256 (ES256).
 * Returns the check of one request; it remembers every nonce it accepted until the token expires.
 */
export async function createJwtGuard(
  keys: Record<string, string>,
  now: () => number = () => Date.now() / 1000,
): Promise<(req: Request) => Promise<JwtCheck>> {
  const known = new Map<string, { key: CryptoKey; alg: 'EdDSA' | 'ES256' }>()
  for (const [kid, pem] of Object.entries(keys)) {
    const type = createPublicKey(pem).asymmetricKeyType
    const alg = type === 'ed25519' ? 'EdDSA' : type === 'ec' ? 'ES256' : null
    if (!alg) throw new Error(`key ${kid}: ${type} keys are not CDP API keys (Ed25519 or EC P-256)`)
    known.set(kid, { key: await importSPKI(pem, alg), alg })
  }
  const seen = new Map<string, number>() // nonce -> exp

  return async (req) => {
    const token = /^Bearer ([\w-]+\.[\w-]+\.[\w-]+)$/.exec(req.headers.get('authorization') ?? '')?.[1]
    if (!token) return { ok: false, reason: 'no bearer token' }
    let header
    try {
      header = decodeProtectedHeader(token)
    } catch {
      return { ok: false, reason: 'malformed token' }
    }
    const entry = typeof header.kid === 'string' ? known.get(header.kid) : undefined
    if (!entry) return { ok: false, reason: `unknown key id ${JSON.stringify(header.kid)}` }
    const kid = header.kid as string
    const refuse = (reason: string): JwtCheck => ({ ok: false, kid, reason })
    let payload
    try {
      ;({ payload } = await jwtVerify(token, entry.key, {
        algorithms: [entry.alg],
        issuer: 'cdp',
        subject: kid,
        typ: 'JWT',
        requiredClaims: ['exp', 'nbf', 'iat'],
        maxTokenAge: MAX_LIFETIME_SECONDS,
        clockTolerance: SKEW_SECONDS,
        currentDate: new Date(now() * 1000),
      }))
    } catch (error) {
      return refuse(`token refused: ${error instanceof Error ? error.message : String(error)}`)
    }
    if (payload.exp! - payload.iat! > MAX_LIFETIME_SECONDS) return refuse('token lifetime too long')
    const url = new URL(req.url)
    const uri = `${req.method} ${url.host}${url.pathname}`
    if (!Array.isArray(payload.uris) || !payload.uris.includes(uri))
      return refuse(`token is for ${JSON.stringify(payload.uris)}, not ${uri}`)
    const nonce = header.nonce
    if (typeof nonce !== 'string' || nonce.length < 16) return refuse('no nonce in the token header')
    const nowSeconds = now()
    for (const [n, exp] of seen) if (exp + SKEW_SECONDS < nowSeconds) seen.delete(n)
    if (seen.has(nonce)) return refuse('replayed token (nonce already used)')
    seen.set(nonce, payload.exp!)
    return { ok: true, kid, nonce, uri }
  }
}
