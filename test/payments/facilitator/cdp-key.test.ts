import { describe, expect, test } from 'bun:test'
import { generateKeyPairSync } from 'node:crypto'
import { resolve } from 'node:path'
import { ConfigError } from '../../../src/core/config-error'
import { loadConfig } from '../../../src/config/config'
import { parseCdpSecret, Secret } from '../../../src/payments/facilitator/cdp-key'
import { ed25519Key, es256Key, secretFragments } from '../../../support/cdp-keys'

/** CDP API key settings: what start-up accepts, what it refuses, and that a refusal never quotes the secret. */

const ROOT = resolve(import.meta.dir, '../../..')
const PAY_TO = '0x1111111111111111111111111111111111111111'

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env)
  } catch (e) {
    if (e instanceof ConfigError) return e
    throw e
  }
  throw new Error('loadConfig accepted it')
}

describe('CDP_API_KEY_SECRET formats', () => {
  test('the base64 Ed25519 secret CDP issues is read as EdDSA, kept as given', () => {
    const key = ed25519Key()
    const parsed = parseCdpSecret(key.secret)
    expect(parsed).toMatchObject({ algorithm: 'EdDSA' })
    expect((parsed as { secret: Secret }).secret.reveal()).toBe(key.secret)
  })

  test('an EC P-256 PEM is ES256, SEC1 or PKCS#8, with real newlines or \\n escapes; it is handed on as PKCS#8 (what the CDP SDK imports)', () => {
    const key = es256Key()
    for (const form of [key.secret, key.secret.replaceAll('\n', '\\n'), `  ${key.secret}  `]) {
      const parsed = parseCdpSecret(form) as { algorithm: string; secret: Secret }
      expect(parsed.algorithm).toBe('ES256')
      expect(parsed.secret.reveal()).toStartWith('-----BEGIN PRIVATE KEY-----\n')
    }
  })

  const ed = ed25519Key()
  const bytes = Buffer.from(ed.secret, 'base64')
  const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string
  const edPem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }) as string
  for (const [what, secret, reason] of [
    ['a truncated Ed25519 secret', ed.secret.slice(0, 60), /decodes to 64 bytes, this one to 45/],
    [
      'an Ed25519 secret whose public half was altered',
      Buffer.concat([bytes.subarray(0, 32), Buffer.alloc(32, 7)]).toString('base64'),
      /public half does not match/,
    ],
    ['text that is neither base64 nor PEM', 'not a key at all!', /expected the base64 Ed25519 secret or an EC private key PEM/],
    ['a PEM with a broken body', '-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----', /not a readable PEM private key/],
    ['an RSA PEM', rsa, /a rsa PEM key, but a CDP PEM secret is an EC P-256/],
    ['an Ed25519 key as PEM', edPem, /a ed25519 PEM key/],
  ] as const) {
    test(`${what} stops start-up naming CDP_API_KEY_SECRET, without quoting it`, () => {
      const e = configError({ CDP_API_KEY_ID: 'k1', CDP_API_KEY_SECRET: secret })
      expect(e.variable).toBe('CDP_API_KEY_SECRET')
      expect(e.message).toMatch(reason)
      expect(e.message).toStartWith('CDP_API_KEY_SECRET: invalid value (not shown): ')
      for (const fragment of secret.split('\n').filter((l) => l.length >= 8 && !l.startsWith('-----')))
        expect(e.message).not.toContain(fragment)
    })
  }
})

describe('CDP settings', () => {
  const key = ed25519Key()

  test("facilitator mode with CDP keys needs no X402_FACILITATOR_URL (CDP's is used); one may override it", () => {
    const c = loadConfig({ PAYMENT_MODE: 'facilitator', CDP_API_KEY_ID: key.id, CDP_API_KEY_SECRET: key.secret })
    expect(c.facilitatorUrl).toBeUndefined()
    expect(c.cdpApiKey).toMatchObject({ id: key.id, algorithm: 'EdDSA' })
    expect(
      loadConfig({
        PAYMENT_MODE: 'facilitator',
        CDP_API_KEY_ID: key.id,
        CDP_API_KEY_SECRET: key.secret,
        X402_FACILITATOR_URL: 'http://127.0.0.1:4020/',
      }).facilitatorUrl,
    ).toBe('http://127.0.0.1:4020')
    expect(
      loadConfig({ NODE_ENV: 'production', PAY_TO, PAYMENT_MODE: 'facilitator', CDP_API_KEY_ID: key.id, CDP_API_KEY_SECRET: key.secret })
        .paymentMode,
    ).toBe('facilitator')
    expect(() => loadConfig({ PAYMENT_MODE: 'facilitator' })).toThrow(
      'X402_FACILITATOR_URL: is required when PAYMENT_MODE=facilitator (or set CDP_API_KEY_ID and CDP_API_KEY_SECRET',
    )
  })

  test('the key id and the secret come together', () => {
    expect(configError({ CDP_API_KEY_ID: key.id }).message).toBe(
      'CDP_API_KEY_SECRET: is required when CDP_API_KEY_ID is set (the secret of that key)',
    )
    expect(configError({ CDP_API_KEY_SECRET: key.secret }).message).toBe(
      'CDP_API_KEY_ID: is required when CDP_API_KEY_SECRET is set (the id of that key)',
    )
    expect(configError({ CDP_API_KEY_ID: 'has spaces in it', CDP_API_KEY_SECRET: key.secret }).variable).toBe('CDP_API_KEY_ID')
  })

  test('static headers go along with CDP keys, but an Authorization among them is refused: the signed token is the Authorization', () => {
    const base = { PAYMENT_MODE: 'facilitator', CDP_API_KEY_ID: key.id, CDP_API_KEY_SECRET: key.secret }
    expect(loadConfig({ ...base, X402_FACILITATOR_HEADERS: '{"X-Team":"pay"}' }).facilitatorHeaders).toEqual({ 'X-Team': 'pay' })
    const e = configError({ ...base, X402_FACILITATOR_HEADERS: '{"authorization":"Bearer t"}' })
    expect(e.variable).toBe('X402_FACILITATOR_HEADERS')
    expect(e.message).toContain('sets Authorization, which CDP_API_KEY_ID/CDP_API_KEY_SECRET sign afresh for every call')
  })

  test('the secret held in the configuration prints as [redacted]: JSON, string, inspection', () => {
    const c = loadConfig({ PAYMENT_MODE: 'facilitator', CDP_API_KEY_ID: key.id, CDP_API_KEY_SECRET: key.secret })
    const shown = [JSON.stringify(c), String(c.cdpApiKey!.secret), `${c.cdpApiKey!.secret}`, Bun.inspect(c), Bun.inspect(c.cdpApiKey)]
    for (const text of shown) for (const fragment of secretFragments(key.secret)) expect(text).not.toContain(fragment)
    expect(JSON.stringify(c.cdpApiKey)).toContain('"secret":"[redacted]"')
  })

  test('`serve` with a malformed secret exits 2 naming the variable, and prints no part of the secret', async () => {
    const secret = ed25519Key().secret.slice(0, 80) // a mis-copied secret: a few characters short
    const proc = Bun.spawn([process.execPath, resolve(ROOT, 'src/index.ts'), 'serve'], {
      cwd: ROOT,
      env: {
        ...process.env,
        PAYMENT_MODE: 'facilitator',
        CDP_API_KEY_ID: 'k1',
        CDP_API_KEY_SECRET: secret,
        PORT: '0',
        LEDGER_PATH: ':memory:',
        NODE_ENV: 'test',
      },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
    expect({ code, err }).toMatchObject({
      code: 2,
      err: expect.stringContaining('Configuration error: CDP_API_KEY_SECRET: invalid value (not shown)'),
    })
    for (const fragment of secretFragments(secret)) expect(out + err).not.toContain(fragment)
  })
})
