/**
 * Does memory stay flat under repeated paid load? BENCH_ROUNDS (5) rounds of BENCH_ROUND_SECONDS (30) of
 * mixed paid traffic from BENCH_CLIENTS (8) clients against the real server (`bun src/index.ts serve`,
 * sample data, a ledger file, nothing warmed), each followed by BENCH_IDLE_SECONDS (10) of nothing.
 * Every round asks new questions (each keyword, brand, category and destination with the round's own
 * timeframe and platform, besides the dataset routes), so the caches keep filling, as they would over
 * days. The server's VmRSS is sampled every 100 ms: its peak in each round and its value at the end of
 * each idle gap, with what the server's /metrics says of its JavaScript heap, result cache and DuckDB then. Prints a Markdown section for BENCHMARKS.md.
 *
 *   bun scripts/bench-soak.ts
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { routeById } from '../src/catalog'
import { DESTINATIONS } from '../src/data/sample-geography'
import { usdToAtomic } from '../src/core/usdc'
import { createPayer } from '../support/payer'
import { routeUrl, type Query } from '../support/route-url'
import { startServer } from '../support/server'
import { BRANDS, TOPICS } from './sample/signals-vocabulary'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const ROUND_MS = Number(process.env.BENCH_ROUND_SECONDS ?? 30) * 1000
const IDLE_MS = Number(process.env.BENCH_IDLE_SECONDS ?? 10) * 1000
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8)

const TIMEFRAMES = ['30d', '90d', '7d', '365d', '14d']
const PLATFORMS = ['all', 'xiaohongshu', 'douyin', 'wechat']

/** The round's questions: every name with this round's timeframe and platform, and dataset routes. */
function asks(round: number): { id: string; query: Query }[] {
  const timeframe = TIMEFRAMES[round % TIMEFRAMES.length]!
  const platform = PLATFORMS[round % PLATFORMS.length]!
  const trend = platform === 'all' ? 'china.trends' : `china.trends.${platform}`
  const lane: Record<string, string> = platform === 'all' ? {} : { platform } // all three lanes: the parameter omitted
  const topics = Object.values(TOPICS).flatMap((list) => list.map((t) => t.name))
  const categories = Object.keys(TOPICS)
  const brands = Object.values(BRANDS).flat()
  const places = DESTINATIONS.map((d) => d.name)
  const list = [
    ...topics.map((keyword) => ({ id: trend, query: { keyword, timeframe } })),
    ...categories.map((keyword) => ({ id: trend, query: { keyword, timeframe } })),
    ...[...brands, ...places].map((entity) => ({ id: 'china.sentiment', query: { entity, timeframe, ...lane } })),
    ...categories.map((category) => ({ id: 'china.kols', query: { category, ...lane } })),
    ...brands.map((brand_name) => ({ id: 'capabilities.visibility', query: { brand_name } })),
    ...places.flatMap((destination) => [
      { id: 'flights.summary', query: { destination } },
      { id: 'capabilities.destination_demand', query: { destination } },
    ]),
  ]
  // A fixed shuffle (an LCG), so that every run asks in the same order.
  let state = 20261126 + round
  for (let i = list.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2 ** 31
    const swapWith = state % (i + 1)
    ;[list[i], list[swapWith]] = [list[swapWith]!, list[i]!]
  }
  return list
}

const dir = mkdtempSync(join(tmpdir(), 'bench-soak-'))
const server = await startServer({ LOG_LEVEL: 'error', LEDGER_PATH: join(dir, 'ledger.sqlite'), WARM_UP_SAMPLE_ANSWERS: 'false' })
const rssMb = () => Number(readFileSync(`/proc/${server.proc.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)![1]) / 1024
/** The server's memory gauges (/metrics, open outside production), in MB. */
async function gauges(): Promise<Record<string, number>> {
  const text = await (await fetch(`${server.url}/metrics`)).text()
  const read = (name: string) => Number(text.match(new RegExp(`^${name} (\\S+)$`, 'm'))?.[1] ?? Number.NaN) / 2 ** 20
  return { heap: read('process_heap_bytes'), cache: read('result_cache_bytes'), duckdb: read('duckdb_memory_bytes') }
}
const payer = createPayer()
const rows: string[] = []
const startRss = rssMb()
const startGauges = await gauges()

for (let round = 1; round <= ROUNDS; round++) {
  const list = asks(round)
  const proofs = await Promise.all(list.map((ask) => payer.proof({ value: usdToAtomic(routeById.get(ask.id)!.priceUsd) })))
  const times: number[] = []
  const statuses = new Map<number, number>()
  let peak = rssMb()
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 100)
  let duckdbPeak = 0
  const gaugeSampler = setInterval(async () => (duckdbPeak = Math.max(duckdbPeak, (await gauges()).duckdb!)), 1000)
  const until = performance.now() + ROUND_MS
  let next = 0
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < until) {
        const index = next++ % list.length
        const ask = list[index]!
        // A proof buys one answer; past the list's end the same questions are asked again with new proofs.
        const proof = index === next - 1 ? proofs[index]! : await payer.proof({ value: usdToAtomic(routeById.get(ask.id)!.priceUsd) })
        const sentAt = performance.now()
        const res = await fetch(`${server.url}${routeUrl(ask.id, ask.query)}`, { headers: { 'x402-payment': proof } })
        await res.arrayBuffer()
        times.push(performance.now() - sentAt)
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
      }
    }),
  )
  clearInterval(sampler)
  clearInterval(gaugeSampler)
  await Bun.sleep(IDLE_MS)
  const idle = rssMb()
  const held = await gauges()
  times.sort((a, b) => a - b)
  const pct = (p: number) => Math.round(times[Math.min(times.length - 1, Math.floor(p * times.length))]!)
  const codes = [...statuses].map(([s, n]) => `${s}: ${n}`).join(', ')
  rows.push(
    `| ${round} | ${times.length} (${codes}) | ${Math.round(times.length / (ROUND_MS / 1000))} | ${pct(0.5)} / ${pct(0.99)} ms | ${Math.round(peak)} MB (DuckDB ${Math.round(duckdbPeak)}) | **${Math.round(idle)} MB** | ${Math.round(held.heap!)} / ${Math.round(held.cache!)} / ${Math.round(held.duckdb!)} MB |`,
  )
  console.error(rows.at(-1))
}
await server.stop()
rmSync(dir, { recursive: true, force: true })

console.log(`### Soak: ${ROUNDS} rounds of ${ROUND_MS / 1000} s of paid load, ${IDLE_MS / 1000} s idle after each (\`bun scripts/bench-soak.ts\`) — ${cpus().length} cores, Bun ${Bun.version}

${CLIENTS} clients; China routes, wrappers and dataset routes; each round asks every name with its own timeframe and platform; ledger file; local payments; nothing warmed. Server RSS ${Math.round(startRss)} MB before the first round (JS heap / result cache / DuckDB: ${Object.values(startGauges).map(Math.round).join(' / ')} MB).

| round | requests (statuses) | per second | p50 / p99 | RSS peak (DuckDB's) | RSS idle after | idle: JS heap / result cache / DuckDB |
|---|---|---|---|---|---|---|
${rows.join('\n')}`)
