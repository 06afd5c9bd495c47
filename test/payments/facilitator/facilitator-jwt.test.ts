import { beforeAll, describe, expect, test } from 'bun:test'
import { createPrivateKey, randomBytes } from 'node:crypto'
import { createAuthHeader } from '@coinbase/x402'
import { SignJWT } from 'jose'
import { createJwtGuard, type JwtCheck } from '../../../scripts/facilitator-jwt'
import { CdpSigner } from '../../../src/payments/facilitator/cdp-auth'
import { parseCdpSecret } from '../../../src/payments/facilitator/cdp-key'
import { ed25519Key, es256Key, type TestCdpKey } from '../../../support/cdp-keys'

/**
 * The token check of the local stand-in for Coinbase's CDP facilitator (scripts/facilitator-jwt.ts):
 * tokens made by `@coinbase/x402` (the CDP SDK's signer) pass; every way a token can be wrong is a
 * refusal. Crafted tokens are signed with `jose` (a dependency of @coinbase/cdp-sdk, not of ours).
 */

const HOST = '127.0.0.1:4020'
const ed = ed25519Key()
const ec = es256Key()
let guard: (req: Request) => Promise<JwtCheck>
/** The guard's clock, settable: time passes without waiting. */
let clock = Date.now() / 1000

beforeAll(async () => {
  guard = await createJwtGuard({ [ed.id]: ed.publicPem, [ec.id]: ec.publicPem }, () => clock)
})

const request = (method: string, path: string, authorization?: string) =>
  new Request(`http://${HOST}${path}`, { method, headers: authorization ? { authorization } : {} })

/** The CDP SDK's token for a call, as `@coinbase/x402` makes it (ES256 keys go in PKCS#8, as the service hands them on). */
const sdkToken = (key: TestCdpKey, method: string, path: string, host = HOST) => {
  const secret = key.secret.includes('BEGIN')
    ? (createPrivateKey(key.secret).export({ type: 'pkcs8', format: 'pem' }) as string)
    : key.secret
  return createAuthHeader(key.id, secret, method, host, path)
}

/** A token with the claims the CDP SDK uses, any of which a test may change. */
async function crafted(
  o: {
    key?: TestCdpKey
    kid?: string
    uris?: string[]
    iat?: number
    nbf?: number
    exp?: number
    nonce?: string | null
    iss?: string
    sub?: string
  } = {},
) {
  const key = o.key ?? ed
  const now = Math.floor(Date.now() / 1000)
  const jwk = createPrivateKey(key.secret.includes('BEGIN') ? key.secret : { key: edJwk(key.secret), format: 'jwk' })
  const header: Record<string, unknown> = { alg: key === ec ? 'ES256' : 'EdDSA', kid: o.kid ?? key.id, typ: 'JWT' }
  if (o.nonce !== null) header.nonce = o.nonce ?? randomBytes(16).toString('hex')
  const jwt = await new SignJWT({ uris: o.uris ?? [`POST ${HOST}/verify`] })
    .setProtectedHeader(header as never)
    .setIssuer(o.iss ?? 'cdp')
    .setSubject(o.sub ?? key.id)
    .setIssuedAt(o.iat ?? now)
    .setNotBefore(o.nbf ?? now)
    .setExpirationTime(o.exp ?? now + 120)
    .sign(jwk)
  return `Bearer ${jwt}`
}

function edJwk(secret: string) {
  const b = Buffer.from(secret, 'base64')
  return { kty: 'OKP', crv: 'Ed25519', d: b.subarray(0, 32).toString('base64url'), x: b.subarray(32).toString('base64url') }
}

describe('tokens of the CDP SDK are accepted, once', () => {
  for (const [name, key] of [
    ['Ed25519 (EdDSA)', ed],
    ['ECDSA P-256 (ES256)', ec],
  ] as const) {
    test(`${name}: accepted for its method, host and path; the same token again is refused as a replay`, async () => {
      clock = Date.now() / 1000
      const auth = await sdkToken(key, 'POST', '/verify')
      const first = await guard(request('POST', '/verify', auth))
      expect(first).toMatchObject({ ok: true, kid: key.id, uri: `POST ${HOST}/verify` })
      expect(await guard(request('POST', '/verify', auth))).toEqual({
        ok: false,
        kid: key.id,
        reason: 'replayed token (nonce already used)',
      })
      // A fresh token for the same call is fine: every token carries its own nonce.
      expect(await guard(request('POST', '/verify', await sdkToken(key, 'POST', '/verify')))).toMatchObject({ ok: true })
    })
  }

  test('a token for another path, method or host is refused', async () => {
    clock = Date.now() / 1000
    expect(await guard(request('POST', '/settle', await sdkToken(ed, 'POST', '/verify')))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('not POST 127.0.0.1:4020/settle'),
    })
    expect(await guard(request('GET', '/verify', await sdkToken(ed, 'POST', '/verify')))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('not GET'),
    })
    expect(await guard(request('POST', '/verify', await sdkToken(ed, 'POST', '/verify', 'api.cdp.coinbase.com')))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('api.cdp.coinbase.com/verify'),
    })
  })
})

describe("the service's own signer (cdp-auth.ts) makes the CDP SDK's tokens", () => {
  const decoded = (auth: string) => {
    const [header, payload] = auth
      .slice('Bearer '.length)
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part!, 'base64url').toString()))
    return { header, payload }
  }
  const signerOf = (key: TestCdpKey) => {
    const parsed = parseCdpSecret(key.secret)
    if ('error' in parsed) throw new Error(parsed.error)
    return CdpSigner.of({ id: key.id, ...parsed })
  }

  for (const [name, key] of [
    ['Ed25519 (EdDSA)', ed],
    ['ECDSA P-256 (ES256)', ec],
  ] as const) {
    test(`${name}: the same header and claims as the SDK's token (but the nonce), accepted once by the same verifier`, async () => {
      clock = Date.now() / 1000
      const now = Math.floor(Date.now() / 1000)
      const ours = await (await signerOf(key)).authorization('POST', HOST, '/verify', now)
      const sdk = await sdkToken(key, 'POST', '/verify')
      const [a, b] = [decoded(ours), decoded(sdk)]
      expect(Object.keys(a.header).sort()).toEqual(Object.keys(b.header).sort())
      expect({ ...a.header, nonce: 'n' }).toEqual({ ...b.header, nonce: 'n' })
      expect(a.header.nonce).toMatch(/^[0-9a-f]{32}$/)
      expect(a.header.nonce).not.toBe(b.header.nonce)
      expect(Object.keys(a.payload).sort()).toEqual(Object.keys(b.payload).sort())
      expect(a.payload).toEqual({ ...b.payload, iat: now, nbf: now, exp: now + 120 })
      expect(b.payload.exp - b.payload.iat).toBe(120)
      expect(await guard(request('POST', '/verify', ours))).toMatchObject({ ok: true, kid: key.id, uri: `POST ${HOST}/verify` })
      expect(await guard(request('POST', '/verify', ours))).toMatchObject({ ok: false, reason: 'replayed token (nonce already used)' })
    })
  }
})

describe('everything else is refused', () => {
  test('no token, a malformed one, an unknown key id', async () => {
    expect(await guard(request('POST', '/verify'))).toEqual({ ok: false, reason: 'no bearer token' })
    expect(await guard(request('POST', '/verify', 'Bearer a.b.c'))).toEqual({ ok: false, reason: 'malformed token' })
    expect(await guard(request('POST', '/verify', await crafted({ kid: 'someone-else' })))).toEqual({
      ok: false,
      reason: 'unknown key id "someone-else"',
    })
  })

  test('signed by another key under a known key id (a wrong secret)', async () => {
    clock = Date.now() / 1000
    const impostor = ed25519Key(ed.id)
    expect(await guard(request('POST', '/verify', await sdkToken(impostor, 'POST', '/verify')))).toMatchObject({
      ok: false,
      kid: ed.id,
      reason: expect.stringContaining('signature verification failed'),
    })
  })

  test('expired, not yet valid, or too long-lived', async () => {
    const now = Math.floor(Date.now() / 1000)
    clock = now
    const auth = await sdkToken(ed, 'POST', '/verify')
    clock = now + 200 // the SDK's tokens live 120 s
    expect(await guard(request('POST', '/verify', auth))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('"exp" claim timestamp check failed'),
    })
    clock = now
    expect(await guard(request('POST', '/verify', await crafted({ nbf: now + 60, iat: now + 60, exp: now + 180 })))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('"nbf" claim timestamp check failed'),
    })
    expect(await guard(request('POST', '/verify', await crafted({ exp: now + 3600 })))).toMatchObject({
      ok: false,
      reason: 'token lifetime too long',
    })
  })

  test('no nonce, or claims CDP tokens do not have', async () => {
    clock = Date.now() / 1000
    expect(await guard(request('POST', '/verify', await crafted({ nonce: null })))).toMatchObject({
      ok: false,
      reason: 'no nonce in the token header',
    })
    expect(await guard(request('POST', '/verify', await crafted({ iss: 'someone' })))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('"iss"'),
    })
    expect(await guard(request('POST', '/verify', await crafted({ sub: 'another-key' })))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('"sub"'),
    })
    // The crafted token itself is fine: the refusals above are for what was changed.
    expect(await guard(request('POST', '/verify', await crafted()))).toMatchObject({ ok: true })
  })
})
