/**
 * Latency of sample answers of the China intelligence routes and the wrappers: each request is prepared
 * and run in process (no HTTP, no payment, answer cache off), so the figure is the evidence pipeline
 * itself: resolution, corpus search, relevance, scoring and report. `first` is the first run of each
 * request (no candidate set or creator window read yet); median and p95 are over ROUNDS repeats.
 *
 *   bun scripts/bench-intelligence.ts            (BENCH_ROUNDS, default 30)
 */
import { loadConfig } from '../src/config/config'
import { createLogger } from '../src/core/logger'
import { createHandlers } from '../src/composition/handler-map'
import { createRuntime } from '../src/composition/runtime'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30)

const CASES: [string, Record<string, string>][] = [
  ['china.trends', { keyword: 'camping' }],
  ['china.trends', { keyword: '露营', timeframe: '90d' }],
  ['china.trends.douyin', { keyword: 'skincare' }],
  ['china.sentiment', { entity: 'Tokyo' }],
  ['china.sentiment', { entity: '护肤', lang: 'zh' }],
  ['china.kols', { category: 'beauty' }],
  ['capabilities.visibility', { brand_name: 'Aurora Skin' }],
  ['capabilities.kol_shortlist', { brand_name: 'Aurora Skin', category: 'beauty' }],
]

const rt = await createRuntime(
  loadConfig({
    LEDGER_PATH: ':memory:',
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    INTELLIGENCE_CACHE_TTL_SECONDS: '0',
    KOL_CACHE_TTL_SECONDS: '0',
  }),
  createLogger('silent'),
)
await rt.store.loaded // the handlers below read the indexes directly, not through the routes that wait for them
const handlers = createHandlers(rt)
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!

console.log(
  `${'route'.padEnd(30)} ${'query'.padEnd(50)} ${'first ms'.padStart(9)} ${'median ms'.padStart(10)} ${'p95 ms'.padStart(8)} status`,
)
for (const [id, query] of CASES) {
  const handler = handlers[id]!
  const times: number[] = []
  let first = 0
  let status = 'ok'
  for (let i = 0; i < ROUNDS + 3; i++) {
    const t0 = performance.now()
    try {
      await handler.prepare({ query, params: {} }).run()
    } catch (error) {
      status = (error as { code?: string }).code ?? 'error'
    }
    if (i === 0) first = performance.now() - t0
    if (i >= 3) times.push(performance.now() - t0) // three warm-up runs
  }
  console.log(
    `${id.padEnd(30)} ${JSON.stringify(query).padEnd(50)} ${first.toFixed(1).padStart(9)} ${pct(times, 0.5).toFixed(1).padStart(10)} ${pct(times, 0.95).toFixed(1).padStart(8)} ${status}`,
  )
}
rt.close()
