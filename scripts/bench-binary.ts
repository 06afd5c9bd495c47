// Benchmark of the single executable (`npm run bench:binary`): its size, the time from exec to the
// first served request (/health polled every millisecond; median of BENCH_RUNS starts), and its memory (VmRSS from
// /proc) idle and after BENCH_WARMUP mixed spend/flights requests, half unpaid (402), half paid (200).
// `bun src/index.ts serve` (npm start) is measured the same way, alternating with the binary, for
// comparison. Prints a Markdown section for BENCHMARKS.md.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { CATALOG } from '../src/catalog'
import { createPayer } from '../test/helpers/payer'

const ROOT = resolve(import.meta.dir, '..')
const RUNS = Number(process.env.BENCH_RUNS ?? 7)
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3000)
const CONCURRENCY = 16

const tmp = mkdtempSync(join(tmpdir(), 'bench-binary-'))
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }))

console.error('building ...')
const built = join(tmp, 'build', 'china-market-intel')
const build = Bun.spawnSync([process.execPath, 'scripts/build.ts', '--outfile', built], { cwd: ROOT, stdout: 'inherit', stderr: 'inherit' })
if (build.exitCode !== 0) throw new Error('build failed')
const bin = join(tmp, 'china-market-intel') // alone in its folder, as an operator would run it
copyFileSync(built, bin)

interface Target {
  name: string
  cmd: string[]
  cwd: string
  home: string
}
const targets: Target[] = [
  { name: 'binary', cmd: [bin, 'serve'], cwd: tmp, home: join(tmp, 'home') },
  { name: 'source', cmd: [process.execPath, 'src/index.ts', 'serve'], cwd: ROOT, home: join(tmp, 'home') },
]

function freePort(): number {
  const s = Bun.serve({ port: 0, fetch: () => new Response() })
  const port = s.port!
  s.stop(true)
  return port
}

/**
 * Starts a target and polls /health until it answers; returns the elapsed milliseconds. The 1 ms pause
 * between attempts keeps the poller off the second core: polling with no pause at all took ~250 ms of
 * CPU from the starting server on this 2-core machine and measured the poller more than the server.
 */
async function start(t: Target) {
  const port = freePort()
  const env = { PATH: '/usr/bin:/bin', HOME: t.home, PORT: String(port), HOST: '127.0.0.1', LEDGER_PATH: ':memory:', LOG_LEVEL: 'warn', NODE_ENV: 'test', RATE_LIMIT_PAYER_PER_MINUTE: '0', RATE_LIMIT_IP_PER_MINUTE: '0' }
  const t0 = Bun.nanoseconds()
  const proc = Bun.spawn(t.cmd, { cwd: t.cwd, env, stdout: 'ignore', stderr: 'pipe' })
  const stderr = new Response(proc.stderr).text()
  const url = `http://127.0.0.1:${port}`
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${t.name} exited with ${proc.exitCode}:\n${await stderr}`)
    try {
      if ((await fetch(`${url}/health`)).ok) break
    } catch {
      await Bun.sleep(1) // not listening yet
    }
    if (Bun.nanoseconds() - t0 > 30e9) throw new Error(`${t.name} did not answer /health in 30 s`)
  }
  const ms = (Bun.nanoseconds() - t0) / 1e6
  return {
    ms,
    url,
    proc,
    async stop() {
      proc.kill('SIGTERM')
      if ((await proc.exited) !== 0) throw new Error(`${t.name} exited with ${proc.exitCode} on SIGTERM`)
    },
  }
}

const kib = (pid: number, field: 'VmRSS' | 'VmHWM') => Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`${field}:\\s+(\\d+) kB`))![1])
const mb = (kib: number) => `${(kib / 1024).toFixed(0)} MB`
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

// The warm-up mix: every spend and flights route, over several places, so the result cache fills as in use.
const places = ['Seoul', 'Osaka', 'Bangkok', 'Tokyo', 'Singapore', 'Kuala Lumpur', 'Jeju', 'Phuket']
const countries = ['France', 'Germany', 'Canada', 'Egypt', 'Indonesia', 'Denmark']
const paths = [
  ...places.flatMap((d) => [`flights/summary?destination=${d}`, `flights/trend?destination=${d}`, `flights/top-routes?destination=${d}`]),
  ...countries.flatMap((c) => [`spend/summary?country=${c}`, `spend/trends?country=${c}`, `spend/series?country=${c}&metric=total_cards`]),
  'flights/ranking', 'flights/growth', 'flights/months', 'flights/aggregate?destinations=Tokyo,Osaka,Seoul', 'spend/months', 'spend/countries',
].map((p) => `/v1/market-data/${p}`)
const atomicPrice = (path: string) => {
  const route = CATALOG.find((r) => r.path === path.split('?')[0])!
  return BigInt(Math.round(Number(route.priceUsd) * 1e6))
}
console.error(`signing ${Math.ceil(WARMUP / 2)} payment proofs ...`)
const payer = createPayer()
const requests = await Promise.all(
  Array.from({ length: WARMUP }, async (_, i) => {
    const path = paths[i % paths.length]!
    const paid = i % 2 === 0
    const headers: Record<string, string> = paid ? { 'x402-payment': await payer.proof({ value: atomicPrice(path), validBefore: BigInt(Math.floor(Date.now() / 1000) + 3600) }) } : {}
    return { path, headers }
  }),
)

async function warmUp(url: string) {
  const statuses: Record<number, number> = {}
  let next = 0
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < requests.length) {
        const r = requests[next++]!
        const res = await fetch(`${url}${r.path}`, { headers: r.headers })
        await res.arrayBuffer()
        statuses[res.status] = (statuses[res.status] ?? 0) + 1
      }
    }),
  )
  return statuses
}

// First start of the binary on an empty cache: extracts DuckDB's library and the datasets.
const first = await start(targets[0]!)
await first.stop()

const startup: Record<string, number[]> = { binary: [], source: [] }
for (let i = 0; i < RUNS; i++) {
  console.error(`start-up round ${i + 1}/${RUNS} ...`)
  for (const t of targets) {
    const s = await start(t)
    startup[t.name]!.push(s.ms)
    await s.stop()
  }
}

const memory: Record<string, { idle: number; warm: number; peak: number; statuses: Record<number, number> }> = {}
for (const t of targets) {
  console.error(`memory of ${t.name}: ${WARMUP} requests ...`)
  const s = await start(t)
  const idle = kib(s.proc.pid, 'VmRSS')
  const statuses = await warmUp(s.url)
  memory[t.name] = { idle, warm: kib(s.proc.pid, 'VmRSS'), peak: kib(s.proc.pid, 'VmHWM'), statuses }
  await s.stop()
}

const size = statSync(bin).size
const cmd = 'npm run bench:binary'
const lines = [
  `## ${new Date().toISOString().slice(0, 10)} — single executable: size, start-up, memory`,
  '',
  `${cpus().length} cores, ${process.arch}, Bun ${Bun.version}; \`${cmd}\` (BENCH_RUNS=${RUNS}, BENCH_WARMUP=${WARMUP}, ${CONCURRENCY} requests at a time).`,
  '',
  '| | binary (`dist/china-market-intel`) | from source (`bun src/index.ts serve`) |',
  '|---|---|---|',
  `| size | ${(size / 1e6).toFixed(1)} MB | — |`,
  `| exec → first served \`/health\`, median of ${RUNS} | ${median(startup.binary!).toFixed(0)} ms | ${median(startup.source!).toFixed(0)} ms |`,
  `| all start-ups (ms) | ${startup.binary!.map((x) => x.toFixed(0)).join(' ')} | ${startup.source!.map((x) => x.toFixed(0)).join(' ')} |`,
  `| first start, empty cache (extracts libduckdb.so + datasets) | ${first.ms.toFixed(0)} ms | — |`,
  `| VmRSS idle, after start-up | ${mb(memory.binary!.idle)} | ${mb(memory.source!.idle)} |`,
  `| VmRSS after ${WARMUP} requests | ${mb(memory.binary!.warm)} | ${mb(memory.source!.warm)} |`,
  `| VmHWM (peak) | ${mb(memory.binary!.peak)} | ${mb(memory.source!.peak)} |`,
  `| warm-up answers | ${JSON.stringify(memory.binary!.statuses)} | ${JSON.stringify(memory.source!.statuses)} |`,
]
console.log(lines.join('\n'))
