/**
 * Hostile input against the real server (`bun src/index.ts serve`, sample data, local payments): the
 * fuzzed requests of test/hostile/requests.ts over HTTP, BENCH_CONCURRENCY at a time, plus the named
 * cases (a 50,000-level nested body, a 10 MB body, a 64 KB header, a query string past the limit).
 * Meanwhile /health is asked every 10 ms from another process: its slowest answer is the worst stall
 * another client saw.
 * The server's VmRSS is sampled from /proc. Prints a Markdown section for BENCHMARKS.md.
 *
 *   bun scripts/bench-hostile.ts        (BENCH_REQUESTS 5000, BENCH_CONCURRENCY 8)
 */
import { readFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { routeById } from '../src/catalog'
import { usdToAtomic } from '../src/core/usdc'
import { createPayer } from '../support/payer'
import { startServer } from '../support/server'
import { sampleHostileRequests, type HostileRequest } from '../test/hostile/requests'

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 5000)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8)

const server = await startServer({ LOG_LEVEL: 'error' })
const pid = server.proc.pid
const kb = (field: string) => Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`${field}:\\s+(\\d+)`))![1]) / 1024
const payer = createPayer()
const proofFor = (id: string) => payer.proof({ value: usdToAtomic(routeById.get(id)!.priceUsd) })

// Warm up (first answers per dataset, the corpus's creator window) before the baseline RSS.
for (const path of ['/v1/market-data/spend/summary?country=Japan', '/v1/china/kols?category=beauty', '/v1/china/trends?keyword=camping']) {
  await fetch(`${server.url}${path}`, {
    headers: {
      'x402-payment': await proofFor(path.includes('kols') ? 'china.kols' : path.includes('trends') ? 'china.trends' : 'spend.summary'),
    },
  })
}
const rssStart = kb('VmRSS')

/** /health asked every 10 ms from another process; `worst()` ends it and returns its slowest answer. */
function prober() {
  const proc = Bun.spawn([process.execPath, 'scripts/bench-lib/health-prober.ts', server.url], { stdin: 'pipe', stdout: 'pipe' })
  return async (): Promise<number> => {
    proc.stdin.end()
    return JSON.parse(await new Response(proc.stdout).text()).worstMs as number
  }
}
const fuzzProbe = prober()
let rssPeak = rssStart
const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, kb('VmRSS'))), 100)

const proofs = await Promise.all(['spend.summary', 'china.trends', 'capabilities.visibility', 'spend.months'].map(proofFor))
const requests = sampleHostileRequests(proofs, REQUESTS, 20261122)
const statuses = new Map<number, number>()
let slowestMs = 0
const send = async (request: HostileRequest) => {
  const headers = request.pay ? { ...request.headers, 'x402-payment': await proofFor(request.route) } : request.headers
  const sentAt = performance.now()
  let status: number
  try {
    const res = await fetch(`${server.url}${request.path}`, {
      method: request.method,
      headers,
      ...(request.body === undefined ? {} : { body: request.body }),
    })
    await res.arrayBuffer()
    status = res.status
  } catch {
    status = 0 // the connection was refused or reset
  }
  slowestMs = Math.max(slowestMs, performance.now() - sentAt)
  statuses.set(status, (statuses.get(status) ?? 0) + 1)
}
const started = performance.now()
let next = 0
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < requests.length) await send(requests[next++]!)
  }),
)
const seconds = (performance.now() - started) / 1000
const fuzzWorstHealthMs = await fuzzProbe()

// The named cases, answered by the application (envelope) or, for the header, by the HTTP server.
const named: [string, () => Promise<Response>][] = [
  [
    'POST body nested 50,000 levels (250 KB)',
    () =>
      fetch(`${server.url}/v1/visibility/snapshot`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`,
      }),
  ],
  [
    'POST body of 10 MB',
    () =>
      fetch(`${server.url}/v1/visibility/snapshot`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: 'x'.repeat(10 * 1024 * 1024),
      }),
  ],
  ['query string of 5 KB', () => fetch(`${server.url}/v1/china/trends?keyword=${'a'.repeat(5 * 1024)}`)],
  ['a 64 KB header', () => fetch(`${server.url}/health`, { headers: { 'x-padding': 'a'.repeat(64 * 1024) } })],
  // The costliest sample answers a buyer can pay for: a year of the largest category (~30,000 posts).
  [
    'paid trends, travel, 365 days',
    async () =>
      fetch(`${server.url}/v1/china/trends?keyword=travel&timeframe=365d`, { headers: { 'x402-payment': await proofFor('china.trends') } }),
  ],
  [
    'paid sentiment, travel, 365 days',
    async () =>
      fetch(`${server.url}/v1/china/sentiment?entity=travel&timeframe=365d`, {
        headers: { 'x402-payment': await proofFor('china.sentiment') },
      }),
  ],
]
const namedRows: string[] = []
for (const [name, call] of named) {
  const probe = prober()
  await Bun.sleep(50)
  const calledAt = performance.now()
  const res = await call()
  const elapsed = performance.now() - calledAt
  const worstHealthMs = await probe()
  const text = await res.text()
  const code = text.startsWith('{') ? (JSON.parse(text).error?.code ?? 'ok') : '(no body: the HTTP server)'
  namedRows.push(
    `| ${name} | ${res.status} ${code} | ${elapsed.toFixed(1)} ms | ${worstHealthMs.toFixed(1)} ms | ${kb('VmRSS').toFixed(0)} MB |`,
  )
}

clearInterval(sampler)
const rssEnd = kb('VmRSS')
const hwm = kb('VmHWM')
await server.stop()

const fivexx = [...statuses].filter(([s]) => s >= 500 && s !== 501).reduce((n, [, c]) => n + c, 0)
console.log(`## ${new Date().toISOString().slice(0, 10)} — hostile input (\`bun scripts/bench-hostile.ts\`)

${cpus().length} cores, ${process.arch}, Bun ${Bun.version}; the server from source with the sample data, local payments, rate limits off; ${REQUESTS} fuzzed requests (fast-check, seed 20261122) over every catalog route, ${CONCURRENCY} at a time, in ${seconds.toFixed(1)} s.

| figure | value |
|---|---|
| requests tried | ${REQUESTS} fuzzed + ${named.length} named |
| answers by status | ${[...statuses]
  .sort((a, b) => a[0] - b[0])
  .map(([s, c]) => `${s}: ${c}`)
  .join(', ')} |
| 5xx (target 0) | ${fivexx} |
| slowest fuzzed request | ${slowestMs.toFixed(1)} ms |
| worst /health answer during the run (another client's stall) | ${fuzzWorstHealthMs.toFixed(1)} ms |
| VmRSS after warm-up → peak during the run → end | ${rssStart.toFixed(0)} → ${rssPeak.toFixed(0)} → ${rssEnd.toFixed(0)} MB (VmHWM ${hwm.toFixed(0)} MB) |

| named case | answer | time | worst /health meanwhile | VmRSS after |
|---|---|---|---|---|
${namedRows.join('\n')}`)
process.exit(fivexx === 0 ? 0 : 1)
