import { createPrivateKey, createPublicKey } from 'node:crypto'

/**
 * A value that must never be printed. JSON, string conversion and `console.log`/`Bun.inspect` show a
 * placeholder; only `reveal()` gives the value, at the one place that signs with it.
 */
export class Secret {
  readonly #value: string
  constructor(value: string) {
    this.#value = value
  }
  reveal(): string {
    return this.#value
  }
  toString(): string {
    return '[redacted]'
  }
  toJSON(): string {
    return '[redacted]'
  }
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return 'Secret([redacted])'
  }
}

/** JWT algorithm of a CDP API key: Ed25519 keys (CDP's default) sign EdDSA, ECDSA keys ES256. */
export type CdpKeyAlgorithm = 'EdDSA' | 'ES256'

export interface CdpApiKey {
  id: string
  algorithm: CdpKeyAlgorithm
  /** In the form `@coinbase/cdp-sdk` signs with: base64 seed+public key (Ed25519) or a PKCS#8 PEM (ES256). */
  secret: Secret
}

/**
 * Reads a CDP API key secret as CDP issues it: the base64 Ed25519 secret (64 bytes: seed, then public
 * key) or an EC P-256 private key PEM. Returns the algorithm and the secret in the form the CDP SDK
 * takes, or why it is unusable. The reason never quotes the secret.
 */
export function parseCdpSecret(raw: string): { algorithm: CdpKeyAlgorithm; secret: Secret } | { error: string } {
  const text = raw.trim()
  if (text.includes('-----BEGIN')) return parsePem(text)
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) {
    return {
      error: 'not a CDP API key secret: expected the base64 Ed25519 secret or an EC private key PEM (-----BEGIN EC PRIVATE KEY-----)',
    }
  }
  const bytes = Buffer.from(text, 'base64')
  if (bytes.length !== 64)
    return { error: `a base64 Ed25519 secret decodes to 64 bytes, this one to ${bytes.length} (truncated or not the secret?)` }
  const seed = bytes.subarray(0, 32).toString('base64url')
  const xCoordinate = bytes.subarray(32).toString('base64url')
  // The second half is the public key of the first: a secret altered in transit fails here, at start,
  // instead of as a 401 on the first payment.
  try {
    const derived = createPublicKey(
      createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d: seed, x: xCoordinate }, format: 'jwk' }),
    ).export({
      format: 'jwk',
    }).x
    if (derived !== xCoordinate)
      return { error: "the Ed25519 secret's public half does not match its private half (altered or mis-copied?)" }
  } catch {
    return { error: 'not a usable Ed25519 key' }
  }
  return { algorithm: 'EdDSA', secret: new Secret(text) }
}

function parsePem(text: string): { algorithm: CdpKeyAlgorithm; secret: Secret } | { error: string } {
  // Env files often carry a PEM on one line with literal \n escapes.
  const pem = text.replaceAll('\\n', '\n')
  let key
  try {
    key = createPrivateKey(pem)
  } catch {
    return { error: 'not a readable PEM private key (expected -----BEGIN EC PRIVATE KEY----- … as CDP issues it)' }
  }
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    return {
      error: `a ${key.asymmetricKeyType} PEM key, but a CDP PEM secret is an EC P-256 (ES256) key; Ed25519 secrets are given in base64`,
    }
  }
  // CDP hands out SEC1 ("EC PRIVATE KEY") PEMs, the SDK's signer imports PKCS#8 only.
  return { algorithm: 'ES256', secret: new Secret(key.export({ type: 'pkcs8', format: 'pem' }) as string) }
}
