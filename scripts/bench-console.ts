/**
 * The seller's console with a year of payments in the ledger (issue 37: it loads in under 300 ms), on
 * a SQLite file and on PostgreSQL (a throwaway cluster): BENCH_PER_DAY (1,000) payments a day for 365
 * days in every state, with their events and provider spend (support/ledger-history.ts), then
 *
 * - the ledger read alone (readBusiness, in this process, on the ledger as the service opens it);
 * - GET /console (the page) and with Accept: application/json over HTTP: the first load after start, then
 *   loads each after the figures' refresh interval (CONSOLE_REFRESH_MS: every one reads the ledger);
 * - chromium opening the page signed in, to its load event (when Debian's chromium is installed).
 *
 * Prints one Markdown section for BENCHMARKS.md.
 *
 *   bun scripts/bench-console.ts     (BENCH_PER_DAY 1000, BENCH_LOADS 7)
 */
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { CONSOLE_REFRESH_MS } from '../src/composition/console-source'
import { readBusiness, type LedgerView } from '../src/ledger/business'
import { Postgres } from '../src/postgres/client'
import { chromiumMissing, launchChromium } from '../support/chromium'
import { history, writePostgresHistory, writeSqliteHistory } from '../support/ledger-history'
import { postgresMissing, startPostgres } from '../support/postgres'
import { startServer } from '../support/server'

const PER_DAY = Number(process.env.BENCH_PER_DAY ?? 1000)
const LOADS = Number(process.env.BENCH_LOADS ?? 7)
const TOKEN = 'bench-console-token-0123456789'
const now = Math.floor(Date.now() / 1000)
const made = history({ now, days: 365, perDay: PER_DAY })
const rows: string[] = []
const ms = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
  return `${at(0.5).toFixed(0)} / ${at(0.95).toFixed(0)} / ${sorted[sorted.length - 1]!.toFixed(0)} ms`
}
const time = async (work: () => Promise<unknown>) => {
  const t0 = performance.now()
  await work()
  return performance.now() - t0
}

async function measure(label: string, env: Record<string, string>, view: () => LedgerView, close: () => Promise<void>) {
  const reads: number[] = []
  for (let i = 0; i < LOADS; i++) reads.push(await time(() => readBusiness(view(), Math.floor(Date.now() / 1000))))
  await close()
  const server = await startServer({ ...env, METRICS_TOKEN: TOKEN, LOG_LEVEL: 'error', WARM_UP_SAMPLE_ANSWERS: 'false' })
  const get = (accept: string) => async () => {
    const res = await fetch(`${server.url}/console`, { headers: { authorization: `Bearer ${TOKEN}`, accept } })
    if (res.status !== 200) throw new Error(`console answered ${res.status}`)
    await res.arrayBuffer()
  }
  const first = await time(get('text/html'))
  const pages: number[] = []
  const json: number[] = []
  for (let i = 0; i < LOADS; i++) {
    await Bun.sleep(CONSOLE_REFRESH_MS + 100) // past the refresh: this load reads the ledger again
    pages.push(await time(get('text/html')))
    await Bun.sleep(CONSOLE_REFRESH_MS + 100)
    json.push(await time(get('application/json')))
  }
  let browser = 'chromium not installed'
  if (!chromiumMissing()) {
    const chromium = await launchChromium()
    const context = await chromium.newContext({ extraHTTPHeaders: { authorization: `Bearer ${TOKEN}` } })
    const page = await context.newPage()
    const loads: number[] = []
    for (let i = 0; i < LOADS; i++) {
      await Bun.sleep(CONSOLE_REFRESH_MS + 100)
      loads.push(await time(() => page.goto(`${server.url}/console`, { waitUntil: 'load' })))
    }
    browser = ms(loads)
    await chromium.close()
  }
  await server.stop()
  rows.push(`| ${label} | ${ms(reads)} | ${first.toFixed(0)} ms | ${ms(pages)} | ${ms(json)} | ${browser} |`)
  console.error(rows[rows.length - 1])
}

const dir = mkdtempSync(join(tmpdir(), 'bench-console-'))
try {
  const file = join(dir, 'ledger.sqlite')
  let t0 = performance.now()
  writeSqliteHistory(file, made)
  console.error(`SQLite history written in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  let db: Database | undefined
  await measure(
    'SQLite file',
    { LEDGER_PATH: file },
    () => ({ sqlite: (db ??= new Database(file, { readonly: true })) }),
    async () => db?.close(),
  )
  if (postgresMissing()) rows.push('| PostgreSQL | not installed | | | | |')
  else {
    const cluster = await startPostgres()
    try {
      t0 = performance.now()
      await writePostgresHistory(cluster.url, made)
      console.error(`PostgreSQL history written in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
      const pg = new Postgres(cluster.url)
      // As autovacuum leaves an old ledger: its pages all-visible, so the index alone answers.
      await pg.sql.unsafe('VACUUM ANALYZE')
      await measure(
        'PostgreSQL',
        { LEDGER_URL: cluster.url },
        () => ({ postgres: pg }),
        () => pg.close(),
      )
    } finally {
      await cluster.destroy()
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}

const served = made.payments.filter((p) => p[8] === 'served').length
console.log(`### The seller's console with a year of payments (\`bun scripts/bench-console.ts\`) — ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, Bun ${Bun.version}

${made.payments.length.toLocaleString('en-US')} payments over 365 days (${PER_DAY.toLocaleString('en-US')} a day; ${served.toLocaleString('en-US')} served, the rest failed or pending), ${made.events.length.toLocaleString('en-US')} events, ${made.spend.length.toLocaleString('en-US')} provider-spend rows. ${LOADS} loads each, p50 / p95 / max; every load after the first reads the ledger again (past CONSOLE_REFRESH_MS).

| ledger | ledger read alone (readBusiness) | first page load after start | page over HTTP | JSON over HTTP | chromium, to the load event |
|---|---|---|---|---|---|
${rows.join('\n')}
`)
