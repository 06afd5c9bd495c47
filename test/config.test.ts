import { describe, expect, test } from 'bun:test'
import { DEV_OFFER } from '../support/offers'
import { generateKeyPairSync } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ConfigError } from '../src/core/config-error'
import { DEV_PAY_TO, loadConfig } from '../src/config/config'
import { applyEnvFile } from '../src/config/env-file'
import { configErrorOf } from '../support/config-error'
import { privateKeyToAddress } from 'viem/accounts'

const PAY_TO_A = '0x1111111111111111111111111111111111111111'
/** Production with an on-chain payment mode, but no address to pay to. */
const PRODUCTION_WITHOUT_PAY_TO = {
  NODE_ENV: 'production',
  PAYMENT_MODE: 'facilitator',
  X402_FACILITATOR_URL: 'https://x402.org/facilitator',
}
/** The least that starts in production. */
const PRODUCTION = { ...PRODUCTION_WITHOUT_PAY_TO, PAY_TO: PAY_TO_A }

describe('configuration', () => {
  test('no configuration at all gives development mode on the loopback, port 3000, base-sepolia and the development payTo', () => {
    const c = loadConfig({})
    expect(c).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      network: 'base-sepolia',
      payTo: DEV_PAY_TO,
      offers: [DEV_OFFER],
      payToIsDevDefault: true,
      nodeEnv: 'development',
      publicBaseUrl: 'http://localhost:3000',
      logLevel: 'info',
      artifactTtlSeconds: 86400,
    })
    expect(Object.isFrozen(c)).toBe(true)
  })

  test('only production listens on every interface by default; HOST says otherwise in any mode', () => {
    expect(loadConfig(PRODUCTION).host).toBe('0.0.0.0')
    expect(loadConfig({ NODE_ENV: 'test' }).host).toBe('127.0.0.1')
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0')
    expect(loadConfig({ ...PRODUCTION, HOST: '127.0.0.1' }).host).toBe('127.0.0.1')
  })

  test('served payments cannot be dropped before their stored results expire', () => {
    expect(() => loadConfig({ LEDGER_KEEP_SERVED_DAYS: '1', ARTIFACT_TTL_HOURS: '72' })).toThrow('LEDGER_KEEP_SERVED_DAYS')
    expect(loadConfig({ LEDGER_KEEP_SERVED_DAYS: '3', ARTIFACT_TTL_HOURS: '72' }).ledgerRetention).toEqual({
      failedSeconds: 7 * 86400,
      servedSeconds: 3 * 86400,
    })
  })

  test('PUBLIC_BASE_URL follows PORT by default and loses a trailing slash', () => {
    expect(loadConfig({ PORT: '8080' }).publicBaseUrl).toBe('http://localhost:8080')
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://api.example.com/' }).publicBaseUrl).toBe('https://api.example.com')
  })

  for (const [name, value] of [
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['PAY_TO', '0x123'],
    ['X402_NETWORK', 'solana'],
    ['LOG_LEVEL', 'loud'],
    ['PUBLIC_BASE_URL', 'ftp://x'],
    ['ARTIFACT_TTL_HOURS', '0'],
  ] as const) {
    test(`a bad ${name} (${value}) stops start-up with a message naming the variable`, () => {
      const error = configErrorOf({ [name]: value })
      expect(error.variable).toBe(name)
      expect(error.message).toStartWith(`${name}: invalid value`)
    })
  }

  test('MCP_ALLOWED_ORIGINS: comma-separated origins, normalised; `*` kept; unset is none', () => {
    expect(loadConfig({}).mcpAllowedOrigins).toEqual([])
    expect(
      loadConfig({ MCP_ALLOWED_ORIGINS: ' https://App.Example.com/ , http://intranet:8080,https://x.example:443,*' }).mcpAllowedOrigins,
    ).toEqual(['https://app.example.com', 'http://intranet:8080', 'https://x.example', '*'])
  })

  for (const value of [
    'app.example.com',
    'ftp://app.example.com',
    'https://app.example.com/path',
    'https://user@app.example.com',
    'https://app.example.com?x=1',
    'https://',
    'https://a.example,nope',
  ]) {
    test(`MCP_ALLOWED_ORIGINS=${value} stops start-up naming the variable and the entry`, () => {
      expect(() => loadConfig({ MCP_ALLOWED_ORIGINS: value })).toThrow(ConfigError)
      expect(() => loadConfig({ MCP_ALLOWED_ORIGINS: value })).toThrow(/^MCP_ALLOWED_ORIGINS: invalid value "/)
    })
  }

  test('an enumerated variable lists its allowed values', () => {
    expect(() => loadConfig({ X402_NETWORK: 'solana' })).toThrow(
      '(allowed: base, base-sepolia, polygon, polygon-amoy, arbitrum, arbitrum-sepolia)',
    )
  })

  test('PAYMENT_NETWORKS: several networks by name or CAIP-2 id, in order, each with its USDC and its own PAY_TO when set', () => {
    const polygonPayTo = '0x2222222222222222222222222222222222222222'
    const c = loadConfig({ PAYMENT_NETWORKS: 'base, eip155:137 ,ARBITRUM', PAY_TO: PAY_TO_A, PAY_TO_POLYGON: polygonPayTo })
    expect(c.network).toBe('base')
    expect(c.offers.map((o) => [o.network.caip2, o.network.asset, o.payTo])).toEqual([
      ['eip155:8453', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', PAY_TO_A],
      ['eip155:137', '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359', polygonPayTo],
      ['eip155:42161', '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', PAY_TO_A],
    ])
    // Reconciled over each network's public endpoint unless told otherwise; X402_RPC_URL is the first network's.
    const rpc = loadConfig({ PAYMENT_NETWORKS: 'base,polygon', X402_RPC_URL: 'https://rpc.example/base' }).rpc
    expect(rpc).toEqual({
      base: { url: 'https://rpc.example/base', isDefault: false },
      polygon: { url: 'https://polygon-rpc.com', isDefault: true },
    })
  })

  test('PAYMENT_NETWORKS refuses unknown, repeated and contradicted networks, and variables of networks not listed', () => {
    expect(() => loadConfig({ PAYMENT_NETWORKS: 'base,solana' })).toThrow('PAYMENT_NETWORKS: "solana" is not a network this service takes')
    expect(() => loadConfig({ PAYMENT_NETWORKS: 'base,eip155:8453' })).toThrow('PAYMENT_NETWORKS: lists base twice')
    expect(() => loadConfig({ PAYMENT_NETWORKS: 'base,polygon', X402_NETWORK: 'polygon' })).toThrow(
      'X402_NETWORK: is polygon, but PAYMENT_NETWORKS starts with base',
    )
    expect(loadConfig({ PAYMENT_NETWORKS: 'polygon,base', X402_NETWORK: 'polygon' }).network).toBe('polygon')
    expect(() => loadConfig({ PAYMENT_NETWORKS: 'base,polygon', PAY_TO_POLYGN: PAY_TO_A })).toThrow(
      'PAY_TO_POLYGN: names no network of PAYMENT_NETWORKS (BASE, POLYGON)',
    )
    expect(() => loadConfig({ X402_RPC_URL_SOLANA: 'https://rpc.example' })).toThrow(
      'X402_RPC_URL_SOLANA: names no network this service knows',
    )
    // The RPC of a known network no longer offered still reconciles the payments taken there.
    const dropped = loadConfig({ PAYMENT_NETWORKS: 'base', X402_RPC_URL_POLYGON: 'https://rpc.example/polygon' })
    expect([dropped.reconcileRpc.polygon, dropped.reconcileRpc.arbitrum, Object.keys(dropped.rpc)]).toEqual([
      'https://rpc.example/polygon',
      'https://arb1.arbitrum.io/rpc',
      ['base'],
    ])
    expect(() => loadConfig({ PAYMENT_NETWORKS: 'base,polygon', PAY_TO_POLYGON: 'nope' })).toThrow('PAY_TO_POLYGON: invalid value "nope"')
  })

  test('production: PAY_TO, or PAY_TO_<NETWORK> for every network', () => {
    const production = { ...PRODUCTION_WITHOUT_PAY_TO, PAYMENT_NETWORKS: 'base,polygon' }
    expect(() => loadConfig({ ...production, PAY_TO_BASE: PAY_TO_A })).toThrow(
      'PAY_TO: is required when NODE_ENV=production (the address that receives payments; or PAY_TO_<NETWORK> for each of polygon)',
    )
    const each = loadConfig({ ...production, PAY_TO_BASE: PAY_TO_A, PAY_TO_POLYGON: PAY_TO_A })
    expect([each.payToIsDevDefault, each.offers.map((o) => o.payTo)]).toEqual([false, [PAY_TO_A, PAY_TO_A]])
  })

  test('self mode needs an RPC for every network: X402_RPC_URL for the first, X402_RPC_URL_<NETWORK> for each other', () => {
    const self = { PAYMENT_MODE: 'self', X402_SETTLER_PRIVATE_KEY: `0x${'11'.repeat(32)}`, PAYMENT_NETWORKS: 'base,polygon-amoy' }
    expect(() => loadConfig({ ...self, X402_RPC_URL: 'http://127.0.0.1:8545' })).toThrow(
      'X402_RPC_URL_POLYGON_AMOY: is required when PAYMENT_MODE=self (the RPC that settles on polygon-amoy)',
    )
    const c = loadConfig({ ...self, X402_RPC_URL_BASE: 'http://127.0.0.1:8545', X402_RPC_URL_POLYGON_AMOY: 'http://127.0.0.1:8546' })
    expect(Object.values(c.rpc).map((r) => r!.url)).toEqual(['http://127.0.0.1:8545', 'http://127.0.0.1:8546'])
  })

  test('production refuses to start without an explicit PAY_TO', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow('PAY_TO: is required when NODE_ENV=production')
    expect(loadConfig(PRODUCTION).payToIsDevDefault).toBe(false)
  })

  test('WARM_UP_SAMPLE_ANSWERS: on by default in production, off elsewhere; either way when set', () => {
    expect(loadConfig(PRODUCTION).warmUpSampleAnswers).toBe(true)
    expect(loadConfig({ ...PRODUCTION, WARM_UP_SAMPLE_ANSWERS: 'false' }).warmUpSampleAnswers).toBe(false)
    expect(loadConfig({}).warmUpSampleAnswers).toBe(false)
    expect(loadConfig({ WARM_UP_SAMPLE_ANSWERS: 'true' }).warmUpSampleAnswers).toBe(true)
    expect(() => loadConfig({ WARM_UP_SAMPLE_ANSWERS: 'yes' })).toThrow('WARM_UP_SAMPLE_ANSWERS: invalid value "yes"')
  })

  test('DATA_SOURCE_URL: a publication document by URL, with the key it must be signed by; its copy in a folder per URL', () => {
    const { publicKey } = generateKeyPairSync('ed25519')
    const pem = publicKey.export({ format: 'pem', type: 'spki' }).toString()
    const url = 'https://data.example.com/fleet/publication.json'
    const config = loadConfig({ DATA_SOURCE_URL: url, DATA_SOURCE_PUBLIC_KEY: pem, LEDGER_PATH: '/var/lib/cmi/ledger.sqlite' })
    expect(config.dataSource).toEqual({ url, publicKeys: pem.trim(), pollSeconds: 60, redirectOrigins: [] })
    const cdn = loadConfig({
      DATA_SOURCE_URL: url,
      DATA_SOURCE_PUBLIC_KEY: pem,
      DATA_SOURCE_REDIRECT_ORIGINS: 'https://cdn.example.com/x, http://10.0.0.9:8080',
    })
    expect(cdn.dataSource?.redirectOrigins).toEqual(['https://cdn.example.com', 'http://10.0.0.9:8080'])
    expect(() =>
      loadConfig({ DATA_SOURCE_URL: url, DATA_SOURCE_PUBLIC_KEY: pem, DATA_SOURCE_REDIRECT_ORIGINS: 'cdn.example.com' }),
    ).toThrow('DATA_SOURCE_REDIRECT_ORIGINS: "cdn.example.com" is not an http(s) origin')
    // Beside the ledger (state that must outlive the process), named after the URL without its credentials.
    expect(config.datasetsDir).toMatch(/^\/var\/lib\/cmi\/datasets-[0-9a-f]{12}$/)
    const withPassword = loadConfig({
      DATA_SOURCE_URL: 'https://team:secret@data.example.com/fleet/publication.json',
      DATA_SOURCE_PUBLIC_KEY: pem,
      LEDGER_PATH: '/var/lib/cmi/ledger.sqlite',
    })
    expect(withPassword.datasetsDir).toBe(config.datasetsDir)
    expect(() => loadConfig({ DATA_SOURCE_URL: 'https://team:secret@data.example.com/x/', DATA_SOURCE_PUBLIC_KEY: pem })).toThrow(
      /^DATA_SOURCE_URL: invalid value \(not shown\)/,
    )
    expect(() => loadConfig({ DATA_SOURCE_URL: 'https://team:secret@data.example.com/x/', DATA_SOURCE_PUBLIC_KEY: pem })).not.toThrow(
      /secret/,
    )
    expect(() => loadConfig({ DATA_SOURCE_URL: url, DATA_SOURCE_PUBLIC_KEY: pem, REUSE_PORT: 'true', PORT: '3000' })).toThrow(
      'REUSE_PORT: cannot be used with DATA_SOURCE_URL',
    )
    expect(loadConfig({ DATA_SOURCE_URL: url, DATA_SOURCE_PUBLIC_KEY: pem, DATASETS_DIR: '/srv/copy' }).datasetsDir).toBe('/srv/copy')
    expect(loadConfig({}).dataSource).toBeUndefined()
    expect(() => loadConfig({ DATA_SOURCE_URL: url })).toThrow('DATA_SOURCE_PUBLIC_KEY: is required with DATA_SOURCE_URL')
    expect(() => loadConfig({ DATA_SOURCE_PUBLIC_KEY: pem })).toThrow('DATA_SOURCE_PUBLIC_KEY: has no effect without DATA_SOURCE_URL')
    expect(() => loadConfig({ DATA_SOURCE_URL: 'https://data.example.com/fleet/', DATA_SOURCE_PUBLIC_KEY: pem })).toThrow(
      /^DATA_SOURCE_URL: invalid value/,
    )
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'pem', type: 'spki' }).toString()
    expect(() => loadConfig({ DATA_SOURCE_URL: url, DATA_SOURCE_PUBLIC_KEY: rsa })).toThrow('DATA_SOURCE_PUBLIC_KEY: holds a rsa key')
    expect(() => loadConfig({ DATA_SOURCE_URL: url, DATA_SOURCE_PUBLIC_KEY: 'not a key' })).toThrow('holds no PEM public key')
    expect(() => loadConfig({ DATA_SOURCE_URL: url, DATA_SOURCE_PUBLIC_KEY: pem, DATA_POLL_SECONDS: '1' })).toThrow(
      /^DATA_POLL_SECONDS: invalid value/,
    )
  })

  test('DuckDB gets 512 MB unless given', () => {
    expect(loadConfig({}).duckdbMemoryLimitMb).toBe(512)
  })
})

describe('payment modes', () => {
  const PAY_TO = '0x1111111111111111111111111111111111111111'
  const KEY = `0x${'11'.repeat(32)}`
  /** Self mode with what it needs: an RPC and a settler key. */
  const SELF = { PAYMENT_MODE: 'self', X402_RPC_URL: 'http://127.0.0.1:8545', X402_SETTLER_PRIVATE_KEY: KEY }

  test('development defaults to local mode; production refuses local, whether defaulted or explicit', () => {
    expect(loadConfig({}).paymentMode).toBe('local')
    expect(() => loadConfig({ NODE_ENV: 'production', PAY_TO })).toThrow(
      'PAYMENT_MODE: must be `facilitator` or `self` when NODE_ENV=production',
    )
    expect(() => loadConfig({ NODE_ENV: 'production', PAY_TO, PAYMENT_MODE: 'local' })).toThrow('PAYMENT_MODE: must be')
  })

  test('facilitator mode needs X402_FACILITATOR_URL; timeout and headers are read', () => {
    expect(() => loadConfig({ PAYMENT_MODE: 'facilitator' })).toThrow('X402_FACILITATOR_URL: is required when PAYMENT_MODE=facilitator')
    const c = loadConfig({
      PAYMENT_MODE: 'facilitator',
      X402_FACILITATOR_URL: 'https://f.example/x402/',
      X402_FACILITATOR_TIMEOUT_SECONDS: '5',
      X402_FACILITATOR_HEADERS: '{"Authorization":"Bearer t"}',
    })
    expect(c).toMatchObject({
      paymentMode: 'facilitator',
      facilitatorUrl: 'https://f.example/x402',
      facilitatorTimeoutMs: 5000,
      facilitatorHeaders: { Authorization: 'Bearer t' },
    })
    expect(c.rpcUrl).toBe('https://sepolia.base.org') // reconciles over the public endpoint unless told otherwise
  })

  test('X402_FACILITATOR_HEADERS must be a JSON object of strings', () => {
    for (const bad of ['Bearer t', '["a"]', '{"a":1}']) {
      expect(() =>
        loadConfig({ PAYMENT_MODE: 'facilitator', X402_FACILITATOR_URL: 'https://f.example', X402_FACILITATOR_HEADERS: bad }),
      ).toThrow('X402_FACILITATOR_HEADERS: invalid value')
    }
  })

  test('SETTLE_MODE: sync by default; deferred needs an on-chain mode; its limits read as USDC amounts', () => {
    expect(loadConfig({})).toMatchObject({ settleMode: 'sync', deferred: { maxUnsettledUsd: '1', maxPriceUsd: null, concurrency: 8 } })
    expect(() => loadConfig({ SETTLE_MODE: 'deferred' })).toThrow('SETTLE_MODE: deferred needs PAYMENT_MODE=facilitator or self')
    expect(() => loadConfig({ SETTLE_MODE: 'later' })).toThrow('SETTLE_MODE: invalid value "later"')
    expect(
      loadConfig({
        ...SELF,
        SETTLE_MODE: 'deferred',
        DEFERRED_MAX_UNSETTLED_USD: '0.5',
        DEFERRED_MAX_PRICE_USD: '0.2',
        DEFERRED_SETTLE_CONCURRENCY: '4',
      }),
    ).toMatchObject({ settleMode: 'deferred', deferred: { maxUnsettledUsd: '0.5', maxPriceUsd: '0.2', concurrency: 4 } })
    // Finer than USDC's six decimals cannot be owed.
    expect(() => loadConfig({ ...SELF, DEFERRED_MAX_UNSETTLED_USD: '0.0000001' })).toThrow('DEFERRED_MAX_UNSETTLED_USD: invalid value')
    expect(() => loadConfig({ ...SELF, DEFERRED_SETTLE_CONCURRENCY: '0' })).toThrow('DEFERRED_SETTLE_CONCURRENCY: invalid value')
  })

  test('self mode needs an RPC URL and a settler key', () => {
    expect(() => loadConfig({ PAYMENT_MODE: 'self', X402_SETTLER_PRIVATE_KEY: KEY })).toThrow(
      'X402_RPC_URL: is required when PAYMENT_MODE=self',
    )
    expect(() => loadConfig({ PAYMENT_MODE: 'self', X402_RPC_URL: 'http://127.0.0.1:8545' })).toThrow(
      'X402_SETTLER_PRIVATE_KEY: is required when PAYMENT_MODE=self',
    )
    expect(() => loadConfig({ ...SELF, X402_SETTLER_PRIVATE_KEY: '0x12' })).toThrow('X402_SETTLER_PRIVATE_KEY: invalid value')
    expect(loadConfig(SELF)).toMatchObject({
      paymentMode: 'self',
      rpcUrl: 'http://127.0.0.1:8545',
      rpcUrlIsDefault: false,
    })
  })

  test('rate limits default to 600 per IP and 120 per payer a minute; 0 turns them off', () => {
    expect(loadConfig({})).toMatchObject({ rateLimitIpPerMinute: 600, rateLimitPayerPerMinute: 120 })
    expect(loadConfig({ RATE_LIMIT_IP_PER_MINUTE: '0', RATE_LIMIT_PAYER_PER_MINUTE: '0' })).toMatchObject({
      rateLimitIpPerMinute: 0,
      rateLimitPayerPerMinute: 0,
    })
  })
})

describe('listening and stopping', () => {
  test('REUSE_PORT is off by default; on, it needs a ledger file and a fixed PORT', () => {
    expect(loadConfig({}).reusePort).toBe(false)
    expect(loadConfig({ REUSE_PORT: 'true', LEDGER_PATH: '/srv/ledger.sqlite' }).reusePort).toBe(true)
    expect(() => loadConfig({ REUSE_PORT: 'yes' })).toThrow('REUSE_PORT: invalid value "yes"')
    expect(() => loadConfig({ REUSE_PORT: 'true', LEDGER_PATH: ':memory:' })).toThrow(
      'REUSE_PORT: needs a ledger file shared by the instances',
    )
    expect(() => loadConfig({ REUSE_PORT: 'true', PORT: '0' })).toThrow('REUSE_PORT: needs a fixed PORT')
  })

  test('SHUTDOWN_TIMEOUT_SECONDS defaults to 30; 0 answers requests in flight at once; a bad value names the variable', () => {
    expect(loadConfig({}).shutdownTimeoutMs).toBe(30_000)
    expect(loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: '0' }).shutdownTimeoutMs).toBe(0)
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: '-1' })).toThrow('SHUTDOWN_TIMEOUT_SECONDS: invalid value')
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: '30s' })).toThrow('SHUTDOWN_TIMEOUT_SECONDS: invalid value')
  })
})

describe('env files (--env-file, ENV_FILE)', () => {
  const file = (text: string) => {
    const path = join(mkdtempSync(join(tmpdir(), 'cmi-env-')), 'settings.env')
    writeFileSync(path, text)
    return path
  }

  test('nothing is read unless asked: no flag and no ENV_FILE leave the environment alone', () => {
    const env: Record<string, string | undefined> = {}
    expect(applyEnvFile(['bun', 'index.ts', 'serve'], env)).toBeNull()
    expect(env).toEqual({})
  })

  test('--env-file PATH anywhere on the command line is read and removed; the real environment wins over the file', () => {
    const path = file('PORT=8080\nexport PAY_TO="0x1111111111111111111111111111111111111111"\n# comment\nLOG_LEVEL=debug\n')
    const argv = ['bun', 'index.ts', '--env-file', path, 'serve']
    const env: Record<string, string | undefined> = { LOG_LEVEL: 'warn' }
    expect(applyEnvFile(argv, env)).toBe(path)
    expect(argv).toEqual(['bun', 'index.ts', 'serve'])
    expect(env).toEqual({ PORT: '8080', PAY_TO: '0x1111111111111111111111111111111111111111', LOG_LEVEL: 'warn' })
  })

  test('--env-file=PATH and ENV_FILE work the same; the flag wins over ENV_FILE', () => {
    const a = file('HOST=10.0.0.1\n')
    const b = file('HOST=10.0.0.2\n')
    const env: Record<string, string | undefined> = { ENV_FILE: b }
    expect(applyEnvFile(['serve', `--env-file=${a}`], env)).toBe(a)
    expect(env.HOST).toBe('10.0.0.1')
    const viaVariable: Record<string, string | undefined> = { ENV_FILE: b }
    expect(applyEnvFile(['serve'], viaVariable)).toBe(b)
    expect(viaVariable.HOST).toBe('10.0.0.2')
  })

  test('a missing file or a flag without a path is a ConfigError naming where it came from', () => {
    expect(() => applyEnvFile(['serve'], { ENV_FILE: '/nonexistent/settings.env' })).toThrow(
      'ENV_FILE: cannot read /nonexistent/settings.env: ENOENT',
    )
    expect(() => applyEnvFile(['serve', '--env-file', '/nonexistent/x.env'], {})).toThrow(
      '--env-file: cannot read /nonexistent/x.env: ENOENT',
    )
    expect(() => applyEnvFile(['serve', '--env-file'], {})).toThrow(ConfigError)
  })
})

describe('batch-settlement settings', () => {
  const KEY = `0x${'ab'.repeat(32)}` as const
  const SELF = { PAYMENT_MODE: 'self', X402_RPC_URL: 'http://127.0.0.1:8545', X402_SETTLER_PRIVATE_KEY: `0x${'cd'.repeat(32)}` }
  const BATCH = { ...SELF, BATCH_NETWORKS: 'base-sepolia', BATCH_RECEIVER_AUTHORIZER_KEY: KEY }

  test('offered on the networks listed, with the authorizer address (not the key) and the terms', () => {
    const config = loadConfig({ ...BATCH, BATCH_WITHDRAW_DELAY_SECONDS: '3600', BATCH_MIN_DEPOSIT_USD: '2', BATCH_CLAIM_SECONDS: '900' })
    expect(config.offers[0]!.batch).toEqual({
      receiverAuthorizer: privateKeyToAddress(KEY),
      withdrawDelaySeconds: 3600,
      minDepositAtomic: 2_000_000n,
    })
    expect(config.batch).toEqual({ authorizerKey: KEY, claimSeconds: 900, refundIdleSeconds: 72 * 3600 })
    expect(loadConfig(SELF).offers[0]!.batch).toBeUndefined()
  })

  test('refused: in local mode, on a network not offered, without the key, a malformed key unquoted, a delay outside the escrow, claims too rare', () => {
    expect(configErrorOf({ BATCH_NETWORKS: 'base-sepolia', BATCH_RECEIVER_AUTHORIZER_KEY: KEY }).variable).toBe('BATCH_NETWORKS')
    expect(configErrorOf({ ...BATCH, BATCH_NETWORKS: 'polygon' }).variable).toBe('BATCH_NETWORKS')
    expect(configErrorOf({ ...SELF, BATCH_NETWORKS: 'base-sepolia' }).variable).toBe('BATCH_RECEIVER_AUTHORIZER_KEY')
    const malformed = configErrorOf({ ...BATCH, BATCH_RECEIVER_AUTHORIZER_KEY: '0xsecretsecret' })
    expect(malformed.variable).toBe('BATCH_RECEIVER_AUTHORIZER_KEY')
    expect(malformed.message).not.toContain('secretsecret')
    expect(configErrorOf({ ...BATCH, BATCH_WITHDRAW_DELAY_SECONDS: '600' }).variable).toBe('BATCH_WITHDRAW_DELAY_SECONDS')
    expect(configErrorOf({ ...BATCH, BATCH_WITHDRAW_DELAY_SECONDS: '900', BATCH_CLAIM_SECONDS: '300' }).variable).toBe(
      'BATCH_CLAIM_SECONDS',
    )
  })
})
