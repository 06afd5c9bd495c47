import { randomBytes } from 'node:crypto'
import { importJWK, importPKCS8, SignJWT, type CryptoKey } from 'jose'
import type { CdpApiKey } from './cdp-key'

/** Coinbase's CDP facilitator (x402 v2 routes), as `@coinbase/x402` 2.1.0 names it. */
export const CDP_FACILITATOR_URL = 'https://api.cdp.coinbase.com/platform/v2/x402'

/** How long a token is valid: the CDP SDK's default, two minutes. */
const TOKEN_SECONDS = 120

/**
 * The `Correlation-Context` header `@coinbase/x402` 2.1.0 sends with each call (which SDK is calling);
 * its values are that package's, since these tokens are the ones it would make.
 */
export const CDP_CORRELATION = 'sdk_version=1.29.0,sdk_language=typescript,source=x402,source_version=2.1.0'

/**
 * Signs the bearer tokens of CDP's API for one key, with `jose`, as the CDP SDK (`@coinbase/cdp-sdk`'s
 * `generateJwt`, which `@coinbase/x402` calls) makes them: header `{alg, kid: key id, typ: JWT, nonce: 16
 * random bytes in hex}`, claims `{sub: key id, iss: cdp, uris: ["<METHOD> <host><path>"], iat, nbf, exp
 * two minutes on}`. The SDK itself brings ~350 packages (wallets, Solana) for this one token per call;
 * test/payments/facilitator/facilitator-jwt.test.ts checks tokens of both against the same verifier.
 */
export class CdpSigner {
  private constructor(
    private readonly keyId: string,
    private readonly algorithm: CdpApiKey['algorithm'],
    private readonly key: CryptoKey,
  ) {}

  /** Imports the key once; a secret `jose` cannot use is refused here (cdp-key.ts checked its form already). */
  static async of(apiKey: CdpApiKey): Promise<CdpSigner> {
    const secret = apiKey.secret.reveal()
    if (apiKey.algorithm === 'ES256') return new CdpSigner(apiKey.id, 'ES256', await importPKCS8(secret, 'ES256'))
    // An Ed25519 secret is 64 bytes in base64: the seed, then the public key.
    const bytes = Buffer.from(secret, 'base64')
    const jwk = { kty: 'OKP', crv: 'Ed25519', d: bytes.subarray(0, 32).toString('base64url'), x: bytes.subarray(32).toString('base64url') }
    return new CdpSigner(apiKey.id, 'EdDSA', (await importJWK(jwk, 'EdDSA')) as CryptoKey)
  }

  /** `Authorization` value for one call: `Bearer <token>`, bound to its method, host and path. */
  async authorization(method: string, host: string, path: string, now = Math.floor(Date.now() / 1000)): Promise<string> {
    const token = await new SignJWT({ sub: this.keyId, iss: 'cdp', uris: [`${method} ${host}${path}`] })
      .setProtectedHeader({ alg: this.algorithm, kid: this.keyId, typ: 'JWT', nonce: randomBytes(16).toString('hex') })
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + TOKEN_SECONDS)
      .sign(this.key)
    return `Bearer ${token}`
  }
}
