/**
 * The data team's monthly delivery through the CLI while the service runs: one new month (as CSV) is
 * merged, the service answers it next to the whole history without a restart, `data list` says what
 * each version was built from, a truncated month needs --max-drop or --replace, and rollback returns.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { routeById } from '../../../src/catalog'
import { SPEND } from '../../../src/data/contracts'
import { readManifest } from '../../../src/data/import/datasets'
import { DuckDb } from '../../../src/data/duckdb'
import { usdToAtomic } from '../../../src/core/usdc'
import { createPayer } from '../../../support/payer'
import { startServer, type StartedServer } from '../../../support/server'
import { cli, deliver, workspace } from './deliveries'

describe('a monthly CSV delivery merged while the service runs', () => {
  let server: StartedServer
  let ws: ReturnType<typeof workspace>
  let files: { month: string; truncated: string }
  const payer = createPayer()

  beforeAll(async () => {
    ws = workspace()
    const db = await DuckDb.open(1)
    files = {
      month: await deliver(
        db,
        join(ws.incoming, 'spend-2026-11.csv'),
        SPEND,
        "SELECT * REPLACE ('2026-11' AS month) FROM src WHERE month = '2026-10'",
      ),
      truncated: await deliver(
        db,
        join(ws.incoming, 'spend-2026-11-partial.csv'),
        SPEND,
        "SELECT * REPLACE ('2026-11' AS month) FROM src WHERE month = '2026-10' AND country IN ('Japan', 'Thailand')",
      ),
    }
    db.close()
    server = await startServer({ DATASETS_DIR: ws.dir, DATASETS_RELOAD_SECONDS: '1' })
  })
  afterAll(async () => {
    await server?.stop()
  })

  const paid = async (id: string, query = '') => {
    const route = routeById.get(id)!
    const res = await fetch(`${server.url}${route.path}${query}`, {
      headers: { 'x402-payment': await payer.proof({ value: usdToAtomic(route.priceUsd) }) },
    })
    expect(res.status).toBe(200)
    return ((await res.json()) as any).data
  }
  const spendVersion = async () =>
    ((await (await fetch(`${server.url}/ready`)).json()) as any).data.checks.datasets.versions.spend as string
  /** Waits for the service to report a version (not for a time). */
  const serving = async (version: string) => {
    const deadline = Date.now() + 30_000
    while ((await spendVersion()) !== version) {
      if (Date.now() > deadline) throw new Error(`the service did not switch to ${version}`)
      await Bun.sleep(50)
    }
  }

  test('the new month is served next to the whole history, without a restart; old months answer as before', async () => {
    const original = readManifest(ws.dir).datasets.spend!.version
    const before = { months: await paid('spend.months'), summary: await paid('spend.summary', '?country=Japan&month=2026-10') }
    expect(before.months.count).toBe(94)

    const r = cli(ws.dir, 'import', files.month)
    expect([r.code, r.err]).toEqual([0, ''])
    const merged = readManifest(ws.dir).datasets.spend!
    expect(r.out).toContain(`spend: ${original} -> ${merged.version} (92625 rows, 2019-01 to 2026-11)`)
    expect(r.out).toContain(`  built from: merge spend-2026-11.csv onto ${original}: +2026-11\n`)
    await serving(merged.version)

    const after = await paid('spend.months')
    expect(after.months).toEqual([...before.months.months, '2026-11'])
    expect([after.count, after.latest]).toEqual([95, '2026-11'])
    const summary = await paid('spend.summary', '?country=Japan&month=2026-10')
    expect(summary.data_quality.dataset_version).toBe(merged.version)
    expect({ ...summary, data_quality: undefined }).toEqual({ ...before.summary, data_quality: undefined })
    const november = await paid('spend.summary', '?country=Japan&month=2026-11')
    expect(november.summary.total_cards).toBe(before.summary.summary.total_cards) // 2026-10's figures, delivered as 2026-11
  }, 60_000)

  test('data list shows what each version was built from; --json the full record', () => {
    const r = cli(ws.dir, 'list')
    expect(r.code).toBe(0)
    const [header, ...lines] = r.out.split('\n').slice(1)
    expect(header).toMatch(/^dataset\s+version\s+rows\s+period\s+kind\s+built from\s+earlier versions \(rollback\)$/)
    const manifest = readManifest(ws.dir)
    expect(lines.find((l) => l.startsWith('spend '))).toMatch(
      new RegExp(
        `merge spend-2026-11\\.csv onto ${manifest.history!.spend![0]!.version}: \\+2026-11 +${manifest.history!.spend![0]!.version}$`,
      ),
    )
    expect(lines.find((l) => l.startsWith('flights '))).toMatch(/ generated +-$/)
    const json = JSON.parse(cli(ws.dir, 'list', '--json').out)
    expect(json.datasets.spend.built_from).toEqual({
      mode: 'merge',
      file: 'spend-2026-11.csv',
      format: 'csv',
      sha256: new Bun.CryptoHasher('sha256').update(readFileSync(files.month)).digest('hex'),
      rows: 975,
      base: manifest.history!.spend![0]!.version,
      added: ['2026-11'],
      replaced: [],
    })
  })

  test('a truncated correction is refused with the counts; --max-drop accepts it; rollback returns the full month', async () => {
    const full = readManifest(ws.dir).datasets.spend!
    const refused = cli(ws.dir, 'import', files.truncated)
    expect(refused.code).toBe(1)
    expect(refused.err).toMatch(
      /^spend-2026-11-partial\.csv would drop more than 20% of the rows of 1 period\(s\) it replaces; nothing changed:\n {2}2026-11: 50 rows would replace 975 \(-94\.9%\)\n/,
    )
    expect(refused.err).toContain('import it again with --max-drop 95')
    expect(readManifest(ws.dir).datasets.spend!.version).toBe(full.version)

    expect(cli(ws.dir, 'import', files.truncated, '--max-drop', 'most').code).toBe(2)
    const accepted = cli(ws.dir, 'import', files.truncated, '--max-drop', '95')
    expect([accepted.code, accepted.err]).toEqual([0, ''])
    expect(accepted.out).toContain(`built from: merge spend-2026-11-partial.csv onto ${full.version}: ~2026-11`)
    await serving(readManifest(ws.dir).datasets.spend!.version)
    expect((await paid('spend.countries', '?month=2026-11')).countries.map((c: any) => c.country).sort()).toEqual(['Japan', 'Thailand'])

    const back = cli(ws.dir, 'rollback', 'spend')
    expect(back.out).toContain(`-> ${full.version} (rolled back)`)
    await serving(full.version)
    expect((await paid('spend.countries', '?month=2026-11')).countries).toHaveLength(39)
  }, 60_000)

  test('--replace makes the delivery the whole dataset', async () => {
    const r = cli(ws.dir, 'import', files.month, '--replace')
    expect([r.code, r.err]).toEqual([0, ''])
    const manifest = readManifest(ws.dir)
    expect(manifest.datasets.spend!.period).toEqual({ from: '2026-11', to: '2026-11' })
    expect(r.out).toMatch(/built from: replace spend-2026-11\.csv: ~2026-11 -2019-01\.\.2026-10 \(94\)\n/)
    await serving(manifest.datasets.spend!.version)
    expect((await paid('spend.months')).months).toEqual(['2026-11'])
  }, 60_000)

  test('a manifest written before provenance was recorded still lists', () => {
    const manifest = readManifest(ws.dir)
    const { built_from: _, ...old } = manifest.datasets.spend!
    writeFileSync(join(ws.dir, 'manifest.json'), JSON.stringify({ ...manifest, datasets: { ...manifest.datasets, spend: old } }))
    const r = cli(ws.dir, 'list')
    expect(r.code).toBe(0)
    expect(r.out.split('\n').find((l) => l.startsWith('spend '))).toContain(' (not recorded) ')
  })
})
