import { parseArgs } from 'node:util'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { CATALOG, type RouteSpec } from '../../catalog'
import { summarize, summaryLine, tableWriter } from './smoke-report'
import { exampleRequests } from './smoke-requests'
import { smokeRoute, type SmokeResult } from './smoke-route'

const DEFAULT_BASE_URL = 'http://localhost:3000'
const DEFAULT_TIMEOUT_SECONDS = 60

const SMOKE_USAGE = `Usage: china-market-intel smoke [--base-url URL] [--route ID]... [--json] [--timeout SECONDS]

Smoke test of a running server. Calls every catalog route once without payment and expects 402 with
that route's payment requirements (x402 v1 body and v2 PAYMENT-REQUIRED header, at the catalog price),
then pays exactly those requirements with an EIP-3009 authorization and expects 200, paid. Routes the
server answers 501 not_implemented are reported PLANNED and do not fail the run.

Payments are signed by a throwaway wallet generated for the run, which holds no funds: this works
offline against a server that verifies payments offline (this release). Each paid call is recorded
in the server's payment ledger under that wallet's address, printed first.

Options:
  --base-url URL       Server to test (default ${DEFAULT_BASE_URL}).
  --route ID           Only this route, by catalog id (e.g. flights.summary) or path; repeat the
                       option or separate ids with commas.
  --json               Print the results as JSON instead of a table.
  --timeout SECONDS    Per-request timeout (default ${DEFAULT_TIMEOUT_SECONDS}).
  -h, --help           This text.

Exit status: 0 when nothing failed, 1 when a check failed or the server is unreachable, 2 on bad usage.
`

class UsageError extends Error {}

interface SmokeOptions {
  help: boolean
  baseUrl: string
  routes: RouteSpec[]
  json: boolean
  timeoutMs: number
}

function selectRoutes(values: string[] | undefined): RouteSpec[] {
  const wanted = (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean)
  if (wanted.length === 0) return [...CATALOG]
  for (const w of wanted) {
    if (!CATALOG.some((r) => r.id === w || r.path === w))
      throw new UsageError(`unknown route "${w}"; known ids: ${CATALOG.map((r) => r.id).join(', ')}`)
  }
  return CATALOG.filter((r) => wanted.includes(r.id) || wanted.includes(r.path))
}

const OPTIONS = {
  'base-url': { type: 'string' },
  route: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  timeout: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

function parseSmokeArgs(args: string[]): SmokeOptions {
  let values
  try {
    values = parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: false }).values
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]!) // node's messages name the option; the rest is hints
  }
  const baseUrl = values['base-url'] ?? DEFAULT_BASE_URL
  let url: URL | null = null
  try {
    url = new URL(baseUrl)
  } catch {
    // reported below
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash)
    throw new UsageError(`--base-url must be an http(s) URL like ${DEFAULT_BASE_URL}, got "${baseUrl}"`)
  const timeout = values.timeout === undefined ? DEFAULT_TIMEOUT_SECONDS : Number(values.timeout)
  if (!Number.isFinite(timeout) || timeout <= 0)
    throw new UsageError(`--timeout must be a positive number of seconds, got "${values.timeout}"`)
  return {
    help: values.help ?? false,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    routes: selectRoutes(values.route),
    json: values.json ?? false,
    timeoutMs: timeout * 1000,
  }
}

/** Null when the server answers anything at all; otherwise why it could not be reached. */
async function unreachable(baseUrl: string, timeoutMs: number): Promise<string | null> {
  try {
    await (await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(timeoutMs) })).arrayBuffer()
    return null
  } catch (error) {
    if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`
    return error instanceof Error ? ((error as { code?: string }).code ?? error.message) : String(error)
  }
}

/** `smoke`: pay every catalog route of a running server once and report what it answered. */
export async function smoke(args: string[]): Promise<void> {
  let options: SmokeOptions
  try {
    options = parseSmokeArgs(args)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    process.stderr.write(`smoke: ${error.message}\nRun "china-market-intel smoke --help" for usage.\n`)
    process.exitCode = 2
    return
  }
  if (options.help) {
    process.stdout.write(SMOKE_USAGE)
    return
  }
  let requests
  try {
    requests = options.routes.flatMap((r) => exampleRequests(r, options.baseUrl))
  } catch (error) {
    process.stderr.write(`smoke: ${(error as Error).message}\n`) // a catalog gap: no valid request can be built
    process.exitCode = 1
    return
  }
  const why = await unreachable(options.baseUrl, options.timeoutMs)
  if (why) {
    process.stderr.write(`smoke: cannot reach ${options.baseUrl} (${why}); is the server running?\n`)
    process.exitCode = 1
    return
  }

  const payer = privateKeyToAccount(generatePrivateKey())
  const out = (line: string) => process.stdout.write(`${line}\n`)
  const table = tableWriter(
    requests.map((r) => `${r.method} ${r.route.path}`),
    out,
  )
  if (!options.json) {
    out(`Smoke test of ${options.baseUrl}, paying from throwaway wallet ${payer.address}\n`)
    table.header()
  }
  const results: SmokeResult[] = []
  for (const req of requests) {
    const result = await smokeRoute(req, payer, options.timeoutMs)
    results.push(result)
    if (!options.json) table.row(result)
  }
  const summary = summarize(results)
  if (options.json) out(JSON.stringify({ base_url: options.baseUrl, payer: payer.address, results, summary }, null, 2))
  else out(`\n${summaryLine(summary)}`)
  process.exitCode = summary.failed > 0 ? 1 : 0
}
