/** `payments export --csv`: the file read back by DuckDB's CSV reader equals the ledger, value for value. */
import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { DuckDb } from '../../src/data/duckdb'
import { SqliteLedger } from '../../src/ledger/sqlite'
import type { PaymentClaim } from '../../src/ledger/contract'
import { CSV_COLUMNS, csvValues, exportCsv, spreadsheetSafe } from '../../src/ledger/export'
import { NETWORKS } from '../../src/payments/networks'
import { runCli } from '../../support/cli-run'

const ROOT = resolve(import.meta.dir, '../..')
/** Each CLI run starts a bun process: seconds on a loaded 2-core machine. */
const CLI_TESTS = 60_000
/** Temporary folders, removed at the end (the streaming test writes some hundreds of MB). */
const folders: string[] = []
const folder = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix))
  folders.push(d)
  return d
}
const dir = folder('export-')
const path = join(dir, 'ledger.sqlite')
let duck: DuckDb

const at = (iso: string) => Date.parse(iso) / 1000
const SEPOLIA = NETWORKS['base-sepolia']
const BASE = NETWORKS.base
const ODD_ROUTE = 'odd,"route"\nline 东京'
const ODD_PAYER = '0xbbb,"quoted"'

/** A claim keyed as the gate keys it: `<caip2>:<asset>:<payer>:<nonce>`, lower case. */
function claim(
  nonce: string,
  route: string,
  amount: string,
  payer = '0xaaa',
  network: typeof SEPOLIA | typeof BASE = SEPOLIA,
): PaymentClaim {
  return {
    key: `${network.caip2}:${network.asset}:${payer}:${nonce}`.toLowerCase(),
    network: network.caip2,
    payer,
    nonce,
    routeId: route,
    fingerprint: `${route}|destinations=Tokyo,Osaka`,
    amountAtomic: amount,
    requestId: `req_${nonce}`,
    validBefore: '1795000000',
  }
}
const art = (id: string) => ({ id, body: `{"id":"${id}"}`, expiresAt: at('2027-01-01T00:00:00Z') })

beforeAll(async () => {
  const l = new SqliteLedger(path)
  const pay = (c: PaymentClaim, when: string) => (l.claim(c, at(when), 0), c.key)
  // 2026-11-20: two settled summaries, one answer verified offline (local mode) with a route and payer that need quoting.
  l.complete(pay(claim('0x01', 'flights.summary', '100000'), '2026-11-20T10:00:00Z'), art('art_1'), at('2026-11-20T10:00:02Z'), {
    kind: 'settled',
    txHash: '0xt1',
  })
  l.complete(pay(claim('0x02', 'flights.summary', '100000'), '2026-11-20T11:00:00Z'), art('art_2'), at('2026-11-20T11:00:01Z'), {
    kind: 'settled',
    txHash: '0xt2',
  })
  l.complete(pay(claim('0x03', ODD_ROUTE, '30000', ODD_PAYER), '2026-11-20T12:00:00Z'), art('art_3'), at('2026-11-20T12:00:00Z'))
  // 2026-11-21 from midnight exactly (the --from/--to boundary): pending, failed (released), settled after
  // being pending, expired unsettled, one still in progress, and one payment on Base mainnet.
  l.park(pay(claim('0x04', 'flights.aggregate', '160000'), '2026-11-21T00:00:00Z'), art('art_4'), at('2026-11-21T00:00:03Z'), '0xt4')
  pay(claim('0x05', 'flights.summary', '100000', '0xccc'), '2026-11-21T08:00:00Z')
  l.release(claim('0x05', '', '', '0xccc').key, at('2026-11-21T08:00:01Z'))
  l.park(pay(claim('0x06', 'flights.trend', '1234567'), '2026-11-21T09:00:00Z'), art('art_6'), at('2026-11-21T09:00:01Z'))
  l.resolve(claim('0x06', '', '').key, { settled: true, txHash: '0xt6' }, at('2026-11-21T09:05:00Z'))
  l.park(pay(claim('0x08', 'flights.trend', '1234567'), '2026-11-21T09:30:00Z'), art('art_8'), at('2026-11-21T09:30:01Z'))
  l.resolve(claim('0x08', '', '').key, { settled: false }, at('2026-11-21T10:30:00Z'))
  l.persistClaim(pay(claim('0x07', 'flights.months', '30000'), '2026-11-21T23:59:59Z')) // settling: on disk while in progress
  l.complete(
    pay(claim('0x09', 'flights.summary', '100000', '0xddd', BASE), '2026-11-22T00:00:00Z'),
    art('art_9'),
    at('2026-11-22T00:00:01Z'),
    { kind: 'settled', txHash: '0xt9' },
  )
  await l.durable()
  l.close()
  duck = await DuckDb.open(1)
})
afterAll(() => {
  duck.close()
  for (const d of folders) rmSync(d, { recursive: true, force: true })
})

const cli = (...args: string[]) => runCli(['payments', ...args], { LEDGER_PATH: path })

/** DuckDB's reader told exactly what RFC 4180 says (no sniffing), every value as text: NULL for an empty field. */
const readCsv = (file: string) =>
  `read_csv('${file}', header = true, all_varchar = true, delim = ',', quote = '"', escape = '"', new_line = '\\r\\n', auto_detect = false, columns = {${CSV_COLUMNS.map((c) => `'${c}': 'VARCHAR'`).join(', ')}})`

const iso = (s: number) => new Date(s * 1000).toISOString().replace('.000Z', 'Z')
const ledgerRows = () => {
  const db = new Database(path, { readonly: true })
  try {
    return db.query<Record<string, any>, []>('SELECT * FROM payments ORDER BY created_at, key').all()
  } finally {
    db.close()
  }
}

describe('payments export --csv', () => {
  test(
    'read back by DuckDB, every row equals its ledger row value for value (quoted commas, quotes, newlines, UTF-8)',
    async () => {
      const file = join(dir, 'all.csv')
      const r = await cli('export', '--csv', '--output', file)
      expect(r).toMatchObject({ code: 0, err: '' })
      expect(r.out).toContain('Exported 9 payment(s)')
      const csv = await duck.all<Record<string, string | null>>(`SELECT * FROM ${readCsv(file)}`)
      const asset = (network: string) => (network === BASE.caip2 ? BASE.asset : SEPOLIA.asset).toLowerCase()
      expect(csv).toEqual(
        ledgerRows().map((p) => ({
          created_at: iso(p.created_at),
          updated_at: iso(p.updated_at),
          status: p.state,
          settlement: p.settlement,
          route: p.route,
          request_id: p.request_id,
          payer: p.payer,
          amount_usd: expect.any(String),
          amount_atomic: p.amount_atomic,
          network: p.network,
          asset: asset(p.network),
          tx_hash: p.tx_hash,
          nonce: p.nonce,
          payment_key: p.key,
          artifact_id: p.artifact_id,
          valid_before_unix: p.valid_before,
          fingerprint: p.fingerprint,
        })),
      )
      // The odd values went through intact; every state and settlement is there.
      expect(csv.find((c) => c.nonce === '0x03')).toMatchObject({
        route: ODD_ROUTE,
        payer: ODD_PAYER,
        settlement: 'local',
        amount_usd: '0.03',
      })
      expect(csv.map((c) => `${c.nonce} ${c.status} ${c.settlement}`)).toEqual([
        '0x01 served settled',
        '0x02 served settled',
        '0x03 served local',
        '0x04 pending pending',
        '0x05 failed null',
        '0x06 served settled',
        '0x08 failed failed',
        '0x07 in_progress null',
        '0x09 served settled',
      ])
      // amount_usd is the exact decimal of amount_atomic (DuckDB's decimal arithmetic, not ours).
      const exact = await duck.all<{ bad: bigint }>(
        `SELECT COUNT(*) FILTER (WHERE CAST(amount_usd AS DECIMAL(38,6)) * 1000000 <> CAST(amount_atomic AS DECIMAL(38,0))) AS bad FROM ${readCsv(file)}`,
      )
      expect(Number(exact[0]!.bad)).toBe(0)
      expect(csv.find((c) => c.nonce === '0x06')!.amount_usd).toBe('1.234567')
    },
    CLI_TESTS,
  )

  test(
    'the raw file: UTF-8, header row, CRLF after every record, LF kept inside a quoted field',
    async () => {
      const text = (await cli('export')).out
      expect(text.startsWith(`${CSV_COLUMNS.join(',')}\r\n`)).toBe(true)
      expect(text.endsWith('\r\n')).toBe(true)
      expect(text.split('\r\n')).toHaveLength(11) // header, 9 records, '' after the last CRLF
      expect(text).toContain('"odd,""route""\nline 东京"')
      expect(text).toContain('"0xbbb,""quoted"""')
      expect(readFileSync(join(dir, 'all.csv'), 'utf8')).toBe(text) // stdout and --output write the same bytes
    },
    CLI_TESTS,
  )

  test(
    'sums per route and in total equal `payments report --json` (served, settled, local, pending)',
    async () => {
      const report = JSON.parse((await cli('report', '--json')).out)
      const sum = (where: string) =>
        `CAST(SUM(CASE WHEN ${where} THEN CAST(amount_usd AS DECIMAL(38,6)) ELSE 0 END) * 1000000 AS BIGINT)::VARCHAR`
      const select = `${sum("status = 'served'")} AS served_atomic, ${sum("status = 'served' AND settlement = 'settled'")} AS settled_atomic,
      ${sum("status = 'served' AND settlement = 'local'")} AS local_atomic, ${sum("status = 'pending'")} AS pending_atomic,
      COUNT(*) FILTER (WHERE status = 'served')::INTEGER AS served_count, COUNT(*) FILTER (WHERE status = 'failed')::INTEGER AS failed_count`
      const byRoute = await duck.all(`SELECT route AS key, ${select} FROM ${readCsv(join(dir, 'all.csv'))} GROUP BY route`)
      const pick = (g: any) => ({
        served_atomic: g.served_atomic,
        settled_atomic: g.settled_atomic,
        local_atomic: g.local_atomic,
        pending_atomic: g.pending_atomic,
        served_count: g.served_count,
        failed_count: g.failed_count,
      })
      expect(Object.fromEntries(byRoute.map((g: any) => [g.key, pick(g)]))).toEqual(
        Object.fromEntries(report.groups.map((g: any) => [g.key, pick(g)])),
      )
      const [total] = await duck.all(`SELECT ${select} FROM ${readCsv(join(dir, 'all.csv'))}`)
      expect(total).toEqual(pick(report.totals))
      expect(report.totals.served_usd).toBe('1.564567')
    },
    CLI_TESTS,
  )

  test(
    '--from is inclusive and --to exclusive, on created_at; --status filters states',
    async () => {
      const nonces = async (...args: string[]) => {
        const r = await cli('export', ...args)
        expect(r.code).toBe(0)
        return r.out
          .split('\r\n')
          .slice(1, -1)
          .map((l) => /,(0x0\d),/.exec(l)![1])
      }
      expect(await nonces('--to', '2026-11-21')).toEqual(['0x01', '0x02', '0x03'])
      expect(await nonces('--from', '2026-11-21', '--to', '2026-11-22')).toEqual(['0x04', '0x05', '0x06', '0x08', '0x07'])
      expect(await nonces('--from', '2026-11-21T09:00:00Z', '--to', '2026-11-21T09:30:00Z')).toEqual(['0x06'])
      expect(await nonces('--from', '2026-11-22')).toEqual(['0x09'])
      expect(await nonces('--status', 'served', '--from', '2026-11-21')).toEqual(['0x06', '0x09'])
      expect(await nonces('--status', 'pending,in_progress')).toEqual(['0x04', '0x07'])
      expect((await cli('export', '--from', '2030-01-01')).out).toBe(`${CSV_COLUMNS.join(',')}\r\n`) // nothing: the header alone
    },
    CLI_TESTS,
  )

  test(
    'bad options: a clear message and exit 2, nothing written',
    async () => {
      const bad = async (args: string[], message: string) => {
        const r = await cli('export', ...args)
        expect({ code: r.code, out: r.out }).toEqual({ code: 2, out: '' })
        expect(r.err).toContain(message)
        expect(r.err).not.toContain('    at ')
      }
      await bad(['--from', '2026-02-30'], '--from: expected YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ (UTC), got "2026-02-30"')
      await bad(['--to', '21/11/2026'], '--to: expected YYYY-MM-DD')
      await bad(['--to', '2026-11-21T25:00:00Z'], '--to: expected')
      await bad(['--from', '2026-11-22', '--to', '2026-11-21'], '--from must be earlier than --to')
      await bad(['--from'], '--from needs a value')
      await bad(['--status', 'served,paid'], '--status: expected served, pending, failed, in_progress')
      await bad(['--json'], 'Unknown option "--json"')
      await bad(['--force'], '--force only applies with --output')
      await bad(['--output', join(dir, 'no-such-folder', 'x.csv')], 'does not exist')
      await bad(['--output', path, '--force'], 'is the payment ledger itself')
      const existing = join(dir, 'existing.csv')
      writeFileSync(existing, 'keep me')
      await bad(['--output', existing], 'already exists; refusing to overwrite it (add --force')
      expect(readFileSync(existing, 'utf8')).toBe('keep me')
      expect((await cli('export', '--output', existing, '--force')).code).toBe(0)
      expect(readFileSync(existing, 'utf8')).toBe(readFileSync(join(dir, 'all.csv'), 'utf8'))
    },
    CLI_TESTS,
  )
})

test('a cell a spreadsheet would run as a formula is written as text (a leading apostrophe); amounts and ordinary cells as they are', () => {
  for (const formula of ['=HYPERLINK("http://x","pay")', '+1+1', '-2+3', '@SUM(A1)', '\t=1', '\r=1'])
    expect(spreadsheetSafe(formula)).toBe(`'${formula}`)
  for (const plain of ['flights.summary', '0xabc', 'req_1', '0.10', '', null]) expect(spreadsheetSafe(plain)).toBe(plain)
  const values = csvValues({
    key: 'eip155:8453:0xasset:0xpayer:0x01',
    network: 'eip155:8453',
    payer: '0xpayer',
    nonce: '0x01',
    route: '=cmd|"/c calc"!A1',
    fingerprint: '@f',
    amount_atomic: '100000',
    request_id: '-req',
    state: 'served',
    artifact_id: null,
    created_at: '1',
    updated_at: '2',
    settlement: 'local',
    tx_hash: null,
    valid_before: null,
  } as Parameters<typeof csvValues>[0])
  expect([values.route, values.fingerprint, values.request_id, values.amount_usd, values.payer]).toEqual([
    `'=cmd|"/c calc"!A1`,
    "'@f",
    "'-req",
    '0.10',
    '0xpayer',
  ])
})

describe('streaming', () => {
  /** A ledger of `n` generated payments (plain SQL: the service's own writes are tested above). */
  function bigLedger(n: number): string {
    const file = join(folder('export-big-'), 'ledger.sqlite')
    new SqliteLedger(file).close()
    const db = new Database(file)
    db.run(`WITH RECURSIVE i(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM i WHERE n < ${n})
      INSERT INTO payments (key, network, payer, nonce, route, fingerprint, amount_atomic, request_id, state, artifact_id, created_at, updated_at, settlement, tx_hash, valid_before)
      SELECT printf('eip155:84532:0x036cbd53842c5426634e7929541ec2318f3dcf7e:0x%040x:0x%064x', n, n), 'eip155:84532', printf('0x%040x', n), printf('0x%064x', n),
        'flights.summary', 'flights.summary|destination=Tokyo', '100000', printf('req_%016x', n), 'served', printf('art_%022d', n),
        1790000000 + n, 1790000001 + n, 'settled', printf('0x%064x', n), '1795000000' FROM i`)
    db.close()
    return file
  }

  test('rows reach the writer in chunks of about 64 KiB, never as one whole file', async () => {
    const chunks: string[] = []
    const { rows } = await exportCsv(bigLedger(5000), {}, (c) => void chunks.push(c))
    expect(rows).toBe(5000)
    expect(chunks.length).toBeGreaterThan(10)
    for (const c of chunks) expect(c.length).toBeLessThan(64 * 1024 + 1024)
    expect(chunks.join('').split('\r\n')).toHaveLength(5002)
  })

  test(
    "the export process's peak memory does not grow with the ledger (50,000 then 200,000 rows, ~30 then ~115 MB of CSV)",
    async () => {
      const peak = async (ledger: string) => {
        const out = join(folder('export-out-'), 'payments.csv')
        const proc = Bun.spawn([process.execPath, resolve(ROOT, 'src/index.ts'), 'payments', 'export', '--output', out], {
          cwd: ROOT,
          env: { ...process.env, LEDGER_PATH: ledger, NODE_ENV: 'test' },
          stdout: 'ignore',
          stderr: 'inherit',
        })
        expect(await proc.exited).toBe(0)
        return { rss: proc.resourceUsage()!.maxRSS, bytes: statSync(out).size }
      }
      // JavaScript's garbage-collected heap takes some tens of MB whatever the size; holding the file (or
      // its rows) would add at least the extra 87 MB of CSV between these two runs.
      const smaller = await peak(bigLedger(50_000))
      const big = await peak(bigLedger(200_000))
      expect(big.bytes - smaller.bytes).toBeGreaterThan(80_000_000)
      expect(big.rss - smaller.rss).toBeLessThan(40 * 1024 * 1024)
    },
    CLI_TESTS,
  )
})
