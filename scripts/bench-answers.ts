/**
 * What a buyer waits for under concurrency: BENCH_CLIENTS (8) paying clients against the real server
 * (`bun src/index.ts serve`, sample data, local payments, a ledger file as a seller runs it), each taking
 * the next request of one shared list until it is done. The list mixes the China routes, the wrappers and
 * the dataset routes; most China and wrapper requests name a keyword, category, brand or destination
 * asked for the first time (nothing cached for it yet: its `first` answer), the rest repeat one asked
 * before. Proofs are signed before the run (signing is the client's work). The server's VmRSS is sampled
 * every 100 ms. Prints a Markdown section for BENCHMARKS.md: latency per route family (all answers and
 * first answers), statuses and peak RSS.
 *
 * With BENCH_WARM=true the server warms its sample answers first (WARM_UP_SAMPLE_ANSWERS, as a production
 * seller's does) and the run starts once /ready says they are warm: `first` then still means asked for the
 * first time, and those with the default parameters are answered from the warm cache.
 *
 *   bun scripts/bench-answers.ts       (BENCH_CLIENTS 8, BENCH_FIRSTS 240: first answers asked; BENCH_WARM)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { routeById } from '../src/catalog'
import { usdToAtomic } from '../src/core/usdc'
import { createPayer } from '../support/payer'
import { routeUrl } from '../support/route-url'
import { startServer } from '../support/server'
import { requests, type Ask, type Family } from './bench-lib/answer-requests'

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8)
const FIRSTS = Number(process.env.BENCH_FIRSTS ?? 240)
const WARM = process.env.BENCH_WARM === 'true'

const dir = mkdtempSync(join(tmpdir(), 'bench-answers-'))
const server = await startServer({
  LOG_LEVEL: 'error',
  LEDGER_PATH: join(dir, 'ledger.sqlite'),
  WARM_UP_SAMPLE_ANSWERS: String(WARM),
})
if (WARM) {
  for (;;) {
    const ready = (await (await fetch(`${server.url}/ready`)).json()) as { data: { checks: { sample_answers_warmed?: { state: string } } } }
    if (ready.data.checks.sample_answers_warmed?.state === 'warm') break
    await Bun.sleep(500)
  }
}
const rssMb = () => Number(readFileSync(`/proc/${server.proc.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)![1]) / 1024
const payer = createPayer()
const list = requests(FIRSTS)
const proofs = await Promise.all(list.map((ask) => payer.proof({ value: usdToAtomic(routeById.get(ask.id)!.priceUsd) })))

const results: (Ask & { ms: number; status: number })[] = []
const rssStart = rssMb()
let rssPeak = rssStart
const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb())), 100)
let next = 0
const started = performance.now()
await Promise.all(
  Array.from({ length: CLIENTS }, async () => {
    for (let i = next++; i < list.length; i = next++) {
      const ask = list[i]!
      const sentAt = performance.now()
      const res = await fetch(`${server.url}${routeUrl(ask.id, ask.query)}`, { headers: { 'x402-payment': proofs[i]! } })
      await res.arrayBuffer()
      results.push({ ...ask, ms: performance.now() - sentAt, status: res.status })
    }
  }),
)
const seconds = (performance.now() - started) / 1000
clearInterval(sampler)
await server.stop()
rmSync(dir, { recursive: true, force: true })

const pct = (xs: number[], p: number) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(p * xs.length) - 1)]! : NaN
const ms = (x: number) => (Number.isNaN(x) ? '–' : `${Math.round(x)} ms`)
const row = (label: string, xs: number[]) =>
  `| ${label} | ${xs.length} | ${ms(pct(xs, 0.5))} | ${ms(pct(xs, 0.95))} | ${ms(pct(xs, 0.99))} | ${ms(Math.max(...xs))} |`
const families: Family[] = ['china.trends', 'china.sentiment', 'china.kols', 'wrappers', 'datasets']
const statuses = Object.entries(Object.groupBy(results, (r) => String(r.status))).map(([s, rs]) => `${s}: ${rs!.length}`)

console.log(`### Answers under ${CLIENTS} paying clients (\`bun scripts/bench-answers.ts\`) — ${cpus().length} cores, Bun ${Bun.version}\n`)
console.log(
  `${results.length} paid requests in ${seconds.toFixed(1)} s (${statuses.join(', ')}); ledger file; local payments; ${WARM ? 'sample answers warmed first' : 'nothing warmed'}.\n`,
)
console.log('| answers | n | p50 | p95 | p99 | max |\n|---|---|---|---|---|---|')
for (const family of families)
  console.log(
    row(
      `${family}, all`,
      results.filter((r) => r.family === family).map((r) => r.ms),
    ),
  )
for (const family of families.slice(0, 4))
  console.log(
    row(
      `${family}, first answers`,
      results.filter((r) => r.family === family && r.first).map((r) => r.ms),
    ),
  )
console.log(
  row(
    '**every first answer**',
    results.filter((r) => r.first).map((r) => r.ms),
  ),
)
console.log(`\nServer RSS: ${Math.round(rssStart)} MB before the run, **${Math.round(rssPeak)} MB** at its peak.`)
