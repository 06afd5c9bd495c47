import { existsSync } from 'node:fs'
import { ConfigError, loadConfig, type Config } from '../config'
import { readReport, reportJson, totals, type GroupBy, type Report, type RevenueTotals } from '../payments/ledger-report'
import { atomicToUsd as usd } from '../payments/networks'

const HELP = `payments — revenue and settlement of the payment ledger (LEDGER_PATH)

Usage:
  payments report [--since YYYY-MM-DD | --since 7d] [--by route|day|payer] [--json]
      revenue table (paid answers, USD settled on chain, USD verified offline in local mode, pending,
      failed) and the list of unsettled (pending) payments; default: all time, by route
  payments reconcile
      check every pending settlement on chain now (X402_RPC_URL): settled ones release their answer,
      ones whose authorization expired unused are failed (nothing moved)

Exit status: 0 done, 1 ledger missing or a check failed, 2 bad usage.
`

function fail(message: string, code: number): never {
  process.stderr.write(`${message}\n`)
  process.exit(code)
}

/** `--since 2026-11-01` (UTC midnight) or `--since 7d` (that many days back from now), as unix seconds. */
export function parseSince(value: string, now = Date.now()): number {
  const days = /^(\d{1,4})d$/.exec(value)
  if (days) return Math.floor(now / 1000) - Number(days[1]) * 86400
  if (/^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`))) return Date.parse(`${value}T00:00:00Z`) / 1000
  throw new Error(`--since: expected YYYY-MM-DD or a number of days like 7d, got "${value}"`)
}

/** Aligned columns: numbers to the right, text to the left. */
const pad = (rows: string[][]) => {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)))
  const numeric = rows[0]!.map((_, i) => rows.slice(1).every((r) => /^[\d.]+$/.test(r[i]!)))
  return rows.map((r) => r.map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd()).join('\n')
}

export function formatReport(r: Report, by: GroupBy, sinceLabel: string): string {
  const head = [by, 'paid', 'USD', 'settled USD', 'local USD', 'pending', 'pending USD', 'failed']
  const line = (key: string, g: RevenueTotals) => [key, String(g.served), usd(g.servedAtomic), usd(g.settledAtomic), usd(g.localAtomic), String(g.pending), usd(g.pendingAtomic), String(g.failed)]
  const body = r.groups.map((g) => line(g.key, g))
  const total = line('total', totals(r))
  const out = [`Revenue ${sinceLabel}, by ${by} (USD; settled = on chain, local = verified offline, no money moved)`, '', pad([head, ...body, total])]
  const events = Object.entries(r.events).map(([k, n]) => `${k} ${n}`).join(', ')
  out.push('', `Payment events: ${events || 'none'}`)
  if (r.unsettled.length > 0) {
    out.push('', `Unsettled (pending) — ${r.unsettled.length}; \`payments reconcile\` checks them on chain now`, '')
    out.push(pad([
      ['since (UTC)', 'route', 'payer', 'USD', 'nonce', 'transaction', 'request id'],
      ...r.unsettled.map((u) => [new Date(u.createdAt * 1000).toISOString().slice(0, 19).replace('T', ' '), u.route, u.payer, usd(u.amountAtomic), `${u.nonce.slice(0, 10)}…`, u.txHash ?? '—', u.requestId]),
    ]))
  } else {
    out.push('', 'Unsettled (pending): none')
  }
  return `${out.join('\n')}\n`
}

function config(): Readonly<Config> {
  try {
    return loadConfig()
  } catch (e) {
    if (e instanceof ConfigError) fail(`Configuration error: ${e.message}`, 2)
    throw e
  }
}

function ledgerPath(c: Readonly<Config>): string {
  if (c.ledgerPath === ':memory:') fail('LEDGER_PATH is :memory:; point it at the ledger file of the service.', 2)
  if (!existsSync(c.ledgerPath)) fail(`No payment ledger at ${c.ledgerPath} (set LEDGER_PATH).`, 1)
  return c.ledgerPath
}

async function report(args: string[]): Promise<void> {
  let by: GroupBy = 'route'
  let since = 0
  let sinceLabel = 'all time'
  let json = false
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!
    if (a === '--json') json = true
    else if (a === '--by') {
      const v = args[++i]
      if (v !== 'route' && v !== 'day' && v !== 'payer') fail(`--by: expected route, day or payer, got "${v ?? ''}"`, 2)
      by = v
    } else if (a === '--since') {
      const v = args[++i] ?? ''
      try {
        since = parseSince(v)
      } catch (e) {
        fail((e as Error).message, 2)
      }
      sinceLabel = `since ${new Date(since * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`
    } else fail(`Unknown option "${a}".\n\n${HELP}`, 2)
  }
  const r = readReport(ledgerPath(config()), { since, by })
  if (json) {
    process.stdout.write(`${JSON.stringify(reportJson(r, by, since), null, 2)}\n`)
  } else {
    process.stdout.write(formatReport(r, by, sinceLabel))
  }
}

async function reconcile(args: string[]): Promise<void> {
  if (args.length > 0) fail(`Unknown option "${args[0]}".\n\n${HELP}`, 2)
  const c = config()
  const path = ledgerPath(c)
  const [{ SqliteLedger }, { Reconciler }, { createChainReader }] = await Promise.all([
    import('../payments/ledger'), import('../payments/reconciler'), import('../payments/chain-reader'),
  ])
  const ledger = new SqliteLedger(path)
  try {
    const s = await new Reconciler(ledger, createChainReader(c.network, c.rpcUrl)).run()
    process.stdout.write(`Checked ${s.checked} pending payment(s) on ${c.network} via ${new URL(c.rpcUrl).origin}: ${s.settled} settled, ${s.failed} failed (expired unsettled, nothing moved), ${s.pending} still pending${s.errors ? `, ${s.errors} could not be checked` : ''}.\n`)
    if (s.errors > 0) process.exitCode = 1
  } finally {
    ledger.close()
  }
}

/** `payments report|reconcile`. */
export async function payments(args: string[]): Promise<void> {
  const [sub, ...rest] = args
  if (!sub || sub === '--help' || sub === '-h' || rest.includes('--help')) {
    process.stdout.write(HELP)
    return
  }
  if (sub === 'report') return report(rest)
  if (sub === 'reconcile') return reconcile(rest)
  fail(`Unknown payments command "${sub}".\n\n${HELP}`, 2)
}
