// Cold answers at 10x data (`npm run bench:cold`). Builds a FACTOR-times copy of the flights and spend
// datasets in a temp folder (scripts/bench-lib/scale-market.ts: more origin and card-issuing cities,
// imported and validated as `data import` does), then, for the shipped (1x) and the larger dataset in the
// same run, starts `bun src/index.ts serve` on each and times the first paid answer (cache_status
// "miss") for several entities on every spend and flights route that takes a country or destination.
// Each route gets its own entities, so no route warms another's shared rows; one extra entity per route
// is asked first and not counted (JIT, first query plans). The same request is then repeated (a cache
// hit): `warm` is the HTTP and payment path alone, `cold - warm` the answer's own work.
// Figures are medians over entities and BENCH_REPS starts (1x and 10x alternate); also start-up time
// (exec -> first /health, datasets loaded) and memory of each start.
//
//   npm run bench:cold          (BENCH_REPS=3, BENCH_ENTITIES=5 per route, BENCH_FACTOR=10)
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { routeById } from '../src/catalog'
import { readManifest } from '../src/data/import/datasets'
import { DuckDb } from '../src/data/duckdb'
import { usdToAtomic } from '../src/core/usdc'
import { createPayer } from '../support/payer'
import { freePort } from '../support/ports'
import { routeUrl, type Query } from '../support/route-url'
import { scaleMarket } from './bench-lib/scale-market'

const ROOT = resolve(import.meta.dir, '..')
const REPS = Number(process.env.BENCH_REPS ?? 3)
const PER_ROUTE = Number(process.env.BENCH_ENTITIES ?? 5)
const FACTOR = Number(process.env.BENCH_FACTOR ?? 10)

interface RouteCase {
  id: string
  kind: 'country' | 'destination'
  /** Entities per request. */
  takes: number
  query(entities: string[]): Query
}
const ROUTES: RouteCase[] = [
  { id: 'spend.summary', kind: 'country', takes: 1, query: ([c]) => ({ country: c! }) },
  { id: 'spend.trends', kind: 'country', takes: 1, query: ([c]) => ({ country: c! }) },
  { id: 'spend.series', kind: 'country', takes: 1, query: ([c]) => ({ country: c!, metric: 'total_spend_cny' }) },
  { id: 'flights.summary', kind: 'destination', takes: 1, query: ([d]) => ({ destination: d! }) },
  { id: 'flights.trend', kind: 'destination', takes: 1, query: ([d]) => ({ destination: d! }) },
  { id: 'flights.top_routes', kind: 'destination', takes: 1, query: ([d]) => ({ destination: d! }) },
  { id: 'flights.aggregate', kind: 'destination', takes: 3, query: (ds) => ({ destinations: ds.join(',') }) },
]

const tmp = mkdtempSync(join(tmpdir(), 'bench-cold-'))
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }))
const shipped = join(ROOT, 'datasets')
const scales = [
  { name: '1x', dir: join(tmp, '1x') },
  { name: `${FACTOR}x`, dir: join(tmp, `${FACTOR}x`) },
]
cpSync(shipped, scales[0]!.dir, { recursive: true }) // the same disk as the larger copy
console.error(`building the ${FACTOR}x flights and spend datasets ...`)
await scaleMarket(shipped, scales[1]!.dir, FACTOR)

/**
 * Entities of each route, dealt from the largest (most rows) down, round by round, so every route gets a
 * similar mix; the last round is the uncounted warm-up.
 */
async function dealEntities(): Promise<Map<string, string[][]>> {
  const db = await DuckDb.open(1)
  const manifest = readManifest(shipped)
  const file = (name: string) => `'${join(shipped, manifest.datasets[name]!.file)}'`
  const ranked = async (column: string, dataset: string) =>
    (await db.all<{ e: string }>(`SELECT ${column} AS e FROM read_parquet(${file(dataset)}) GROUP BY ALL ORDER BY count(*) DESC, e`)).map(
      (r) => r.e,
    )
  const pools = { country: await ranked('country', 'spend'), destination: await ranked('destination', 'flights') }
  db.close()
  const dealt = new Map<string, string[][]>(ROUTES.map((r) => [r.id, []]))
  for (let round = 0; round <= PER_ROUTE; round++) {
    for (const r of ROUTES) {
      const pool = pools[r.kind]
      if (pool.length < r.takes) throw new Error(`not enough ${r.kind} entities for ${PER_ROUTE} per route; lower BENCH_ENTITIES`)
      dealt.get(r.id)!.push(pool.splice(0, r.takes))
    }
  }
  return dealt
}
const entities = await dealEntities()

/** Starts the service on a datasets folder; `ms` is exec -> first /health (the datasets are loaded before it listens). */
async function start(datasetsDir: string) {
  const port = await freePort()
  const env = {
    PATH: '/usr/bin:/bin',
    HOME: join(tmp, 'home'),
    PORT: String(port),
    HOST: '127.0.0.1',
    LEDGER_PATH: ':memory:',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'test',
    PAYMENT_MODE: 'local',
    RATE_LIMIT_PAYER_PER_MINUTE: '0',
    RATE_LIMIT_IP_PER_MINUTE: '0',
    DATASETS_DIR: datasetsDir,
    DATASETS_RELOAD_SECONDS: '0',
  }
  const t0 = Bun.nanoseconds()
  const proc = Bun.spawn([process.execPath, 'src/index.ts', 'serve'], { cwd: ROOT, env, stdout: 'ignore', stderr: 'pipe' })
  const stderr = new Response(proc.stderr).text()
  const url = `http://127.0.0.1:${port}`
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}:\n${await stderr}`)
    try {
      if ((await fetch(`${url}/health`)).ok) break
    } catch {
      await Bun.sleep(1) // not listening yet; the pause keeps the poller off the server's cores
    }
    if (Bun.nanoseconds() - t0 > 60e9) throw new Error('server did not answer /health in 60 s')
  }
  return {
    ms: (Bun.nanoseconds() - t0) / 1e6,
    url,
    pid: proc.pid,
    async stop() {
      proc.kill('SIGTERM')
      await proc.exited
    },
  }
}

const kib = (pid: number, field: 'VmRSS' | 'VmHWM') =>
  Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`${field}:\\s+(\\d+) kB`))![1])
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}

const payer = createPayer()
/** One paid request: its latency in ms, from sending to the last byte, and the answer's cache status. */
async function paid(url: string, id: string, query: Query): Promise<{ ms: number; cache: string }> {
  const proof = await payer.proof({ value: usdToAtomic(routeById.get(id)!.priceUsd) }) // signed before the clock starts
  const t0 = Bun.nanoseconds()
  const res = await fetch(`${url}${routeUrl(id, query)}`, { headers: { 'x402-payment': proof } })
  const body = (await res.json()) as { meta?: { cache_status?: string } }
  const ms = (Bun.nanoseconds() - t0) / 1e6
  if (res.status !== 200) throw new Error(`${routeUrl(id, query)} answered ${res.status}: ${JSON.stringify(body)}`)
  return { ms, cache: body.meta?.cache_status ?? '' }
}

type Samples = Record<string, { cold: number[]; warm: number[] }>
const results = new Map(
  scales.map((scale) => [
    scale.name,
    {
      samples: Object.fromEntries(ROUTES.map((r) => [r.id, { cold: [], warm: [] }])) as Samples,
      startMs: [] as number[],
      idleKib: [] as number[],
      peakKib: [] as number[],
    },
  ]),
)

async function measure(scale: (typeof scales)[number]) {
  const result = results.get(scale.name)!
  const server = await start(scale.dir)
  try {
    result.startMs.push(server.ms)
    result.idleKib.push(kib(server.pid, 'VmRSS'))
    for (const route of ROUTES) await paid(server.url, route.id, route.query(entities.get(route.id)!.at(-1)!)) // warm-up
    for (let i = 0; i < PER_ROUTE; i++) {
      for (const route of ROUTES) {
        const query = route.query(entities.get(route.id)![i]!)
        const cold = await paid(server.url, route.id, query)
        const warm = await paid(server.url, route.id, query)
        if (cold.cache !== 'miss' || warm.cache !== 'hit')
          throw new Error(`${route.id} ${JSON.stringify(query)}: expected a miss then a hit, got ${cold.cache}, ${warm.cache}`)
        result.samples[route.id]!.cold.push(cold.ms)
        result.samples[route.id]!.warm.push(warm.ms)
      }
    }
    result.peakKib.push(kib(server.pid, 'VmHWM'))
  } finally {
    await server.stop()
  }
}

for (let rep = 0; rep < REPS; rep++) {
  for (const scale of rep % 2 === 0 ? scales : [...scales].reverse()) {
    console.error(`rep ${rep + 1}/${REPS}: ${scale.name} ...`)
    await measure(scale)
  }
}

const [one, ten] = scales.map((s) => results.get(s.name)!) as [
  NonNullable<ReturnType<typeof results.get>>,
  NonNullable<ReturnType<typeof results.get>>,
]
const rows = (name: string) => readManifest(scales.find((s) => s.name === name)!.dir).datasets
const oneDecimal = (ms: number) => ms.toFixed(1)
const mb = (k: number) => `${(k / 1024).toFixed(0)} MB`
const lines = [
  `## ${new Date().toISOString().slice(0, 10)} — cold answers at ${FACTOR}x data`,
  '',
  `${cpus().length} cores, Bun ${Bun.version}; \`npm run bench:cold\` (BENCH_REPS=${REPS}, BENCH_ENTITIES=${PER_ROUTE}, BENCH_FACTOR=${FACTOR}).`,
  `Rows: flights ${rows('1x').flights!.rows} -> ${rows(`${FACTOR}x`).flights!.rows}, spend ${rows('1x').spend!.rows} -> ${rows(`${FACTOR}x`).spend!.rows}.`,
  `First paid answer per entity (cache miss), ms, median of ${PER_ROUTE} entities x ${REPS} starts; warm = the same request again (cache hit).`,
  '',
  `| route | cold 1x | cold ${FACTOR}x | ratio | warm 1x | warm ${FACTOR}x | cold - warm 1x | cold - warm ${FACTOR}x | ratio |`,
  '|---|---|---|---|---|---|---|---|---|',
  ...ROUTES.map(({ id }) => {
    const oneSamples = one.samples[id]!
    const tenSamples = ten.samples[id]!
    const [c1, c10, w1, w10] = [median(oneSamples.cold), median(tenSamples.cold), median(oneSamples.warm), median(tenSamples.warm)]
    // Below a millisecond the difference is noise, and so would be its ratio.
    const own = c1 - w1 >= 1 ? ((c10 - w10) / (c1 - w1)).toFixed(2) : '—'
    return `| ${id} | ${oneDecimal(c1)} | ${oneDecimal(c10)} | ${(c10 / c1).toFixed(2)} | ${oneDecimal(w1)} | ${oneDecimal(w10)} | ${oneDecimal(c1 - w1)} | ${oneDecimal(c10 - w10)} | ${own} |`
  }),
  '',
  `| | 1x | ${FACTOR}x |`,
  '|---|---|---|',
  `| exec -> first /health, median (all) | ${oneDecimal(median(one.startMs))} ms (${one.startMs.map((x) => x.toFixed(0)).join(' ')}) | ${oneDecimal(median(ten.startMs))} ms (${ten.startMs.map((x) => x.toFixed(0)).join(' ')}) |`,
  `| VmRSS after start-up, median | ${mb(median(one.idleKib))} | ${mb(median(ten.idleKib))} |`,
  `| VmHWM after the run, median | ${mb(median(one.peakKib))} | ${mb(median(ten.peakKib))} |`,
]
console.log(lines.join('\n'))
