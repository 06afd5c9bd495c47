import { parseArgs, type ParseArgsConfig } from 'node:util'
import { alignedColumns } from './columns'
import { claimNow, formatBatch, type LedgerSource, openLedger, readBatchReport } from './payments-batch'
import { closeSync, existsSync, openSync, statSync, writeSync } from 'node:fs'
import { resolve as resolvePath } from 'node:path'
import { atomicToUsd as usd, ConfigError, nanoToUsd } from '../core'
import { type Config, loadConfig } from '../config'
import {
  backupLedger,
  type BackupResult,
  checkDestination,
  discard,
  exportCsv,
  exportCsvPostgres,
  type GroupBy,
  marginByRoute,
  OutputFileError,
  type PaymentState,
  publish,
  readReport,
  readReportPostgres,
  type Report,
  reportJson,
  type RevenueTotals,
  STATES,
  tempPathFor,
  totals,
} from '../ledger'

const HELP = `payments — revenue, settlement, export and backup of the payment ledger (LEDGER_URL, else LEDGER_PATH)

Usage:
  payments report [--since YYYY-MM-DD | --since 7d] [--by route|day|payer|network] [--json]
      revenue table (paid answers, USD settled on chain, USD verified offline in local mode, pending,
      failed) and the list of unsettled (pending) payments; with live evidence providers, their requests
      and cost per route against its revenue; default: all time, by route
  payments reconcile
      check every pending settlement on chain now (X402_RPC_URL): settled ones release their answer,
      ones whose authorization expired unused are failed (nothing moved)
  payments claim
      batch-settlement (BATCH_NETWORKS): claim the charged vouchers and settle them to PAY_TO now, refund
      idle channels (what the service does every BATCH_CLAIM_SECONDS)
  payments export [--csv] [--from DATE] [--to DATE] [--status STATE[,STATE...]] [--output FILE [--force]]
      one CSV row per payment, oldest first, for accounting (RFC 4180, UTF-8, ISO-8601 UTC times, exact
      decimal amounts); --from is inclusive, --to exclusive, both on the payment's created_at;
      DATE: YYYY-MM-DD (UTC midnight) or YYYY-MM-DDTHH:MM:SSZ; STATE: served, pending, failed,
      in_progress; default: every payment, to stdout; --output refuses an existing FILE unless --force
  payments backup FILE [--force]
      consistent copy of the ledger (VACUUM INTO; safe beside the running service), checked with
      PRAGMA integrity_check before it gets its name; refuses an existing FILE unless --force.
      A PostgreSQL ledger (LEDGER_URL) is backed up with pg_dump instead (docs/operations.md)

Exit status: 0 done, 1 ledger missing or a check or write failed, 2 bad usage.
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
  const numeric = rows[0]!.map((_, column) => rows.slice(1).every((row) => /^[\d.]+$/.test(row[column]!)))
  return alignedColumns(rows, (column) => numeric[column]!)
}

export function formatReport(report: Report, by: GroupBy, sinceLabel: string): string {
  const head = [by, 'paid', 'USD', 'settled USD', 'local USD', 'pending', 'pending USD', 'failed']
  const line = (key: string, totals: RevenueTotals) => [
    key,
    String(totals.served),
    usd(totals.servedAtomic),
    usd(totals.settledAtomic),
    usd(totals.localAtomic),
    String(totals.pending),
    usd(totals.pendingAtomic),
    String(totals.failed),
  ]
  const body = report.groups.map((g) => line(g.key, g))
  const total = line('total', totals(report))
  const out = [
    `Revenue ${sinceLabel}, by ${by} (USD; settled = on chain, local = verified offline, no money moved)`,
    '',
    pad([head, ...body, total]),
  ]
  const events = Object.entries(report.events)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ')
  out.push('', `Payment events: ${events || 'none'}`)
  if (report.unsettled.length > 0) {
    out.push('', `Unsettled (pending) — ${report.unsettled.length}; \`payments reconcile\` checks them on chain now`, '')
    out.push(
      pad([
        ['since (UTC)', 'route', 'payer', 'USD', 'nonce', 'transaction', 'request id'],
        ...report.unsettled.map((payment) => [
          new Date(payment.createdAt * 1000).toISOString().slice(0, 19).replace('T', ' '),
          payment.route,
          payment.payer,
          usd(payment.amountAtomic),
          `${payment.nonce.slice(0, 10)}…`,
          payment.txHash ?? '—',
          payment.requestId,
        ]),
      ]),
    )
  } else {
    out.push('', 'Unsettled (pending): none')
  }
  if (report.spend.length > 0) {
    out.push(
      '',
      `Provider spend ${sinceLabel}, by route (live evidence: what the answers cost at the providers; USD where *_PRICE_USD or LLM_PRICE_* is set)`,
      '',
    )
    const rows = [['route', 'provider', 'answers', 'requests', 'tokens in', 'tokens out', 'cost USD', 'unpriced req.']]
    for (const spend of report.spend)
      rows.push([
        spend.route,
        spend.provider,
        String(spend.answers),
        String(spend.requests),
        String(spend.inputTokens),
        String(spend.outputTokens),
        nanoToUsd(spend.costNano),
        String(spend.unpricedRequests),
      ])
    out.push(pad(rows), '')
    const margins = [['route', 'revenue USD', 'provider cost USD', 'margin USD', 'unpriced req.']]
    for (const margin of marginByRoute(report))
      margins.push([
        margin.route,
        usd(margin.revenueAtomic),
        nanoToUsd(margin.costNano),
        nanoToUsd(margin.revenueAtomic * 1000n - margin.costNano),
        String(margin.unpricedRequests),
      ])
    out.push(pad(margins))
  }
  return `${out.join('\n')}\n`
}

function config(): Readonly<Config> {
  try {
    return loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) fail(`Configuration error: ${error.message}`, 2)
    throw error
  }
}

/** The ledger the service uses: PostgreSQL when LEDGER_URL is set, else the SQLite file. */
function ledgerOf(config: Readonly<Config>): LedgerSource {
  return config.ledgerUrl ? { postgres: config.ledgerUrl } : { sqlite: ledgerPath(config) }
}

function ledgerPath(config: Readonly<Config>): string {
  if (config.ledgerPath === ':memory:') fail('LEDGER_PATH is :memory:; point it at the ledger file of the service.', 2)
  if (!existsSync(config.ledgerPath)) fail(`No payment ledger at ${config.ledgerPath} (set LEDGER_PATH).`, 1)
  return config.ledgerPath
}

async function report(args: string[]): Promise<void> {
  const flags = options(args, { json: { type: 'boolean' }, by: { type: 'string' }, since: { type: 'string' } })
  const by = (flags.by ?? 'route') as GroupBy
  if (!['route', 'day', 'payer', 'network'].includes(by)) fail(`--by: expected route, day, payer or network, got "${by}"`, 2)
  let since = 0
  let sinceLabel = 'all time'
  if (flags.since !== undefined) {
    try {
      since = parseSince(flags.since as string)
    } catch (error) {
      fail((error as Error).message, 2)
    }
    sinceLabel = `since ${new Date(since * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`
  }
  const json = flags.json === true
  const source = ledgerOf(config())
  let ledgerReport: Report
  try {
    ledgerReport =
      'postgres' in source ? await readReportPostgres(source.postgres, { since, by }) : readReport(source.sqlite, { since, by })
  } catch (error) {
    fail(`Report failed: ${(error as Error).message}`, 1)
  }
  const batch = await readBatchReport(source, since).catch((error: unknown) => fail(`Report failed: ${(error as Error).message}`, 1))
  if (json) {
    // Only a seller who offers batch-settlement (or did) has this part.
    const held = batch.channels.length > 0 || batch.actions.length > 0
    process.stdout.write(`${JSON.stringify({ ...reportJson(ledgerReport, by, since), ...(held ? { batch } : {}) }, null, 2)}\n`)
  } else {
    process.stdout.write(formatReport(ledgerReport, by, sinceLabel) + formatBatch(batch, sinceLabel))
  }
}

async function claim(args: string[]): Promise<void> {
  if (args.length > 0) fail(`Unknown option "${args[0]}".\n\n${HELP}`, 2)
  const serviceConfig = config()
  try {
    const { text, failed } = await claimNow(serviceConfig, ledgerOf(serviceConfig))
    process.stdout.write(text)
    if (failed) process.exitCode = 1
  } catch (error) {
    fail(`Claim failed: ${(error as Error).message}`, 1)
  }
}

async function reconcile(args: string[]): Promise<void> {
  if (args.length > 0) fail(`Unknown option "${args[0]}".\n\n${HELP}`, 2)
  const serviceConfig = config()
  const [{ Reconciler }, { createChainReader }] = await Promise.all([
    import('../payments/reconciler'),
    import('../payments/chain/chain-reader'),
  ])
  // With PostgreSQL, beside running instances: every change is guarded by the payment's state, so a
  // payment the instances' own reconciler resolves first is left alone here.
  const { ledger, close } = await openLedger(ledgerOf(serviceConfig))
  try {
    const summary = await new Reconciler(ledger, createChainReader(serviceConfig.reconcileRpc)).run()
    const over = Object.entries(serviceConfig.rpc)
      .map(([name, entry]) => `${name} via ${new URL(entry!.url).origin}`)
      .join(', ')
    process.stdout.write(
      `Checked ${summary.checked} pending payment(s) on ${over}: ${summary.settled} settled, ${summary.failed} failed (expired unsettled, nothing moved), ${summary.pending} still pending${summary.errors ? `, ${summary.errors} could not be checked` : ''}.\n`,
    )
    if (summary.errors > 0) process.exitCode = 1
  } catch (error) {
    fail(`Reconcile failed: ${(error as Error).message}`, 1)
  } finally {
    await close()
  }
}

/** `--from`/`--to`: a date (UTC midnight) or a UTC timestamp, as unix seconds. */
export function parseDateBound(flag: string, value: string): number {
  const date = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}(?::\d{2})?)Z)?$/.exec(value)
  const ms = date ? Date.parse(`${date[1]}T${date[2] ?? '00:00'}Z`) : Number.NaN
  // Date.parse rolls some impossible dates over (2026-02-30): the date must read back unchanged.
  if (
    !date ||
    Number.isNaN(ms) ||
    new Date(ms).toISOString().slice(0, 10) !== date[1] ||
    (date[2] && new Date(ms).toISOString().slice(11, 11 + date[2].length) !== date[2])
  ) {
    throw new Error(`${flag}: expected YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ (UTC), got "${value}"`)
  }
  return ms / 1000
}

/**
 * The options of a subcommand (`node:util`'s parseArgs, as the other commands), with its usage errors
 * in this command's words: an unknown option, or one without its value, is exit code 2 with the help.
 */
function options<T extends ParseArgsConfig['options']>(args: string[], spec: T) {
  try {
    return parseArgs({ args, options: spec, strict: true, allowPositionals: false }).values as Record<
      string,
      string | boolean | string[] | undefined
    >
  } catch (error) {
    const { code, message } = error as { code?: string; message: string }
    const flag = /'(-{1,2}[\w-]+)/.exec(message)?.[1] ?? ''
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') fail(`Unknown option "${flag}".\n\n${HELP}`, 2)
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') fail(`${flag} needs a value.\n\n${HELP}`, 2)
    fail(`${message}\n\n${HELP}`, 2)
  }
}

async function exportPayments(args: string[]): Promise<void> {
  const given = options(args, {
    csv: { type: 'boolean' }, // the only format; named so that scripts say what they expect
    force: { type: 'boolean' },
    output: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    status: { type: 'string', multiple: true },
  })
  const selection: { from?: number; to?: number; states: PaymentState[] } = { states: [] }
  for (const bound of ['from', 'to'] as const) {
    const value = given[bound] as string | undefined
    if (value === undefined) continue
    try {
      selection[bound] = parseDateBound(`--${bound}`, value)
    } catch (error) {
      fail((error as Error).message, 2)
    }
  }
  for (const s of ((given.status as string[] | undefined) ?? []).flatMap((list) => list.split(','))) {
    if (!STATES.includes(s as PaymentState)) fail(`--status: expected ${STATES.join(', ')} (comma-separated), got "${s}"`, 2)
    if (!selection.states.includes(s as PaymentState)) selection.states.push(s as PaymentState)
  }
  const output = given.output as string | undefined
  const force = given.force === true
  if (selection.from !== undefined && selection.to !== undefined && selection.from >= selection.to)
    fail('--from must be earlier than --to (--to is exclusive).', 2)
  if (force && output === undefined) fail('--force only applies with --output FILE.', 2)
  const source = ledgerOf(config())
  const run = (write: (chunk: string) => void | Promise<void>) =>
    'postgres' in source ? exportCsvPostgres(source.postgres, selection, write) : exportCsv(source.sqlite, selection, write)

  if (output === undefined) {
    // A reader that stops early (| head) closes the pipe: that ends the export, quietly.
    process.stdout.on('error', (e: NodeJS.ErrnoException) => (e.code === 'EPIPE' ? process.exit(0) : fail(`stdout: ${e.message}`, 1)))
    const write = (chunk: string) =>
      process.stdout.write(chunk) ? undefined : new Promise<void>((r) => process.stdout.once('drain', () => r()))
    try {
      await run(write)
    } catch (error) {
      fail(`Export failed: ${(error as Error).message}`, 1)
    }
    return
  }

  try {
    checkDestination(output, force, 'sqlite' in source ? source.sqlite : undefined)
  } catch (error) {
    if (error instanceof OutputFileError) fail(error.message, 2)
    throw error
  }
  const tmp = tempPathFor(output)
  let rows = 0
  try {
    const fd = openSync(tmp, 'wx')
    try {
      ;({ rows } = await run((chunk) => {
        const bytes = Buffer.from(chunk)
        for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at)
      }))
    } finally {
      closeSync(fd)
    }
    publish(tmp, output)
  } catch (error) {
    discard(tmp)
    fail(`Export failed, nothing written to ${output}: ${(error as Error).message}`, 1)
  }
  process.stdout.write(`Exported ${rows} payment(s) to ${resolvePath(output)} (${statSync(output).size} bytes).\n`)
}

async function backup(args: string[]): Promise<void> {
  let file: string | undefined
  let force = false
  for (const arg of args) {
    if (arg === '--force') force = true
    else if (arg.startsWith('-')) fail(`Unknown option "${arg}".\n\n${HELP}`, 2)
    else if (file === undefined) file = arg
    else fail(`payments backup takes one FILE, got "${file}" and "${arg}".`, 2)
  }
  if (file === undefined) fail(`payments backup needs the FILE to write.\n\n${HELP}`, 2)
  const serviceConfig = config()
  if (serviceConfig.ledgerUrl)
    fail(
      'LEDGER_URL is set: back up the PostgreSQL ledger with pg_dump (docs/operations.md); `payments backup` copies the SQLite file of one instance.',
      2,
    )
  const path = ledgerPath(serviceConfig)
  let result: BackupResult
  try {
    result = backupLedger(path, file, { force })
  } catch (error) {
    if (error instanceof OutputFileError) fail(error.message, 2)
    fail(`Backup failed, nothing written to ${file}: ${(error as Error).message}`, 1)
  }
  const states = Object.entries(result.states)
    .map(([s, n]) => `${s} ${n}`)
    .join(', ')
  process.stdout.write(
    `Ledger backup written: ${resolvePath(result.path)}\n` +
      `  size       ${result.bytes} bytes\n` +
      '  integrity  ok\n' +
      `  payments   ${result.rows.payments}${states ? ` (${states})` : ''}\n` +
      `  events     ${result.rows.payment_events}\n` +
      `  artifacts  ${result.rows.artifacts}\n`,
  )
}

/** `payments report|reconcile|claim|export|backup`. */
export async function payments(args: string[]): Promise<void> {
  const [sub, ...rest] = args
  if (!sub || sub === '--help' || sub === '-h' || rest.includes('--help')) {
    process.stdout.write(HELP)
    return
  }
  if (sub === 'report') return report(rest)
  if (sub === 'reconcile') return reconcile(rest)
  if (sub === 'claim') return claim(rest)
  if (sub === 'export') return exportPayments(rest)
  if (sub === 'backup') return backup(rest)
  fail(`Unknown payments command "${sub}".\n\n${HELP}`, 2)
}
