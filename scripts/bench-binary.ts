// Benchmark of the single executable (`npm run bench:binary`): its size and what it is made of, the time
// from exec to the first served request (/health polled every millisecond) and to the first 200 of /ready
// (the indexes built; median of BENCH_RUNS starts, warm cache), and its memory (VmRSS from /proc) idle and
// after BENCH_WARMUP mixed spend/flights requests, half unpaid (402), half paid (200).
// `bun src/index.ts serve` (npm start) and the executable built without --bytecode are measured the same
// way, alternating with it, for comparison. Prints a Markdown section for BENCHMARKS.md.
import { closeSync, copyFileSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { CATALOG } from '../src/catalog'
import { createPayer } from '../support/payer'
import { freePort } from '../support/ports'

const ROOT = resolve(import.meta.dir, '..')
const RUNS = Number(process.env.BENCH_RUNS ?? 7)
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3000)
const CONCURRENCY = 16

const tmp = mkdtempSync(join(tmpdir(), 'bench-binary-'))
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }))

interface BuildReport {
  size: number
  files: { name: string; part: 'duckdb' | 'datasets' | 'docs'; size: number }[]
}
/** Builds with scripts/build.ts and copies the executable alone into its own folder, as an operator would run it. */
function build(name: string, ...options: string[]): { bin: string; report: BuildReport } {
  console.error(`building ${name} ...`)
  const built = join(tmp, 'build', name)
  const report = `${built}.json`
  const result = Bun.spawnSync([process.execPath, 'scripts/build.ts', '--outfile', built, '--report', report, ...options], {
    cwd: ROOT,
    stdout: 'inherit',
    stderr: 'inherit',
  })
  if (result.exitCode !== 0) throw new Error('build failed')
  const bin = join(tmp, name, 'china-market-intel')
  mkdirSync(join(tmp, name))
  copyFileSync(built, bin)
  return { bin, report: JSON.parse(readFileSync(report, 'utf8')) }
}
const { bin, report } = build('binary')
const { bin: binNoBytecode, report: reportNoBytecode } = build('no-bytecode', '--no-bytecode')

/** Size of an ELF section of a file: `.bun` holds everything `bun build --compile` embeds; the rest is Bun. */
function sectionSize(file: string, wanted: string): number {
  const fd = openSync(file, 'r')
  try {
    const read = (offset: number, length: number) => {
      const b = Buffer.alloc(length)
      readSync(fd, b, 0, length, offset)
      return b
    }
    const elfHeader = read(0, 64) // ELF64, little-endian (x64 and arm64 Linux)
    const shoff = Number(elfHeader.readBigUInt64LE(0x28))
    const [shentsize, shnum, shstrndx] = [elfHeader.readUInt16LE(0x3a), elfHeader.readUInt16LE(0x3c), elfHeader.readUInt16LE(0x3e)]
    const headers = read(shoff, shentsize * shnum)
    const at = (i: number) => ({
      name: headers.readUInt32LE(i * shentsize),
      offset: Number(headers.readBigUInt64LE(i * shentsize + 0x18)),
      size: Number(headers.readBigUInt64LE(i * shentsize + 0x20)),
    })
    const names = at(shstrndx)
    const strings = read(names.offset, names.size)
    for (let i = 0; i < shnum; i++) {
      const section = at(i)
      if (strings.toString('latin1', section.name, strings.indexOf(0, section.name)) === wanted) return section.size
    }
    throw new Error(`${file} has no ${wanted} section`)
  } finally {
    closeSync(fd)
  }
}

interface Target {
  name: string
  cmd: string[]
  cwd: string
  home: string
}
const targets: Target[] = [
  { name: 'binary', cmd: [bin, 'serve'], cwd: tmp, home: join(tmp, 'home') },
  { name: 'source', cmd: [process.execPath, 'src/index.ts', 'serve'], cwd: ROOT, home: join(tmp, 'home') },
  { name: 'no-bytecode', cmd: [binNoBytecode, 'serve'], cwd: tmp, home: join(tmp, 'home') },
]

/**
 * Starts a target and polls /health until it answers, then /ready until it is 200 (the indexes are built
 * in the background); returns both elapsed times in milliseconds. The 1 ms pause between attempts keeps
 * the poller off the second core: polling with no pause at all took ~250 ms of CPU from the starting
 * server on this 2-core machine and measured the poller more than the server.
 */
async function start(target: Target) {
  const port = await freePort()
  const env = {
    PATH: '/usr/bin:/bin',
    HOME: target.home,
    PORT: String(port),
    HOST: '127.0.0.1',
    LEDGER_PATH: ':memory:',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'test',
    RATE_LIMIT_PAYER_PER_MINUTE: '0',
    RATE_LIMIT_IP_PER_MINUTE: '0',
  }
  const t0 = Bun.nanoseconds()
  const proc = Bun.spawn(target.cmd, { cwd: target.cwd, env, stdout: 'ignore', stderr: 'pipe' })
  const stderr = new Response(proc.stderr).text()
  const url = `http://127.0.0.1:${port}`
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${target.name} exited with ${proc.exitCode}:\n${await stderr}`)
    try {
      if ((await fetch(`${url}/health`)).ok) break
    } catch {
      await Bun.sleep(1) // not listening yet
    }
    if (Bun.nanoseconds() - t0 > 30e9) throw new Error(`${target.name} did not answer /health in 30 s`)
  }
  const ms = (Bun.nanoseconds() - t0) / 1e6
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${target.name} exited with ${proc.exitCode}:\n${await stderr}`)
    const res = await fetch(`${url}/ready`)
    await res.arrayBuffer()
    if (res.status === 200) break
    if (Bun.nanoseconds() - t0 > 30e9) throw new Error(`${target.name} was not ready in 30 s`)
    await Bun.sleep(1)
  }
  const readyMs = (Bun.nanoseconds() - t0) / 1e6
  return {
    ms,
    readyMs,
    url,
    proc,
    async stop() {
      proc.kill('SIGTERM')
      if ((await proc.exited) !== 0) throw new Error(`${target.name} exited with ${proc.exitCode} on SIGTERM`)
    },
  }
}

const kib = (pid: number, field: 'VmRSS' | 'VmHWM') =>
  Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`${field}:\\s+(\\d+) kB`))![1])
const mb = (kib: number) => `${(kib / 1024).toFixed(0)} MB`
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

// The warm-up mix: every spend and flights route, over several places, so the result cache fills as in use.
const places = ['Seoul', 'Osaka', 'Bangkok', 'Tokyo', 'Singapore', 'Kuala Lumpur', 'Jeju', 'Phuket']
const countries = ['France', 'Germany', 'Canada', 'Egypt', 'Indonesia', 'Denmark']
const paths = [
  ...places.flatMap((d) => [`flights/summary?destination=${d}`, `flights/trend?destination=${d}`, `flights/top-routes?destination=${d}`]),
  ...countries.flatMap((c) => [`spend/summary?country=${c}`, `spend/trends?country=${c}`, `spend/series?country=${c}&metric=total_cards`]),
  'flights/ranking',
  'flights/growth',
  'flights/months',
  'flights/aggregate?destinations=Tokyo,Osaka,Seoul',
  'spend/months',
  'spend/countries',
].map((p) => `/v1/market-data/${p}`)
const atomicPrice = (path: string) => {
  const route = CATALOG.find((r) => r.path === path.split('?')[0])!
  return BigInt(Math.round(Number(route.priceUsd) * 1e6))
}
console.error(`signing ${Math.ceil(WARMUP / 2)} payment proofs ...`)
const payer = createPayer()
const requests = await Promise.all(
  Array.from({ length: WARMUP }, async (_, index) => {
    const path = paths[index % paths.length]!
    const paid = index % 2 === 0
    const headers: Record<string, string> = paid
      ? { 'x402-payment': await payer.proof({ value: atomicPrice(path), validBefore: BigInt(Math.floor(Date.now() / 1000) + 3600) }) }
      : {}
    return { path, headers }
  }),
)

async function warmUp(url: string) {
  const statuses: Record<number, number> = {}
  let next = 0
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < requests.length) {
        const request = requests[next++]!
        const res = await fetch(`${url}${request.path}`, { headers: request.headers })
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

const startup: Record<string, { health: number[]; ready: number[] }> = Object.fromEntries(
  targets.map((t) => [t.name, { health: [], ready: [] }]),
)
for (let i = 0; i < RUNS; i++) {
  console.error(`start-up round ${i + 1}/${RUNS} ...`)
  for (const target of targets) {
    const started = await start(target)
    startup[target.name]!.health.push(started.ms)
    startup[target.name]!.ready.push(started.readyMs)
    await started.stop()
  }
}

const memory: Record<string, { idle: number; warm: number; peak: number; statuses: Record<number, number> }> = {}
for (const target of targets.slice(0, 2)) {
  console.error(`memory of ${target.name}: ${WARMUP} requests ...`)
  const started = await start(target)
  const idle = kib(started.proc.pid, 'VmRSS')
  const statuses = await warmUp(started.url)
  memory[target.name] = { idle, warm: kib(started.proc.pid, 'VmRSS'), peak: kib(started.proc.pid, 'VmHWM'), statuses }
  await started.stop()
}

const size = statSync(bin).size
const embedded = sectionSize(bin, '.bun')
const sum = (part: string) => report.files.filter((f) => f.part === part).reduce((n, f) => n + f.size, 0)
const code = embedded - sum('duckdb') - sum('datasets') - sum('docs')
const bytecode = size - statSync(binNoBytecode).size
const MB = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`
const share = (bytes: number) => `${((bytes / size) * 100).toFixed(0)}%`
const fileList = (part: string) =>
  report.files
    .filter((f) => f.part === part)
    .map((f) => `${f.name} ${MB(f.size)}`)
    .join(', ')
const times = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(' ')
const cmd = 'npm run bench:binary'
const lines = [
  `## ${new Date().toISOString().slice(0, 10)} — single executable: size, start-up, memory`,
  '',
  `${cpus().length} cores, ${process.arch}, Bun ${Bun.version}; \`${cmd}\` (BENCH_RUNS=${RUNS}, BENCH_WARMUP=${WARMUP}, ${CONCURRENCY} requests at a time).`,
  '',
  '| | binary (`dist/china-market-intel`) | from source (`bun src/index.ts serve`) | binary built without `--bytecode` |',
  '|---|---|---|---|',
  `| size | ${MB(size)} | — | ${MB(reportNoBytecode.size)} |`,
  `| exec → first served \`/health\`, median of ${RUNS} | ${median(startup.binary!.health).toFixed(0)} ms | ${median(startup.source!.health).toFixed(0)} ms | ${median(startup['no-bytecode']!.health).toFixed(0)} ms |`,
  `| exec → \`/ready\` 200 (indexes built), median of ${RUNS} | ${median(startup.binary!.ready).toFixed(0)} ms | ${median(startup.source!.ready).toFixed(0)} ms | ${median(startup['no-bytecode']!.ready).toFixed(0)} ms |`,
  `| all start-ups, \`/health\` (ms) | ${times(startup.binary!.health)} | ${times(startup.source!.health)} | ${times(startup['no-bytecode']!.health)} |`,
  `| all start-ups, \`/ready\` (ms) | ${times(startup.binary!.ready)} | ${times(startup.source!.ready)} | ${times(startup['no-bytecode']!.ready)} |`,
  `| first start, empty cache (extracts libduckdb.so + datasets): \`/health\`, \`/ready\` | ${first.ms.toFixed(0)} ms, ${first.readyMs.toFixed(0)} ms | — | — |`,
  `| VmRSS idle, after start-up | ${mb(memory.binary!.idle)} | ${mb(memory.source!.idle)} | — |`,
  `| VmRSS after ${WARMUP} requests | ${mb(memory.binary!.warm)} | ${mb(memory.source!.warm)} | — |`,
  `| VmHWM (peak) | ${mb(memory.binary!.peak)} | ${mb(memory.source!.peak)} | — |`,
  `| warm-up answers | ${JSON.stringify(memory.binary!.statuses)} | ${JSON.stringify(memory.source!.statuses)} | — |`,
  '',
  `What the ${MB(size)} executable is made of (the \`.bun\` section holds what \`bun build --compile\` embeds; bytecode: the size difference with the build without \`--bytecode\`):`,
  '',
  '| part | size | share |',
  '|---|---|---|',
  `| Bun runtime | ${MB(size - embedded)} | ${share(size - embedded)} |`,
  `| DuckDB (${fileList('duckdb')}) | ${MB(sum('duckdb'))} | ${share(sum('duckdb'))} |`,
  `| datasets (${fileList('datasets')}) | ${MB(sum('datasets'))} | ${share(sum('datasets'))} |`,
  `| API reference UI (Scalar's ${fileList('docs')}) | ${MB(sum('docs'))} | ${share(sum('docs'))} |`,
  `| code: JS bundle | ${MB(code - bytecode)} | ${share(code - bytecode)} |`,
  `| code: its bytecode | ${MB(bytecode)} | ${share(bytecode)} |`,
]
console.log(lines.join('\n'))
