/**
 * The service on larger datasets (issues 36 and 48): for each datasets folder named (the shipped
 * `datasets/`, and the larger sets `bun scripts/generate-sample-data.ts <folder> --scale N [--long-tail]`
 * writes), builds the corpus's search index when the folder has none (`data index`: its time and peak
 * memory), starts `bun src/index.ts serve` on it and measures
 *
 * - start-up: spawn -> first /health (listening), and -> /ready 200 (every index built), with the moment the
 *   server logged its datasets indexed (market, signals, the evidence index opened; the creator posts of
 *   the KOL window are read after it, before /ready says 200);
 * - memory: VmRSS sampled every 100 ms from the spawn, at ready and its peak (VmHWM), with the JS heap and
 *   DuckDB's own account from /metrics at ready and after the run;
 * - answers under BENCH_CLIENTS (8) paying clients, the request list of bench-answers.ts
 *   (bench-lib/answer-requests.ts): first answers per key (p50/p95/p99 per family, and for the long tail's
 *   rare keys apart from its head's and the categories: bench-lib/key-classes.ts), the repeats (answered
 *   from the answer cache: cache_status hit), and the dataset routes;
 * - then, untimed, the trend of every topic, brand, destination and category over 90 days: how many are
 *   answered, and whether each has the counts it has in the first folder (a rare entity of the long tail
 *   keeps its very posts at any scale, so its counts must be the same).
 *
 * A start that fails (the process exits, or /ready is not 200 within BENCH_START_TIMEOUT seconds, 900)
 * is recorded as such: the time, the memory and the last lines the server wrote. Prints one Markdown
 * section with the folders side by side.
 *
 *   bun scripts/bench-scale.ts [datasetsDir ...]     (default: datasets; BENCH_CLIENTS 8, BENCH_FIRSTS 240, BENCH_REPEATS 1;
 *                                                    BENCH_BUILD_INDEX=true removes each folder's index first, to time its build)
 *
 * DUCKDB_MEMORY_LIMIT_MB and the service's other settings pass through from the environment; BENCH_BUN_ARGS are
 * added to the server's command line (`--cpu-prof --cpu-prof-dir=<dir>`: where its time goes).
 * BENCH_ANSWERS=<file> (one folder, one round) writes every answer's data (or error code), one sorted line per request, without
 * what differs from run to run (sessions' ids and expiry, cache status): `diff` two commits' files to show that a
 * change made answers faster, not different.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { routeById } from '../src/catalog'
import { ENV } from '../src/config/settings'
import { readManifest } from '../src/data/import/datasets'
import { usdToAtomic } from '../src/core/usdc'
import { createPayer } from '../support/payer'
import { freePort } from '../support/ports'
import { routeUrl } from '../support/route-url'
import { requests, type Ask, type Family } from './bench-lib/answer-requests'
import { keyClasses, type KeyClasses, type NamedEntity } from './bench-lib/key-classes'
import { buildIndex, countsPass, differingRare, entityRows, type Counted, type IndexBuild } from './bench-lib/scale-corpus'

const ROOT = resolve(import.meta.dir, '..')
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8)
const FIRSTS = Number(process.env.BENCH_FIRSTS ?? 240)
const START_TIMEOUT_MS = Number(process.env.BENCH_START_TIMEOUT ?? 900) * 1000
/**
 * Rounds over the folders, alternating (1x, 10x, 100x, 1x, …): this machine's speed drifts by up to two
 * times within minutes, so one run's p95 says little; the table shows each folder's median round.
 */
const REPEATS = Number(process.env.BENCH_REPEATS ?? 1)
/** Extra arguments to the server's bun, e.g. `--cpu-prof --cpu-prof-dir=<folder>` (a profile per start, written at exit). */
const BUN_ARGS = (process.env.BENCH_BUN_ARGS ?? '').split(' ').filter(Boolean)
const ANSWERS_TO = process.env.BENCH_ANSWERS
/** Remove each folder's corpus index before its first round, to time its build (`data index`). */
const BUILD_INDEX = process.env.BENCH_BUILD_INDEX === 'true'
const answersSeen: string[] = []

/** One request's answer as BENCH_ANSWERS writes it. */
function answerLine(ask: Ask, status: number, body: { data?: unknown; error?: { code?: string } }): string {
  const data = JSON.stringify(body.data ?? body.error?.code ?? null)
    .replace(/"ses_[0-9a-f]+"/g, '"ses_"')
    .replace(/"cache_status":"[a-z]+"/g, '"cache_status":""')
    .replace(/"expires_at":"[^"]+"/g, '"expires_at":""')
  return `${ask.id} ${JSON.stringify(ask.query)} ${status} ${data}`
}
const dirs = (process.argv.length > 2 ? process.argv.slice(2) : ['datasets']).map((d) => resolve(d))

const status = (pid: number, field: 'VmRSS' | 'VmHWM'): number => {
  try {
    return Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`${field}:\\s+(\\d+) kB`))![1]) / 1024
  } catch {
    return Number.NaN // the process is gone
  }
}

interface Start {
  ok: boolean
  url: string
  proc: ReturnType<typeof Bun.spawn>
  healthMs: number
  readyMs: number
  /** ms from the process start to the server's log line `datasets indexed: ready` (market, signals, evidence search table). */
  indexedMs: number
  rssAtReadyMb: number
  failure?: string
  log: () => string
}

/** Spawns the service on `datasets`; resolves once /ready is 200, the process exits, or the time is up. */
async function start(datasets: string, home: string, onSpawn: (pid: number) => void): Promise<Start> {
  const port = await freePort()
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    LEDGER_PATH: join(home, 'ledger.sqlite'),
    LOG_LEVEL: 'info',
    NODE_ENV: 'test',
    PAYMENT_MODE: 'local',
    RATE_LIMIT_IP_PER_MINUTE: '0',
    RATE_LIMIT_PAYER_PER_MINUTE: '0',
    X402_VERIFY_CONCURRENCY: '10000',
    X402_VERIFY_NEW_PAYERS_PER_SECOND: '10000',
    DATASETS_DIR: datasets,
    DATASETS_RELOAD_SECONDS: '0',
    WARM_UP_SAMPLE_ANSWERS: 'false',
  }
  let out = ''
  const t0 = performance.now()
  const proc = Bun.spawn([process.execPath, ...BUN_ARGS, 'src/index.ts', 'serve'], { cwd: ROOT, env, stdout: 'pipe', stderr: 'pipe' })
  onSpawn(proc.pid)
  for (const stream of [proc.stdout, proc.stderr] as ReadableStream<Uint8Array>[])
    void (async () => {
      for await (const chunk of stream) out = (out + new TextDecoder().decode(chunk)).slice(-20_000)
    })()
  const url = `http://127.0.0.1:${port}`
  const progress: Start = {
    ok: false,
    url,
    proc,
    healthMs: Number.NaN,
    readyMs: Number.NaN,
    indexedMs: Number.NaN,
    rssAtReadyMb: Number.NaN,
    log: () => out,
  }
  const since = () => performance.now() - t0
  while (since() < START_TIMEOUT_MS) {
    if (proc.exitCode !== null) return { ...progress, failure: `exited with ${proc.exitCode} after ${(since() / 1000).toFixed(1)} s` }
    try {
      if (Number.isNaN(progress.healthMs)) {
        if ((await fetch(`${url}/health`)).ok) progress.healthMs = since()
      } else {
        const res = await fetch(`${url}/ready`, { signal: AbortSignal.timeout(30_000) })
        await res.arrayBuffer()
        if (Number.isNaN(progress.indexedMs))
          progress.indexedMs = Number(out.match(/"datasets indexed: ready","ms_since_start":(\d+)/)?.[1] ?? Number.NaN)
        if (res.status === 200) return { ...progress, ok: true, readyMs: since(), rssAtReadyMb: status(proc.pid, 'VmRSS') }
      }
    } catch {
      // not listening yet, or /ready slow while the indexes take DuckDB's connections
    }
    await Bun.sleep(Number.isNaN(progress.healthMs) ? 10 : 100)
  }
  return { ...progress, failure: `/ready not 200 after ${START_TIMEOUT_MS / 1000} s` }
}

/** process_heap_bytes and duckdb_memory_bytes from /metrics, in MB. */
async function metricsMb(url: string): Promise<{ heap: number; duckdb: number }> {
  const text = await (await fetch(`${url}/metrics`)).text().catch(() => '')
  const value = (name: string) => Number(text.match(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm'))?.[1] ?? Number.NaN) / 1024 / 1024
  return { heap: value('process_heap_bytes'), duckdb: value('duckdb_memory_bytes') }
}

type Result = Ask & { ms: number; status: number; cache: string; code: string }

/** A proof older than this is signed again before its request (proofs are valid for 300 s). */
const PROOF_FRESH_MS = 200_000

/**
 * The request list under CLIENTS paying clients. The proofs are signed before the run, as bench-answers.ts
 * signs them: buyers sign on their own machines, not on the server's two cores. One that a slow run
 * reaches after PROOF_FRESH_MS is signed again just before its request, outside the clock.
 */
async function answers(url: string, alive: () => boolean): Promise<{ results: Result[]; seconds: number }> {
  const payer = createPayer()
  const list = requests(FIRSTS)
  const sign = (ask: Ask) => payer.proof({ value: usdToAtomic(routeById.get(ask.id)!.priceUsd) })
  const signedAt = performance.now()
  const proofs = await Promise.all(list.map(sign))
  const results: Result[] = []
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let i = next++; i < list.length && alive(); i = next++) {
        const ask = list[i]!
        const proof = performance.now() - signedAt < PROOF_FRESH_MS ? proofs[i]! : await sign(ask)
        const sentAt = performance.now()
        try {
          const res = await fetch(`${url}${routeUrl(ask.id, ask.query)}`, { headers: { 'x402-payment': proof } })
          const text = await res.text()
          const ms = performance.now() - sentAt
          let body: { data?: unknown; meta?: { cache_status?: string }; error?: { code?: string } } = {}
          try {
            body = JSON.parse(text)
          } catch {}
          if (ANSWERS_TO) answersSeen.push(answerLine(ask, res.status, body))
          results.push({ ...ask, ms, status: res.status, cache: body.meta?.cache_status ?? '', code: body.error?.code ?? '' })
        } catch {
          results.push({ ...ask, ms: performance.now() - sentAt, status: 0, cache: '', code: 'connection failed' }) // no answer
        }
      }
    }),
  )
  return { results, seconds: (performance.now() - started) / 1000 }
}

interface Measured {
  dir: string
  rows: Record<string, number>
  bytes: number
  start: Omit<Start, 'proc' | 'log'>
  rssPeakStartMb: number
  rssPeakMb: number
  metricsAtReady?: { heap: number; duckdb: number }
  metricsAfter?: { heap: number; duckdb: number }
  run?: { results: Result[]; seconds: number }
  counted?: Map<string, Counted>
  index?: IndexBuild
  logTail?: string
}

async function measure(dir: string, entities: readonly NamedEntity[], index?: IndexBuild): Promise<Measured> {
  const manifest = readManifest(dir)
  const rows = Object.fromEntries(Object.entries(manifest.datasets).map(([n, e]) => [n, e.rows]))
  const bytes = Object.values(manifest.datasets).reduce((sum, e) => sum + Bun.file(join(dir, e.file)).size, 0)
  const home = mkdtempSync(join(tmpdir(), 'bench-scale-'))
  let peak = 0
  let pid = 0
  let ticks = 0
  const sampler = setInterval(() => {
    if (!pid) return
    const rss = status(pid, 'VmRSS') || 0
    peak = Math.max(peak, rss)
    if (++ticks % 100 === 0) console.error(`  pid ${pid}, ${ticks / 10} s: RSS ${Math.round(rss)} MB (peak ${Math.round(peak)} MB)`)
  }, 100)
  const pending = start(dir, home, (spawned) => {
    pid = spawned
  })
  try {
    const started = await pending
    const { proc, log, ...startFacts } = started
    const measured: Measured = {
      dir,
      rows,
      bytes,
      start: startFacts,
      rssPeakStartMb: Math.max(peak, status(pid, 'VmHWM')),
      rssPeakMb: 0,
      ...(index ? { index } : {}),
    }
    if (!started.ok) {
      measured.rssPeakMb = Math.max(peak, status(pid, 'VmHWM') || 0)
      measured.logTail = log().split('\n').slice(-15).join('\n')
      proc.kill('SIGKILL')
      return measured
    }
    measured.metricsAtReady = await metricsMb(started.url)
    measured.run = await answers(started.url, () => proc.exitCode === null)
    measured.rssPeakMb = Math.max(peak, status(pid, 'VmHWM') || 0)
    if (proc.exitCode !== null) {
      measured.logTail = `exited with ${proc.exitCode} during the run\n${log().split('\n').slice(-15).join('\n')}`
      return measured
    }
    measured.metricsAfter = await metricsMb(started.url)
    measured.counted = await countsPass(started.url, entities, CLIENTS)
    measured.rssPeakMb = Math.max(measured.rssPeakMb, status(pid, 'VmHWM') || 0)
    proc.kill('SIGTERM')
    await proc.exited
    return measured
  } finally {
    clearInterval(sampler)
    rmSync(home, { recursive: true, force: true })
  }
}

const pct = (xs: number[], p: number) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(p * xs.length) - 1)]! : Number.NaN
const ms = (x: number) => (Number.isNaN(x) ? '–' : `${Math.round(x)} ms`)
const sec = (x: number) => (Number.isNaN(x) ? '–' : `${(x / 1000).toFixed(1)} s`)
const mb = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? '–' : `${Math.round(x)} MB`)
const name = (m: Measured) => (m.dir === resolve(ROOT, 'datasets') ? 'datasets/' : m.dir)

/** p95 of every first answer of a run. */
const firstsP95 = (m: Measured) =>
  pct(
    (m.run?.results ?? []).filter((r) => r.first).map((r) => r.ms),
    0.95,
  )

/** Each folder's run of median first-answer p95 (the lower middle of an even count). */
const medianRun = (runs: Measured[]) => [...runs].sort((a, b) => firstsP95(a) - firstsP95(b))[Math.floor((runs.length - 1) / 2)]!

function report(rounds: Measured[][], classes: KeyClasses): string {
  const all = rounds.map(medianRun)
  const head = `| | ${all.map(name).join(' | ')} |\n|---|${all.map(() => '---').join('|')}|`
  const line = (label: string, f: (m: Measured) => string) => `| ${label} | ${all.map(f).join(' | ')} |`
  // Every request, failures too (their time is what the buyer waited); the statuses row says how many failed.
  const pick = (m: Measured, where: (r: Result) => boolean) => (m.run?.results ?? []).filter(where).map((r) => r.ms)
  const lat = (label: string, where: (r: Result) => boolean) =>
    line(label, (m) => {
      const xs = pick(m, where)
      return m.run ? `${ms(pct(xs, 0.5))} / ${ms(pct(xs, 0.95))} / ${ms(pct(xs, 0.99))} (n ${xs.length})` : '–'
    })
  const families: Family[] = ['china.trends', 'china.sentiment', 'china.kols', 'wrappers']
  const statuses = (measured: Measured) =>
    measured.run
      ? Object.entries(Object.groupBy(measured.run.results, (r) => String(r.status)))
          .map(([s, rs]) => `${s}: ${rs!.length}${s === '200' ? '' : ` (${[...new Set(rs!.map((r) => r.code))].join(', ')})`}`)
          .join(', ')
      : '–'
  return [
    `### Larger datasets (\`bun scripts/bench-scale.ts\`) — ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, Bun ${Bun.version}`,
    '',
    `${CLIENTS} paying clients, ${FIRSTS} first answers asked (bench-answers.ts's list), proofs signed before the run, local payments, ledger file, nothing warmed.`,
    `DUCKDB_MEMORY_LIMIT_MB=${process.env.DUCKDB_MEMORY_LIMIT_MB ?? `${ENV.DUCKDB_MEMORY_LIMIT_MB.default} (default)`}. Latencies p50 / p95 / p99.`,
    '',
    head,
    line('evidence rows', (m) => (m.rows.evidence ?? 0).toLocaleString('en-US')),
    line(
      'flights / spend rows',
      (m) => `${(m.rows.flights ?? 0).toLocaleString('en-US')} / ${(m.rows.spend ?? 0).toLocaleString('en-US')}`,
    ),
    line('Parquet on disk', (m) => `${(m.bytes / 1024 / 1024).toFixed(0)} MiB`),
    line('corpus index: `data index` (wall, peak RSS)', (m) =>
      m.index ? `${m.index.said}; ${sec(m.index.ms)}, ${mb(m.index.peakMb)}` : '–',
    ),
    line('spawn -> /health (listening)', (m) => sec(m.start.healthMs)),
    line('start -> datasets indexed (market, signals, evidence index opened; log)', (m) => sec(m.start.indexedMs)),
    line("… then the KOL window's creator posts (to /ready 200)", (m) => sec(m.start.readyMs - m.start.indexedMs)),
    line('**spawn -> /ready 200**', (m) => (m.start.ok ? `**${sec(m.start.readyMs)}**` : `failed: ${m.start.failure}`)),
    line('RSS at ready', (m) => mb(m.start.rssAtReadyMb)),
    line('JS heap / DuckDB at ready', (m) => `${mb(m.metricsAtReady?.heap)} / ${mb(m.metricsAtReady?.duckdb)}`),
    line('peak RSS during start-up', (m) => mb(m.rssPeakStartMb)),
    line('**peak RSS (VmHWM)**', (m) => `**${mb(m.rssPeakMb)}**`),
    line('JS heap / DuckDB after the run', (m) => `${mb(m.metricsAfter?.heap)} / ${mb(m.metricsAfter?.duckdb)}`),
    line('requests, wall time', (m) => (m.run ? `${m.run.results.length} in ${m.run.seconds.toFixed(1)} s` : '–')),
    line('statuses', statuses),
    ...families.map((f) => lat(`${f}, first answers`, (r) => r.family === f && r.first)),
    lat('**every first answer**', (r) => r.first),
    lat('… rare keys (long tail: topics, brands, destinations)', (r) => r.first && classes.of(r) === 'rare'),
    lat('… common keys (head: topics, brands, destinations)', (r) => r.first && classes.of(r) === 'common'),
    lat('… categories (trends, sentiment, KOLs)', (r) => r.first && classes.of(r) === 'category'),
    lat('**repeats of a first answer** (cached answers)', (r) => !r.first && r.family !== 'datasets'),
    lat('… of which cache_status hit', (r) => !r.first && r.family !== 'datasets' && r.cache === 'hit'),
    lat('dataset routes', (r) => r.family === 'datasets'),
    ...entityRows(
      all.map((m) => m.counted),
      classes.entities,
    ).map(([label, cells]) => `| ${label} | ${cells.join(' | ')} |`),
    ...(REPEATS > 1
      ? [
          line('every first answer p95, each round', (m) => rounds[all.indexOf(m)]!.map((r) => ms(firstsP95(r))).join(', ')),
          line('… over the first folder of the same round', (m) =>
            rounds[all.indexOf(m)]!.map((r, i) => (firstsP95(r) / firstsP95(rounds[0]![i]!)).toFixed(2)).join(', '),
          ),
        ]
      : []),
    ...differingRare(
      all.map((m) => m.counted),
      all.map(name),
      classes.entities,
    ),
    ...all.filter((m) => m.logTail).map((m) => `\n${name(m)}, the server's last lines:\n\n\`\`\`\n${m.logTail}\n\`\`\``),
  ].join('\n')
}

// The head and tail of the largest folder's world (the last named).
const classes = await keyClasses(dirs.at(-1)!)
const indexes: IndexBuild[] = []
for (const dir of dirs) {
  console.error(`${dir}: the corpus index (data index) ...`)
  indexes.push(await buildIndex(dir, ROOT, BUILD_INDEX))
}
const rounds: Measured[][] = dirs.map(() => [])
for (let round = 1; round <= REPEATS; round++)
  for (const [i, dir] of dirs.entries()) {
    console.error(`${dir}, round ${round} of ${REPEATS} ...`)
    rounds[i]!.push(await measure(dir, classes.entities, indexes[i]))
  }
console.log(report(rounds, classes))
if (ANSWERS_TO) writeFileSync(ANSWERS_TO, `${answersSeen.sort().join('\n')}\n`)
