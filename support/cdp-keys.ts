import { createPrivateKey, generateKeyPairSync, randomUUID } from 'node:crypto'

/** A throwaway CDP API key: its id, the secret as CDP hands it out, and the public key a facilitator checks with. */
export interface TestCdpKey {
  id: string
  secret: string
  publicPem: string
}

/** Ed25519 (CDP's default): the secret is base64 of the 32-byte seed followed by the 32-byte public key. */
export function ed25519Key(id: string = randomUUID()): TestCdpKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519')
  const jwk = privateKey.export({ format: 'jwk' })
  const secret = Buffer.concat([Buffer.from(jwk.d!, 'base64url'), Buffer.from(jwk.x!, 'base64url')]).toString('base64')
  return { id, secret, publicPem: publicKey.export({ type: 'spki', format: 'pem' }) as string }
}

/** ECDSA P-256 (ES256): the secret is an SEC1 PEM, `-----BEGIN EC PRIVATE KEY-----`, as CDP issues it. */
export function es256Key(id: string = `organizations/${randomUUID()}/apiKeys/${randomUUID()}`): TestCdpKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  return {
    id,
    secret: privateKey.export({ type: 'sec1', format: 'pem' }) as string,
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }) as string,
  }
}

/** FACILITATOR_JWT_KEYS of scripts/facilitator.ts: the keys whose tokens it accepts. */
export const jwtKeysEnv = (...keys: TestCdpKey[]) => JSON.stringify(Object.fromEntries(keys.map((k) => [k.id, k.publicPem])))

/** One call the facilitator checked, from its `auth ok|refused METHOD /path kid=… nonce=…|reason=…` lines. */
export interface AuthLine {
  ok: boolean
  method: string
  path: string
  kid: string
  nonce?: string
  uri?: string
  reason?: string
}

export function authLines(output: string): AuthLine[] {
  return [...output.matchAll(/^auth (ok|refused) (\S+) (\S+) kid=(\S+) (?:nonce=(\S+) uri=(\S+ \S+)|reason=(.*))$/gm)].map((match) => ({
    ok: match[1] === 'ok',
    method: match[2]!,
    path: match[3]!,
    kid: match[4]!,
    ...(match[5] ? { nonce: match[5], uri: match[6] } : { reason: match[7] }),
  }))
}

/**
 * Substrings of a secret that must never appear in output: a base64 secret whole and its ends; for a PEM,
 * each line of its body and of the PKCS#8 form the service converts it to.
 */
export function secretFragments(secret: string): string[] {
  if (!secret.includes('-----BEGIN')) return [secret, secret.slice(0, 16), secret.slice(-16)]
  const pkcs8 = createPrivateKey(secret).export({ type: 'pkcs8', format: 'pem' }) as string
  return [...new Set(`${secret}\n${pkcs8}`.split('\n').filter((l) => l.length >= 16 && !l.startsWith('-----')))]
}
