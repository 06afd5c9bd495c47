/**
 * `doctor` says what blocks taking money, each check done as the service would do it: a facilitator
 * (scripts/facilitator.ts) asked for /supported with our credentials, a local chain (anvil) asked for its
 * id, USDC and the settler's gas, the ledger file opened, the datasets loaded, providers asked, the
 * public URL asked for /health. In production a block exits 1; in development the checklist only says so.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { networkInterfaces, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { generatePrivateKey } from 'viem/accounts'
import { DEV_PAY_TO } from '../../../src/config/config'
import { anvilAccount } from '../../../support/chain'
import { freePort } from '../../../support/ports'
import { postgresMissing, startPostgres, type StartedPostgres } from '../../../support/postgres'
import { startServer, type StartedServer } from '../../../support/server'
import { keyOf } from '../../../support/facilitator'
import { startChainAndFacilitator, type ChainAndFacilitator } from '../../../support/chain-and-facilitator'
import { noteSkipped, requireTool } from '../../../support/required-tool'
import { campingWorld, vendorWorld, type VendorWorld } from '../../../support/vendor-world'

const ROOT = resolve(import.meta.dir, '../../..')
const SLOW = 60_000
const PAY_TO = '0x1111111111111111111111111111111111111111'
const TOKEN = 'doctor-test-token'
let dir: string
/** anvil, and the facilitator asking for TOKEN. */
let onchain: ChainAndFacilitator
let world: VendorWorld
let closedPort: number

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'doctor-'))
  closedPort = await freePort()
  // /supported needs no chain: the facilitator only lists what it registered.
  onchain = await startChainAndFacilitator({ settler: 3, env: { FACILITATOR_AUTH_TOKEN: TOKEN } })
  world = vendorWorld(() => campingWorld(Date.now()))
}, SLOW)

afterAll(async () => {
  await onchain?.stop()
  world?.stop()
  rmSync(dir, { recursive: true, force: true })
})

interface Finding {
  check: string
  status: 'ok' | 'warn' | 'block'
  detail: string
  fix?: string
}

/** Runs `doctor --json` with only `env` (and PATH/HOME) set: nothing of the test runner's environment leaks in. */
async function doctor(env: Record<string, string>, ...args: string[]) {
  const proc = Bun.spawn([process.execPath, resolve(ROOT, 'src/index.ts'), 'doctor', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? dir, LEDGER_PATH: join(dir, `l-${crypto.randomUUID()}.sqlite`), ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  const report = args.includes('--json')
    ? (JSON.parse(out) as { node_env: string; blocks_taking_money: boolean; findings: Finding[] })
    : null
  const status = (check: string) => report?.findings.filter((f) => f.check === check).map((f) => f.status)
  const find = (check: string) => report?.findings.find((f) => f.check === check)
  return { out, err, code, report, status, find }
}

/** A seller ready to go live on a facilitator, but for what each test changes. */
const production = (more: Record<string, string> = {}) => ({
  NODE_ENV: 'production',
  PAYMENT_MODE: 'facilitator',
  X402_FACILITATOR_URL: onchain.facilitator.url,
  X402_FACILITATOR_HEADERS: JSON.stringify({ Authorization: `Bearer ${TOKEN}` }),
  X402_RPC_URL: onchain.chain.rpcUrl,
  PAY_TO,
  PUBLIC_BASE_URL: 'https://api.example.invalid',
  TRUSTED_PROXIES: 'loopback',
  ...more,
})

describe('doctor in development', () => {
  test('the defaults: local mode, the development PAY_TO and no public URL block going live; exit 0 all the same', async () => {
    const r = await doctor({}, '--json')
    expect(r.code).toBe(0)
    expect(r.report!.node_env).toBe('development')
    expect(r.report!.findings.filter((f) => f.status === 'block').map((f) => f.check)).toEqual([
      'payment mode',
      'pay-to address',
      'public URL',
    ])
    expect(r.find('payment mode')!.fix).toContain('PAYMENT_MODE=facilitator')
    expect(r.status('network')).toEqual(['warn']) // base-sepolia is a test network
    expect(r.status('ledger')).toEqual(['ok'])
    expect(r.find('datasets')).toMatchObject({ status: 'warn', detail: expect.stringContaining('generated samples') })
    expect(r.find('evidence providers')).toMatchObject({ status: 'warn', detail: expect.stringContaining('sample corpus') })
  })

  test('the checklist as text ends with the verdict, and says a development run exits 0', async () => {
    const r = await doctor({})
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/BLOCK {2}payment mode +PAYMENT_MODE=local/)
    expect(r.out).toContain('-> PAY_TO=0x')
    expect(r.out).toContain('3 things block taking money')
  })
})

describe('doctor in production', () => {
  test(
    'a facilitator that settles our network with our credentials: nothing blocks, exit 0',
    async () => {
      const r = await doctor(production(), '--json')
      expect(r.report!.findings.filter((f) => f.status === 'block')).toEqual([])
      expect(r.code).toBe(0)
      expect(r.find('facilitator')!.detail).toContain(`${onchain.facilitator.url} settles exact on eip155:84532`)
      expect(r.find('reconciliation')).toMatchObject({ status: 'ok', detail: expect.stringContaining(onchain.chain.rpcUrl) })
      expect(r.find('proxies')).toMatchObject({ status: 'ok', detail: expect.stringContaining('x-forwarded-for') })
      // Not reachable from here (yet): worth a look, not a block.
      expect(r.status('public URL')).toEqual(['warn'])
      // The facilitator's credential is named, never shown.
      expect(r.out).toContain('static headers Authorization')
      expect(r.out).not.toContain(TOKEN)
    },
    SLOW,
  )

  test('the configuration does not load: one block per setting that stops it, all at once, exit 1', async () => {
    const r = await doctor({ NODE_ENV: 'production', PAY_TO }, '--json')
    expect(r.code).toBe(1)
    expect(r.report!.findings.map((f) => [f.check, f.status, f.detail.split(':')[0]])).toEqual([
      ['configuration', 'block', 'PAYMENT_MODE'],
      ['configuration', 'block', 'X402_FACILITATOR_URL'],
    ])
    // Nothing set at all: PAY_TO too, and a wrong value is named as well as a missing one.
    const bare = await doctor({ NODE_ENV: 'production', PORT: 'eighty' }, '--json')
    expect(bare.report!.findings.map((f) => f.detail.split(':')[0])).toEqual(['PORT', 'PAY_TO', 'PAYMENT_MODE', 'X402_FACILITATOR_URL'])
    expect(bare.code).toBe(1)
  })

  test(
    'credentials the facilitator refuses block, naming the setting',
    async () => {
      const r = await doctor(production({ X402_FACILITATOR_HEADERS: '{"Authorization":"Bearer wrong"}' }), '--json')
      expect(r.code).toBe(1)
      expect(r.find('facilitator')).toMatchObject({
        status: 'block',
        detail: expect.stringContaining('HTTP 401'),
        fix: 'X402_FACILITATOR_HEADERS',
      })
    },
    SLOW,
  )

  test(
    'a facilitator that does not settle our network blocks; one that does not answer blocks',
    async () => {
      const other = await doctor(production({ X402_NETWORK: 'base', X402_RPC_URL: onchain.chain.rpcUrl }), '--json')
      expect(other.code).toBe(1)
      expect(other.find('facilitator')!.detail).toContain(
        'does not settle x402 v2 exact payments on base (eip155:8453); it lists exact on eip155:84532 (v2)',
      )
      // The chain behind X402_RPC_URL is base-sepolia's, not base's: reconciling is worth a look, not a block.
      expect(other.find('reconciliation')).toMatchObject({
        status: 'warn',
        detail: expect.stringContaining('is chain 84532, not base (8453)'),
      })
      const down = await doctor(production({ X402_FACILITATOR_URL: `http://127.0.0.1:${closedPort}` }), '--json')
      expect(down.code).toBe(1)
      expect(down.find('facilitator')).toMatchObject({ status: 'block', detail: expect.stringContaining('cannot be reached') })
    },
    SLOW,
  )

  test(
    'self mode: the chain, its USDC and the settler gas are checked; a settler without ETH blocks',
    async () => {
      // RPC providers put their key in the path or the query: only the origin is ever printed.
      const self = { PAYMENT_MODE: 'self', X402_RPC_URL: `${onchain.chain.rpcUrl}/?key=rpc-key-0123456789` }
      const funded = await doctor(production({ ...self, X402_SETTLER_PRIVATE_KEY: keyOf(anvilAccount(2)) }), '--json')
      expect(funded.code).toBe(0)
      expect(funded.find('settlement chain')).toMatchObject({ status: 'ok', detail: expect.stringContaining('for gas') })
      expect(funded.out).not.toContain('rpc-key-0123456789')
      const empty = await doctor(production({ ...self, X402_SETTLER_PRIVATE_KEY: generatePrivateKey() }), '--json')
      expect(empty.code).toBe(1)
      expect(empty.find('settlement chain')!.detail).toContain('holds no gas on base-sepolia')
      const wrongChain = await doctor(
        production({ ...self, X402_NETWORK: 'base', X402_SETTLER_PRIVATE_KEY: keyOf(anvilAccount(2)) }),
        '--json',
      )
      expect(wrongChain.find('settlement chain')).toMatchObject({ status: 'block', detail: expect.stringContaining('not base (8453)') })
      // Several networks: each network's RPC is checked against that network.
      const two = await doctor(
        production({
          ...self,
          PAYMENT_NETWORKS: 'base-sepolia,polygon',
          X402_RPC_URL_POLYGON: onchain.chain.rpcUrl,
          X402_SETTLER_PRIVATE_KEY: keyOf(anvilAccount(2)),
        }),
        '--json',
      )
      expect(two.status('settlement chain')).toEqual(['ok', 'block'])
      expect(two.report!.findings.filter((f) => f.check === 'settlement chain')[1]!.detail).toContain('is chain 84532, not polygon (137)')
    },
    SLOW,
  )

  test(
    'a ledger that cannot be written, datasets that do not load, a live provider that does not answer: each blocks',
    async () => {
      const notAFolder = join(dir, 'a-file')
      writeFileSync(notAFolder, 'x')
      const empty = mkdtempSync(join(dir, 'datasets-'))
      const r = await doctor(
        production({
          LEDGER_PATH: join(notAFolder, 'ledger.sqlite'),
          DATASETS_DIR: empty,
          WEB_SEARCH_URL: `http://127.0.0.1:${closedPort}`,
        }),
        '--json',
      )
      expect(r.code).toBe(1)
      expect(r.find('ledger')).toMatchObject({ status: 'block', detail: expect.stringContaining('cannot open and write') })
      expect(r.find('datasets')).toMatchObject({ status: 'block', detail: expect.stringContaining('no manifest.json') })
      expect(r.find('evidence providers')).toMatchObject({ status: 'block', detail: expect.stringContaining('unavailable') })
      expect(await doctor(production({ LEDGER_PATH: ':memory:' }), '--json').then((m) => m.status('ledger'))).toEqual(['block'])
    },
    SLOW,
  )

  test(
    'a live provider is asked once and answers; --no-provider-calls asks none',
    async () => {
      const live = { WEB_SEARCH_PROVIDER: 'searxng', WEB_SEARCH_URL: world.url }
      const before = world.count('/search')
      const asked = await doctor(production(live), '--json')
      expect(asked.find('evidence providers')).toMatchObject({ status: 'ok', detail: expect.stringMatching(/answered [1-9]\d* items/) })
      expect(world.count('/search') - before).toBeGreaterThan(0)
      const counted = world.count('/search')
      const quiet = await doctor(production(live), '--json', '--no-provider-calls')
      expect(quiet.find('evidence providers')!.detail).toContain('not asked')
      expect(world.count('/search')).toBe(counted)
    },
    SLOW,
  )

  test(
    'PUBLIC_BASE_URL on localhost blocks; a TLS URL without TRUSTED_PROXIES is worth a look',
    async () => {
      const local = await doctor(production({ PUBLIC_BASE_URL: 'http://localhost:3000' }), '--json')
      expect(local.find('public URL')).toMatchObject({ status: 'block', detail: expect.stringContaining('this machine only') })
      const lan = await doctor(production({ PUBLIC_BASE_URL: 'https://192.168.1.20' }), '--json')
      expect(lan.find('public URL')).toMatchObject({ status: 'warn', detail: expect.stringContaining('private-network address') })
      const devPayTo = await doctor(production({ PAY_TO: DEV_PAY_TO.toLowerCase() }), '--json')
      expect(devPayTo.find('pay-to address')).toMatchObject({ status: 'block', detail: expect.stringContaining('development address') })
      const direct = await doctor(production({ TRUSTED_PROXIES: '' }), '--json')
      expect(direct.find('proxies')).toMatchObject({ status: 'warn', fix: expect.stringContaining('TRUSTED_PROXIES=loopback') })
    },
    SLOW,
  )
})

describe('doctor asks the public URL', () => {
  const address = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address
  let server: StartedServer | undefined
  if (!address) {
    noteSkipped(
      'test/cli/doctor/doctor.test.ts',
      'a non-loopback IPv4 address',
      'the service is asked at an address other than this machine-only one',
    )
    return
  }
  beforeAll(async () => {
    server = await startServer({ HOST: '0.0.0.0' })
  }, SLOW)
  afterAll(async () => server?.stop())

  test(
    'the service answering /health there is seen; plain http is worth a look',
    async () => {
      const port = new URL(server!.url).port
      const r = await doctor(production({ PUBLIC_BASE_URL: `http://${address}:${port}` }), '--json')
      expect(r.find('public URL')).toMatchObject({
        status: 'warn',
        detail: expect.stringMatching(/answers \/health \(version \d+\.\d+\.\d+\); it is plain http/),
      })
    },
    SLOW,
  )
})

describe('doctor and a PostgreSQL ledger', () => {
  const hasPostgres = requireTool(
    'test/cli/doctor/doctor.test.ts',
    postgresMissing(),
    'doctor connects to the shared ledger (LEDGER_URL) as the service would',
  )
  if (!hasPostgres) return
  let cluster: StartedPostgres
  beforeAll(async () => {
    cluster = await startPostgres()
  }, SLOW)
  afterAll(async () => cluster?.destroy())

  test(
    'reachable and writable: ok with its schema state and the password hidden; gone: blocks',
    async () => {
      const url = cluster.url.replace('postgres@', 'postgres:secret-pw@')
      const up = await doctor(production({ LEDGER_URL: url }), '--json')
      expect(up.find('ledger')).toMatchObject({
        status: 'ok',
        detail: expect.stringContaining('writable, no schema yet (created at start)'),
      })
      expect(up.out).not.toContain('secret-pw')
      await cluster.stop()
      const down = await doctor(production({ LEDGER_URL: url }), '--json')
      expect(down.code).toBe(1)
      expect(down.find('ledger')!.status).toBe('block')
      expect(down.out).not.toContain('secret-pw')
    },
    SLOW,
  )
})
