import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { DEV_OFFER } from '../../../support/offers'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Server } from 'bun'
import { CATALOG, type RouteSpec } from '../../../src/catalog'
import { DEV_PAY_TO } from '../../../src/config/config'
import { implementedRouteIds } from '../../../src/composition/handler-map'
import { usdToAtomic } from '../../../src/core/usdc'
import { decodeProof, type ExactProof, readProofHeader } from '../../../src/payments/gate/proof'
import { ApiError } from '../../../src/core/errors'
import { errorResponse } from '../../../src/http/responses'
import { paymentRequirements, termsFor, type PaymentTerms } from '../../../src/payments/gate/requirements'
import { verifyLocally, type VerifyResult } from '../../../src/payments/gate/verify-local'
import { startServer, type StartedServer } from '../../../support/server'

const ROOT = resolve(import.meta.dir, '../../..')

interface Run {
  exit: number
  out: string
  err: string
}

/** Runs the CLI as a separate process, as an operator would; killed after 50 s so a hang fails the test. */
async function run(cmd: string[]): Promise<Run> {
  const proc = Bun.spawn(cmd, { cwd: ROOT, stdout: 'pipe', stderr: 'pipe', timeout: 50_000 })
  const [out, err, exit] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { exit, out, err }
}
const smoke = (...args: string[]) => run([process.execPath, 'src/index.ts', 'smoke', ...args])

/** The table row of one request: it starts with `METHOD path` and a space. */
const rowOf = (out: string, method: string, path: string) => out.split('\n').find((l) => l.startsWith(`${method} ${path} `))
const cells = (row: string | undefined) => row?.trim().split(/\s+/) ?? []

const implemented = implementedRouteIds()
const checks = (routes: readonly RouteSpec[]) => routes.reduce((n, r) => n + r.methods.length, 0)

describe('smoke against a started development-mode server', () => {
  let server: StartedServer
  let dir: string
  let ledgerPath: string
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'smoke-ledger-'))
    ledgerPath = join(dir, 'ledger.sqlite')
    server = await startServer({ LEDGER_PATH: ledgerPath, NODE_ENV: 'development' })
  })
  afterAll(async () => {
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  test('exits 0 with one OK row per served route and a PLANNED row per 501 route, counted in the summary', async () => {
    const { exit, out, err } = await smoke('--base-url', server.url)
    expect(err).toBe('')
    expect(exit).toBe(0)
    expect(implemented.size).toBeGreaterThan(0)
    for (const route of CATALOG) {
      for (const method of route.methods) {
        const [, , unpaid, paid, ms, usd, result] = cells(rowOf(out, method, route.path))
        if (implemented.has(route.id)) {
          expect([route.id, unpaid, paid, usd, result]).toEqual([route.id, '402', '200', route.priceUsd, 'OK'])
          expect(Number(ms)).toBeGreaterThanOrEqual(0)
        } else {
          expect([route.id, unpaid, paid, ms, usd, result]).toEqual([route.id, '501', '-', '-', route.priceUsd, 'PLANNED'])
        }
      }
    }
    const ok = checks(CATALOG.filter((r) => implemented.has(r.id)))
    const planned = checks(CATALOG.filter((r) => !implemented.has(r.id)))
    expect(out).toContain(
      `Smoke test passed: ${ok + planned} checks, ${ok} OK, ${planned} PLANNED (501, not served by this release), 0 FAIL.`,
    )
  })

  test('--json: each served route and method is paid once, and the server ledger records those payments from the throwaway wallet', async () => {
    const { exit, out } = await smoke('--base-url', server.url, '--json')
    expect(exit).toBe(0)
    const report = JSON.parse(out)
    expect(report.payer).toMatch(/^0x[0-9a-fA-F]{40}$/)
    const paid = report.results.filter((r: { result: string }) => r.result === 'OK')
    const servedCalls = CATALOG.filter((r) => implemented.has(r.id)).flatMap((r) => r.methods.map(() => r.id))
    expect(paid.map((r: { route: string }) => r.route).sort()).toEqual(servedCalls.sort())
    for (const r of paid) expect(r.latency_ms).toBeGreaterThanOrEqual(0)

    // A paid answer is sent only once its payment is committed, so the rows are on disk already.
    const db = new Database(ledgerPath, { readonly: true })
    try {
      const rows = db
        .query<{ route: string; amount_atomic: string; state: string }, [string]>(
          'SELECT route, amount_atomic, state FROM payments WHERE payer = ?',
        )
        .all(report.payer.toLowerCase())
      expect(rows.map((r) => r.route).sort()).toEqual(servedCalls.sort())
      for (const row of rows) {
        expect(row.state).toBe('served')
        expect(row.amount_atomic).toBe(usdToAtomic(CATALOG.find((r) => r.id === row.route)!.priceUsd).toString())
      }
    } finally {
      db.close()
    }
  })
})

/** A tiny loopback server standing in for a broken deployment. */
function fake(handler: (req: Request, route: RouteSpec | undefined) => Response | Promise<Response>): Server<undefined> {
  return Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: (req) =>
      handler(
        req,
        CATALOG.find((r) => r.path === new URL(req.url).pathname),
      ),
  })
}

/** A 402 built by the server's own requirements code, with terms the test may alter. */
function answer402(req: Request, route: RouteSpec, edit: (t: PaymentTerms) => PaymentTerms = (t) => t): Response {
  const payment = paymentRequirements(route, [edit(termsFor(route, DEV_OFFER))], req.url.split('?')[0]!, 'Payment required')
  return errorResponse(new ApiError('payment_required', 'Payment required', undefined, { payment }), 'req_fake')
}

const success = (pricing: unknown) => Response.json({ success: true, data: {}, meta: { request_id: 'req_fake' }, pricing })

describe('smoke against servers that get payment wrong', () => {
  const servers: Server<undefined>[] = []
  afterAll(() => {
    for (const s of servers) s.stop(true)
  })
  const start = (handler: Parameters<typeof fake>[0]) => {
    const s = fake(handler)
    servers.push(s)
    return `http://127.0.0.1:${s.port}`
  }

  test('a server that answers 200 without asking for payment fails the run', async () => {
    const url = start((_req, route) => success({ amount_usd: route?.priceUsd, payment_status: 'paid' }))
    const { exit, out } = await smoke('--base-url', url, '--route', 'flights.summary,spend.months')
    expect(exit).toBe(1)
    for (const path of ['/v1/market-data/flights/summary', '/v1/market-data/spend/months']) {
      const row = rowOf(out, 'GET', path)
      expect(cells(row).slice(2, 4)).toEqual(['200', '-'])
      expect(row).toContain('FAIL  answered 200 without asking for payment')
    }
    expect(out).toContain('Smoke test FAILED: 2 checks, 0 OK, 0 PLANNED (501, not served by this release), 2 FAIL.')
  })

  test('a 402 asking for the wrong amount fails, and the smoke command signs nothing for it', async () => {
    let proofsSeen = 0
    const url = start((req, route) => {
      if (readProofHeader(req.headers)) proofsSeen++
      return route ? answer402(req, route, (t) => ({ ...t, amountAtomic: t.amountAtomic + 1n })) : new Response('ok')
    })
    const { exit, out } = await smoke('--base-url', url, '--route', 'flights.summary')
    expect(exit).toBe(1)
    const row = rowOf(out, 'GET', '/v1/market-data/flights/summary')
    expect(cells(row).slice(2, 4)).toEqual(['402', '-'])
    expect(row).toContain('FAIL  v2 amount is "100001", expected 100000 (USD 0.10)')
    expect(row).toContain('v1 maxAmountRequired is "100001", expected 100000 (USD 0.10)')
    expect(row).toContain('v2 amount is "100001", expected 100000 (USD 0.10)')
    expect(proofsSeen).toBe(0)
  })

  test('a paid answer at another price fails the run, though the proof it got verifies for exactly the requirements', async () => {
    const verdicts: VerifyResult[] = []
    const url = start((req, route) => {
      if (!route) return new Response('ok')
      const header = readProofHeader(req.headers)
      if (!header) return answer402(req, route)
      verdicts.push(verifyLocally(decodeProof(header) as ExactProof, termsFor(route, DEV_OFFER), Math.floor(Date.now() / 1000)))
      return success({ amount_usd: '0.01', payment_status: 'paid' })
    })
    const { exit, out } = await smoke('--base-url', url, '--route', 'flights.aggregate', '--json')
    expect(exit).toBe(1)
    const [result] = JSON.parse(out).results
    expect(result).toMatchObject({
      unpaid_status: 402,
      paid_status: 200,
      result: 'FAIL',
      reason: 'pricing.amount_usd is "0.01", expected "0.16"',
    })
    expect(verdicts).toEqual([{ ok: true, payer: expect.stringMatching(/^0x[0-9a-f]{40}$/) }])
  })

  test('a route that never answers fails with the timeout named, and the run still ends', async () => {
    let release!: () => void
    const hung = new Promise<Response>((r) => (release = () => r(new Response('late'))))
    const url = start((_req, route) => (route ? hung : new Response('ok')))
    try {
      const { exit, out } = await smoke('--base-url', url, '--route', 'spend.months', '--timeout', '1')
      expect(exit).toBe(1)
      expect(rowOf(out, 'GET', '/v1/market-data/spend/months')).toContain('FAIL  unpaid call: no answer within 1 s')
    } finally {
      release()
    }
  })
})

describe('smoke usage and reachability', () => {
  test('an unreachable base URL is one clear line on stderr and exit 1', async () => {
    const closed = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
    const url = `http://127.0.0.1:${closed.port}`
    closed.stop(true)
    const { exit, out, err } = await smoke('--base-url', url)
    expect(exit).toBe(1)
    expect(out).toBe('')
    expect(err).toBe(`smoke: cannot reach ${url} (ECONNREFUSED); is the server running?\n`)
  })

  test('--help prints the usage and exits 0', async () => {
    const { exit, out } = await smoke('--help')
    expect(exit).toBe(0)
    expect(out).toStartWith('Usage: china-market-intel smoke [--base-url URL]')
    expect(out).toContain('--timeout SECONDS')
  })

  test('bad flags and values are named, with exit code 2', async () => {
    const cases: [string[], string][] = [
      [['--bogus'], "smoke: Unknown option '--bogus'"],
      [['--timeout', '0'], 'smoke: --timeout must be a positive number of seconds, got "0"'],
      [['--route', 'flights.nope'], 'smoke: unknown route "flights.nope"; known ids: china.trends,'],
      [['--base-url', 'localhost:3000'], 'smoke: --base-url must be an http(s) URL'],
    ]
    for (const [args, message] of cases) {
      const { exit, out, err } = await smoke(...args)
      expect({ args, exit, out }).toEqual({ args, exit: 2, out: '' })
      expect(err).toStartWith(message)
      expect(err).toContain('Run "china-market-intel smoke --help" for usage.')
    }
  })

  test('`npm start -- smoke --help` reaches the smoke command (npm appends the arguments to the start script)', async () => {
    const { exit, out } = await run(['npm', 'start', '--silent', '--', 'smoke', '--help'])
    expect(exit).toBe(0)
    expect(out).toStartWith('Usage: china-market-intel smoke')
  })
})
