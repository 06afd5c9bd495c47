import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { CATALOG, type RouteSpec } from '../../src/catalog'
import { exampleCall } from '../../src/catalog/examples'
import { implementedRouteIds } from '../../src/composition/handler-map'
import pkg from '../../package.json' with { type: 'json' }
import { createPayer } from '../../support/payer'
import { freePort } from '../../support/ports'
import { wrapFetchWithSIWx } from '@x402/extensions/sign-in-with-x'
import { tableFromIPC } from 'apache-arrow'
import {
  HIDES_REPOSITORY,
  ROOT,
  buildAndCopy,
  cleanEnv,
  cleanupBinaryTests,
  installedBinary,
  isolated,
  runBinary,
  scratchDir,
  serveBinary,
  type RunningBinary,
} from './binary-process'

// Builds the real executable (scripts/build.ts) and runs a copy of it alone in a folder outside the
// repository, with an environment that has no NODE_PATH, and (where unshare works) with the repository
// hidden behind an empty tmpfs: what an operator who downloads it gets. Each start has a fresh HOME,
// so an empty cache.

const BUILD_TIMEOUT = 300_000
const manifest = JSON.parse(readFileSync(join(ROOT, 'datasets/manifest.json'), 'utf8'))
const payer = createPayer()
const running: RunningBinary[] = []

async function stopAll() {
  for (const r of running.splice(0)) {
    r.proc.kill('SIGTERM')
    await r.proc.exited
  }
}
afterAll(async () => {
  await stopAll()
  cleanupBinaryTests()
})

/** Serves `bin` from its own folder with a clean environment over `home` (plus `env`), stopped after the file. */
async function serve(bin: string, home: string, env: Record<string, string> = {}): Promise<RunningBinary> {
  const server = await serveBinary(bin, dirname(bin), cleanEnv(home, env))
  running.push(server)
  return server
}

/** Where the executable extracts its datasets and builds its indexes, under `home`. */
const cacheOf = (home: string) => join(home, '.cache/china-market-intel')

/** A copy of the datasets folder, its manifest.json changed by `edit`: its path. */
function datasetsCopy(edit: (copy: typeof manifest) => void): string {
  const data = scratchDir('datasets')
  cpSync(join(ROOT, 'datasets'), data, { recursive: true })
  const copy = structuredClone(manifest)
  edit(copy)
  writeFileSync(join(data, 'manifest.json'), JSON.stringify(copy))
  return data
}

/** A request that reaches the route's handler, from the catalog's examples (the ones `smoke` uses). */
function exampleUrl(route: RouteSpec): string {
  const { path, input } = exampleCall(route)
  const query = new URLSearchParams(Object.entries(input).map(([k, v]) => [k, String(v)]))
  return query.size ? `${path}?${query}` : path
}

describe('the executable copied alone into an empty folder', () => {
  const run = { dir: '', bin: '', home: '' }
  let server: RunningBinary
  beforeAll(async () => {
    run.bin = await installedBinary()
    run.dir = dirname(run.bin)
    run.home = scratchDir('home')
    server = await serve(run.bin, run.home)
  }, BUILD_TIMEOUT)

  test.if(HIDES_REPOSITORY)('runs where the repository is hidden: a process started the same way sees it empty', async () => {
    const proc = Bun.spawn(isolated(['ls', '-A', ROOT]), { stdout: 'pipe', stderr: 'pipe' })
    expect(await proc.exited).toBe(0)
    expect(await new Response(proc.stdout).text()).toBe('')
  })

  test('--version prints the package version and exits 0', async () => {
    const r = await runBinary(run.bin, ['--version'], run.dir, cleanEnv(run.home))
    expect(r).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' })
  })

  test('--help exits 0 and lists the commands and the configuration', async () => {
    const r = await runBinary(run.bin, ['--help'], run.dir, cleanEnv(run.home))
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('china-market-intel serve')
    expect(r.stdout).toContain('DATASETS_DIR')
  })

  test('/health answers 200 once it listens; /ready 200 once the indexes are built, with the versions of the built-in datasets', async () => {
    expect((await fetch(`${server.url}/health`)).status).toBe(200)
    const body = await (await server.ready()).json()
    expect(body.data.ready).toBe(true)
    expect(body.data.checks.indexes).toEqual({ market: 'ok', signals: 'ok', evidence: 'ok' })
    const versions = Object.fromEntries(Object.entries(manifest.datasets).map(([name, d]: [string, any]) => [name, d.version]))
    expect(body.data.checks.datasets.versions).toEqual(versions)
  })

  // The secp256k1 package ships a prebuilt binding for linux-x64 (not arm64, where @noble/curves runs).
  test.if(process.arch === 'x64')(
    'recovers payment signers with the libsecp256k1 binding built into it: /ready and the banner say so, and the loaded copy is its own',
    async () => {
      const body = await (await fetch(`${server.url}/ready`)).json()
      expect(body.data.checks.signature_recovery).toEqual({ implementation: 'libsecp256k1 (native)' })
      expect(server.output()).toContain('\n  ecdsa:   libsecp256k1 (native) recovers payment signers\n')
      // The process maps a file with the prebuilt binding's bytes, extracted by Bun from the executable
      // (node_modules is not reachable: the repository is hidden from it where unshare works).
      const prebuilt = readFileSync(join(ROOT, 'node_modules/secp256k1/prebuilds/linux-x64/secp256k1.glibc.node'))
      const mapped = [
        ...new Set(
          readFileSync(`/proc/${server.proc.pid}/maps`, 'utf8')
            .split('\n')
            .map((l) => l.split(/\s+/)[5] ?? '')
            .filter((f) => f.endsWith('.node')),
        ),
      ]
      const binding = mapped.filter((f) => readFileSync(f).equals(prebuilt))
      expect(binding).toHaveLength(1)
      expect(binding[0]).not.toContain('node_modules')
    },
  )

  test('extracts its datasets and the corpus index to the cache under HOME, byte for byte, and writes nothing beside itself', () => {
    expect(readdirSync(run.dir)).toEqual(['china-market-intel'])
    const cache = cacheOf(run.home)
    const folders = readdirSync(cache).sort()
    expect(folders).toEqual([expect.stringMatching(/^datasets-[0-9a-f]{16}$/), expect.stringMatching(/^duckdb-[0-9a-f]{16}$/)])
    const datasets = join(cache, folders[0]!)
    // The corpus's search index is built into it too: the executable never builds one at start.
    const prefix = `evidence-${manifest.datasets.evidence.sha256.slice(0, 12)}.index-v`
    const index = readdirSync(datasets).find((name) => name.startsWith(prefix))!
    // Named after the corpus and the weekly signals it knows: other signals would give another file.
    expect(index).toMatch(/^evidence-[0-9a-f]{12}\.index-v\d+-[0-9a-f]{12}\.sqlite$/)
    const files = ['manifest.json', ...Object.values(manifest.datasets).map((d: any) => d.file as string), index]
    expect(readdirSync(datasets).sort()).toEqual([...files].sort())
    for (const f of files) expect(readFileSync(join(datasets, f)).equals(readFileSync(join(ROOT, 'datasets', f)))).toBe(true)
  })

  test('every live paid route answers 402 with requirements unpaid, and 200 with a success envelope paid', async () => {
    const live = implementedRouteIds()
    const routes = CATALOG.filter((r) => live.has(r.id))
    expect(routes.length).toBeGreaterThan(0)
    for (const route of routes) {
      const url = `${server.url}${exampleUrl(route)}`
      const unpaid = await fetch(url)
      expect({ route: route.id, status: unpaid.status }).toEqual({ route: route.id, status: 402 })
      const required = await unpaid.json()
      expect(required.error.code).toBe('payment_required')
      expect(unpaid.headers.get('payment-required')).toBeTruthy()
      const amount = required.accepts[0].maxAmountRequired
      expect(amount).toBe(String(Math.round(Number(route.priceUsd) * 1e6)))

      const paid = await fetch(url, { headers: { 'x402-payment': await payer.proof({ value: BigInt(amount) }) } })
      const body = await paid.json()
      expect({ route: route.id, status: paid.status, success: body.success }).toEqual({ route: route.id, status: 200, success: true })
      expect(body.pricing).toEqual({ amount_usd: route.priceUsd, payment_status: 'paid' })
    }
  })

  test("the wallet that paid signs in (x402 sign-in-with-x) and gets its answer again: viem's SIWE module is built in", async () => {
    // Its own port and PUBLIC_BASE_URL: the challenge is bound to the origin the client fetched.
    const port = await freePort()
    const own = await serve(run.bin, scratchDir('home'), { PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` })
    await own.ready()
    const url = `${own.url}/v1/market-data/flights/summary?destination=Tokyo`
    const paid = await fetch(url, { headers: { 'x402-payment': await payer.proof({ value: 100_000n }) } })
    expect(paid.status).toBe(200)
    const signedIn = await wrapFetchWithSIWx(fetch, payer.account)(url)
    expect(signedIn.status).toBe(200)
    expect(signedIn.headers.get('x-payment-replay')).toBe('signed-in')
    expect(await signedIn.text()).toBe(await paid.text())
  })

  test('a table answers as Arrow and CSV (apache-arrow is built in, loaded on first use)', async () => {
    const url = `${server.url}/v1/market-data/flights/top-routes?destination=Tokyo&limit=5`
    const proof = () => payer.proof({ value: 100_000n })
    const arrow = await fetch(`${url}&format=arrow`, { headers: { 'x402-payment': await proof() } })
    expect(arrow.status).toBe(200)
    expect(arrow.headers.get('content-type')).toBe('application/vnd.apache.arrow.stream')
    const table = tableFromIPC(new Uint8Array(await arrow.arrayBuffer()))
    expect(table.numRows).toBe(5)
    expect(String(table.schema.fields.find((f) => f.name === 'estimated_passengers')!.type)).toBe('Int64')
    const csv = await fetch(url, { headers: { 'x402-payment': await proof(), accept: 'text/csv' } })
    expect(csv.headers.get('x-sample-data')).toBe('true')
    expect((await csv.text()).split('\r\n')[0]).toStartWith('rank,origin_city,origin_code,')
  })

  test('its own smoke command, run from another working directory, pays every live route and passes', async () => {
    const elsewhere = scratchDir('smoke-cwd')
    const r = await runBinary(run.bin, ['smoke', '--base-url', server.url], elsewhere, cleanEnv(scratchDir('home')))
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const live = implementedRouteIds()
    const calls = CATALOG.filter((r) => live.has(r.id)).reduce((n, r) => n + r.methods.length, 0)
    expect(r.stdout).toMatch(
      new RegExp(`Smoke test passed: \\d+ checks, ${calls} OK, \\d+ PLANNED \\(501, not served by this release\\), 0 FAIL\\.`),
    )
    expect(readdirSync(elsewhere)).toEqual([])
  })

  test('its MCP endpoint lists every served route as a tool (the SDK is built in)', async () => {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js')
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js')
    const client = new Client({ name: 'binary-test', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)))
    try {
      expect((await client.listTools()).tools).toHaveLength(implementedRouteIds().size)
    } finally {
      await client.close()
    }
  })

  test('data list reads the built-in datasets; data import refuses to change that read-only copy', async () => {
    const listed = await runBinary(run.bin, ['data', 'list'], run.dir, cleanEnv(run.home))
    expect(listed.code).toBe(0)
    expect(listed.stdout).toContain(manifest.datasets.spend.version)
    const refused = await runBinary(run.bin, ['data', 'import', join(ROOT, 'datasets/spend.parquet')], run.dir, cleanEnv(run.home))
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('read-only copy. Set DATASETS_DIR')
    // The one thing missing, and where the rest is: not the whole usage text.
    expect(refused.stderr).not.toContain('Usage:')
    expect(refused.stderr.trim().split('\n')).toHaveLength(2)
  })

  test('the API reference, its embedded script and the OpenAPI document are served', async () => {
    const ui = await fetch(`${server.url}/openapi`)
    expect(ui.status).toBe(200)
    const script = await fetch(`${server.url}/openapi/assets/scalar.js`)
    expect(script.status).toBe(200)
    expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(100_000)
    const doc = await (await fetch(`${server.url}/openapi/json`)).json()
    expect(Object.keys(doc.paths)).toContain('/v1/market-data/flights/summary')
  })

  test('the front door (JSON and page), the browser 402 page and the icons are served', async () => {
    const json = await (await fetch(`${server.url}/`)).json()
    expect(json.data.routes).toHaveLength(CATALOG.length)
    const page = await fetch(`${server.url}/`, { headers: { accept: 'text/html' } })
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect((await page.text()).match(/<tr data-route=/g)).toHaveLength(CATALOG.length)
    const paywall = await fetch(`${server.url}/v1/market-data/spend/months`, { headers: { accept: 'text/html' } })
    expect(paywall.status).toBe(402)
    expect(await paywall.text()).toContain('402 Payment required')
    for (const [path, type] of [
      ['/favicon.ico', 'image/x-icon'],
      ['/favicon.svg', 'image/svg+xml'],
    ] as const) {
      const icon = await fetch(`${server.url}${path}`)
      expect({ path, status: icon.status, type: icon.headers.get('content-type') }).toEqual({ path, status: 200, type })
    }
  })
})

describe('DATASETS_DIR', () => {
  test(
    'points the executable at another datasets folder, and nothing built in is extracted',
    async () => {
      const data = datasetsCopy((copy) => {
        copy.datasets.flights.version = 'flights-data-team-copy'
      })
      const home = scratchDir('home')
      const server = await serve(await installedBinary(), home, { DATASETS_DIR: data })
      const ready = await (await server.ready()).json()
      expect(ready.data.checks.datasets.versions.flights).toBe('flights-data-team-copy')
      const paid = await fetch(`${server.url}/v1/market-data/flights/summary?destination=Tokyo`, {
        headers: { 'x402-payment': await payer.proof({ value: 100_000n }) },
      })
      expect((await paid.json()).data.data_quality.dataset_version).toBe('flights-data-team-copy')
      expect(readdirSync(cacheOf(home))).toEqual([expect.stringMatching(/^duckdb-/)])
    },
    BUILD_TIMEOUT,
  )
})

describe('two copies starting at once on an empty cache', () => {
  test(
    'both serve, and the cache holds one complete copy with no temp files left',
    async () => {
      const bin = await installedBinary()
      const home = scratchDir('home')
      const copies = await Promise.all([serve(bin, home), serve(bin, home)])
      for (const copy of copies) expect((await copy.ready()).status).toBe(200)
      const entries = readdirSync(cacheOf(home), { recursive: true }).map(String).sort()
      expect(entries.filter((e) => e.endsWith('.tmp'))).toEqual([])
      expect(entries.filter((e) => !e.includes('/'))).toHaveLength(2)
    },
    BUILD_TIMEOUT,
  )
})

describe('a dataset added to manifest.json', () => {
  test(
    'is built into the executable and extracted with the others, with no code change',
    async () => {
      // A dataset this release has no contract for: embedded and extracted, not loaded.
      const data = datasetsCopy((listed) => {
        listed.datasets.reference_notes = {
          file: 'reference_notes.parquet',
          schema_version: 1,
          rows: 0,
          period: { from: '2026-01', to: '2026-01' },
          sha256: '',
          version: 'reference_notes-test',
        }
      })
      const extra = crypto.getRandomValues(new Uint8Array(4096))
      writeFileSync(join(data, 'reference_notes.parquet'), extra)

      const bin = await buildAndCopy(data)
      const home = scratchDir('home')
      const server = await serve(bin, home)
      expect((await server.ready()).status).toBe(200)
      const cache = cacheOf(home)
      const extracted = join(cache, readdirSync(cache).find((d) => d.startsWith('datasets-'))!)
      expect(new Uint8Array(readFileSync(join(extracted, 'reference_notes.parquet')))).toEqual(extra)
      expect(JSON.parse(readFileSync(join(extracted, 'manifest.json'), 'utf8')).datasets.reference_notes.version).toBe(
        'reference_notes-test',
      )
    },
    BUILD_TIMEOUT,
  )
})
