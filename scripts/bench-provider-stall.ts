/**
 * A hostile evidence provider against the real server: a search and chat-completions provider in its own
 * process (support/hostile-provider.ts) answers every call of a paid China request with (a) ~16 MB of
 * items streamed without a Content-Length, (b) 50 items of 100,000 characters, (c) results at the item
 * limits, (d) long results just under the byte limit, (e) arrays nested two million levels deep and (f)
 * one object of ~310,000 keys, both under the byte limit. While each request runs, /health is asked every
 * 10 ms from another process (scripts/bench-lib/health-prober.ts): its slowest answer is how long every
 * other request waited. BENCH_BUSY=N keeps N other processes spinning on the CPU meanwhile (a busy
 * machine). Also: whether the payment window left after the slowest configurable provider chain covers
 * the work on the largest answers let through (c, d). Prints a Markdown section for BENCHMARKS.md.
 *
 *   bun scripts/bench-provider-stall.ts          BENCH_BUSY=2 bun scripts/bench-provider-stall.ts
 */
import { cpus } from 'node:os'
import { resolve } from 'node:path'
import { routeById } from '../src/catalog'
import { paymentWindowSeconds } from '../src/payments/gate/requirements'
import { usdToAtomic } from '../src/core/usdc'
import { VALID_BEFORE_MARGIN_SECONDS } from '../src/payments/gate/verify-local'
import { ENV } from '../src/config/settings'
import type { ScenarioName } from '../support/hostile-provider'
import { createPayer } from '../support/payer'
import { routeUrl, type Query } from '../support/route-url'
import { startServer, type StartedServer } from '../support/server'

const ROUTES: [string, Query][] = [
  ['china.trends', { keyword: '露营' }],
  ['china.sentiment', { entity: '露营' }],
  ['china.kols', { category: '露营' }],
]
const SCENARIOS: [ScenarioName, string][] = [
  ['a', '~16 MB streamed without Content-Length'],
  ['b', '50 items of 100,000 characters'],
  ['c', 'results at the item limits'],
  ['d', 'long results just under the byte limit'],
  ['e', 'arrays nested two million levels deep'],
  ['f', 'one object of ~310,000 keys'],
]

const ROOT = resolve(import.meta.dir, '..')
const payer = createPayer()

/** One paid request (the proof signed beforehand: signing is the client's work) while /health is probed from another process. */
async function paidWhileProbed(url: string, id: string, query: Query) {
  const proof = await payer.proof({ value: usdToAtomic(routeById.get(id)!.priceUsd) })
  const prober = Bun.spawn([process.execPath, resolve(ROOT, 'scripts/bench-lib/health-prober.ts'), url], {
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
    env: { ...process.env, PROBER_READY: '1' },
  })
  await prober.stderr.getReader().read() // `ready`: the prober has had its first answer and keeps asking
  const started = performance.now()
  const res = await fetch(`${url}${routeUrl(id, query)}`, { headers: { 'x402-payment': proof } })
  await res.arrayBuffer()
  const totalMs = performance.now() - started
  prober.stdin.end()
  const { worstMs } = JSON.parse(await new Response(prober.stdout).text()) as { worstMs: number }
  return { status: res.status, totalMs, worstMs }
}

/** Every scenario on every route; prints the Markdown section. */
async function measure(url: string, providerUrl: string) {
  const answerWith = async (name: ScenarioName) => Number(await (await fetch(`${providerUrl}/scenario/${name}`, { method: 'POST' })).text())
  // A warm service: the first requests of a process compile code and load ICU data, whatever a provider answers.
  await answerWith('benign')
  for (const [id, query] of ROUTES) await paidWhileProbed(url, id, query)
  const rows: string[] = []
  const budget: string[] = []
  let worstOverall = 0
  // A lane asks its native provider, then (when that is thin) the web provider, then the model summarises;
  // settlement needs the authorization valid for VALID_BEFORE_MARGIN_SECONDS after the work.
  const chainMs =
    ENV.NATIVE_SEARCH_TIMEOUT_MS.schema.maximum! +
    ENV.WEB_SEARCH_TIMEOUT_MS.schema.maximum! +
    ENV.LLM_TIMEOUT_MS.schema.maximum! +
    VALID_BEFORE_MARGIN_SECONDS * 1000
  for (const [name, label] of SCENARIOS) {
    const bytes = await answerWith(name)
    for (const [id, query] of ROUTES) {
      const measured = await paidWhileProbed(url, id, query)
      worstOverall = Math.max(worstOverall, measured.worstMs)
      rows.push(
        `| (${name}) ${label}, ${(bytes / 1e6).toFixed(1)} MB an answer | \`${id}\` | ${measured.status} | ${Math.round(measured.totalMs)} ms | ${Math.round(measured.worstMs)} ms |`,
      )
      if (name === 'c' || name === 'd') {
        const leftMs = paymentWindowSeconds(routeById.get(id)!) * 1000 - chainMs
        budget.push(
          `| (${name}) \`${id}\` | ${Math.round(measured.totalMs)} ms | ${Math.round(leftMs / 1000)} s | ${measured.totalMs < leftMs ? 'yes' : '**no**'} |`,
        )
      }
    }
  }
  const busy = BUSY ? `, ${BUSY} other processes spinning on the CPU` : ''
  console.log(
    `### A hostile evidence provider (\`bun scripts/bench-provider-stall.ts\`) — ${cpus().length} cores${busy}, Bun ${Bun.version}\n`,
  )
  console.log('| provider answer | route | status | answer in | slowest /health meanwhile |\n|---|---|---|---|---|')
  console.log(rows.join('\n'))
  console.log(`\nWorst /health answer during a hostile request: **${Math.round(worstOverall)} ms**.\n`)
  console.log(
    "| largest answers let through | work | window left after the slowest provider chain and settlement's margin | covered |\n|---|---|---|---|",
  )
  console.log(budget.join('\n'))
}

const BUSY = Number(process.env.BENCH_BUSY ?? 0)
const spinners = Array.from({ length: BUSY }, () => Bun.spawn([process.execPath, '-e', 'for (;;) {}'], { stdin: 'ignore' }))
const provider = Bun.spawn([process.execPath, resolve(ROOT, 'support/hostile-provider.ts')], {
  stdin: 'ignore',
  stdout: 'pipe',
  stderr: 'inherit',
})
let server: StartedServer | undefined
try {
  const { value } = await provider.stdout.getReader().read()
  const providerUrl = `http://127.0.0.1:${new TextDecoder().decode(value).trim()}`
  server = await startServer({
    LOG_LEVEL: 'error',
    NATIVE_SEARCH_URL: `${providerUrl}/native/{platform}`,
    WEB_SEARCH_URL: `${providerUrl}/web`,
    NATIVE_SEARCH_TIMEOUT_MS: '25000',
    WEB_SEARCH_TIMEOUT_MS: '25000',
    // The model gets the same answers: search JSON where a completion is expected.
    LLM_BASE_URL: `${providerUrl}/v1`,
    LLM_MODEL: 'loopback-model',
    LLM_TIMEOUT_MS: '30000',
    INTELLIGENCE_CACHE_TTL_SECONDS: '0',
    KOL_CACHE_TTL_SECONDS: '0',
  })
  await measure(server.url, providerUrl)
} finally {
  await server?.stop()
  provider.kill()
  for (const spinner of spinners) spinner.kill()
}
