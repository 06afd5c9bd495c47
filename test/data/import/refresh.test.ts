/**
 * The data team's refresh while the service runs: `data import` swaps a new version in without a
 * restart, requests in flight finish on the version they started with, no answer mixes versions,
 * a broken file changes nothing, and `data rollback` restores the previous answers.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { cpSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { EVIDENCE, FLIGHTS, SPEND } from '../../../src/data/contracts'
import { readManifest } from '../../../src/data/import/datasets'
import { DuckDb } from '../../../src/data/duckdb'
import { ResultCache } from '../../../src/data/result-cache'
import { importDataset, rollbackDataset } from '../../../src/data/import/refresh'
import { DatasetStore } from '../../../src/data/store'
import { datasetIndexers } from '../../../src/composition/runtime'
import { spendHandlers } from '../../../src/market-data/spend'
import { usdToAtomic } from '../../../src/core/usdc'
import { routeById } from '../../../src/catalog'
import { createPayer } from '../../../support/payer'
import { waitFor } from '../../../support/until'
import { startServer, type StartedServer } from '../../../support/server'
import { damagedCopy, middleOfDataPages, middleOfFile } from './broken-files'

const ROOT = resolve(import.meta.dir, '../../..')
const SUMMARY = '/v1/market-data/spend/summary?country=Japan&month=2026-10'
const PRICE = usdToAtomic(routeById.get('spend.summary')!.priceUsd)

/**
 * A private copy of the shipped datasets plus candidate files: spend with total_cards doubled, spend
 * with one negative count, and flights with 4 KiB damaged (footer intact) in the middle of the file
 * and in the middle of the seats data pages.
 */
async function workspace() {
  const dir = mkdtempSync(join(tmpdir(), 'refresh-'))
  cpSync(join(ROOT, 'datasets'), dir, { recursive: true })
  const db = await DuckDb.open(1)
  const src = `read_parquet('${join(ROOT, 'datasets/spend.parquet')}', file_row_number = true)`
  const candidates = mkdtempSync(join(tmpdir(), 'candidates-'))
  const doubled = join(candidates, 'spend-doubled.parquet')
  const broken = join(candidates, 'spend-broken.parquet')
  await db.exec(
    `COPY (SELECT * EXCLUDE (file_row_number) REPLACE (total_cards * 2 AS total_cards) FROM ${src} ORDER BY file_row_number) TO '${doubled}' (FORMAT parquet)`,
  )
  await db.exec(
    `COPY (SELECT * EXCLUDE (file_row_number) REPLACE (CASE WHEN file_row_number = 41 THEN -1 ELSE total_cards END AS total_cards) FROM ${src} ORDER BY file_row_number) TO '${broken}' (FORMAT parquet)`,
  )
  const flights = join(ROOT, 'datasets', FLIGHTS.file)
  const damaged = [
    damagedCopy(flights, join(candidates, 'flights-damaged.parquet'), await middleOfFile(FLIGHTS)),
    damagedCopy(flights, join(candidates, 'flights-undecodable.parquet'), await middleOfDataPages(db, FLIGHTS, 'seats')),
  ]
  // Expected figures, read independently of the service.
  const [{ cards }] = (await db.all<{ cards: number }>(
    `SELECT SUM(total_cards)::INTEGER AS cards FROM ${src} WHERE country = 'Japan' AND month = '2026-10'`,
  )) as [{ cards: number }]
  db.close()
  return { dir, doubled, broken, damaged, cards }
}

describe('in process: a request in flight keeps its version', () => {
  test('prepared before the swap, answered after it: the old version; prepared after: the new one', async () => {
    const ws = await workspace()
    const db = await DuckDb.open()
    const store = await DatasetStore.open(db, ws.dir, datasetIndexers())
    const handlers = spendHandlers({ db, cache: new ResultCache(), snapshot: () => store.current().market })
    const input = { query: { country: 'Japan', month: '2026-10' }, params: {} }
    const v1 = store.current().datasets.spend!.entry.version

    // Cached per version: the second answer of v1 is a hit...
    expect((await handlers['spend.summary']!.prepare(input).run()).cacheStatus).toBe('miss')
    expect((await handlers['spend.summary']!.prepare(input).run()).cacheStatus).toBe('hit')
    const inFlight = handlers['spend.summary']!.prepare(input) // checked and bound before payment
    const { entry } = await importDataset(db, ws.dir, ws.doubled, SPEND, { sample: true })
    expect(await store.reload()).toEqual(['spend'])

    const oldResult = await inFlight.run()
    expect(oldResult.cacheStatus).toBe('hit') // the in-flight request still reads v1, from v1's entry
    const old = oldResult.data as any
    expect(old.data_quality.dataset_version).toBe(v1)
    expect(old.summary.total_cards).toBe(ws.cards)
    // ...and the first answer of v2 is a miss: a refresh invalidates by version, not by time.
    const freshResult = await handlers['spend.summary']!.prepare(input).run()
    expect(freshResult.cacheStatus).toBe('miss')
    const fresh = freshResult.data as any
    expect(fresh.data_quality.dataset_version).toBe(entry.version)
    expect(fresh.summary.total_cards).toBe(ws.cards * 2)

    // A manifest naming a missing file: the store keeps serving and says why.
    const manifest = readManifest(ws.dir)
    await Bun.write(
      join(ws.dir, 'manifest.json'),
      JSON.stringify({
        ...manifest,
        datasets: { ...manifest.datasets, spend: { ...manifest.datasets.spend, version: 'spend-000000000000', file: 'gone.parquet' } },
      }),
    )
    expect(await store.reload()).toEqual([])
    expect(store.current().datasets.spend!.entry.version).toBe(entry.version)
    expect(store.status().last_reload_error).toMatch(/gone\.parquet is missing/)

    store.close()
    db.close()
  })

  test('a new evidence corpus gets its own index file; the replaced one stays open for requests still reading it', async () => {
    const ws = await workspace()
    const db = await DuckDb.open(1)
    const store = await DatasetStore.open(db, ws.dir, datasetIndexers())
    const before = store.current().evidence
    const market = store.current().market
    const fewer = join(ws.dir, '..', 'evidence-fewer.parquet')
    await db.exec(
      `COPY (SELECT * FROM read_parquet('${join(ws.dir, 'evidence.parquet')}') WHERE id NOT LIKE '%-camping-%') TO '${fewer}' (FORMAT parquet)`,
    )
    await importDataset(db, ws.dir, fewer, EVIDENCE, { sample: true })
    expect(await store.reload()).toEqual(['evidence'])
    const after = store.current().evidence
    expect(after.index.file.path).not.toBe(before.index.file.path)
    expect(after.index.file.posts).toBeLessThan(before.index.file.posts)
    // The replaced index still reads (a request that started before the reload).
    expect(before.index.file.ranges(before.index.first, new Date(before.index.last.getTime() + 1)).length).toBeGreaterThan(0)
    expect(store.current().market).toBe(market) // an evidence import does not rebuild the market indexes
    store.close()
    db.close()
  })

  test('rollback makes the previous version current and keeps older ones for another rollback', async () => {
    const ws = await workspace()
    const db = await DuckDb.open(1)
    const original = readManifest(ws.dir).datasets.spend!
    const first = await importDataset(db, ws.dir, ws.doubled, SPEND, { sample: true })
    expect(first.unchanged).toBe(false)
    expect((await importDataset(db, ws.dir, ws.doubled, SPEND, { sample: true })).unchanged).toBe(true)
    expect(readManifest(ws.dir).history?.spend?.map((e) => e.version)).toEqual([original.version])
    const { from, to } = await rollbackDataset(ws.dir, SPEND)
    expect([from.version, to.version]).toEqual([first.entry.version, original.version])
    expect(readManifest(ws.dir).datasets.spend).toEqual(original)
    await expect(rollbackDataset(ws.dir, SPEND)).rejects.toThrow(/no earlier version/)
    db.close()
  })
})

describe('a running server picks up data import and rollback', () => {
  let server: StartedServer
  let ws: Awaited<ReturnType<typeof workspace>>
  const payer = createPayer()

  beforeAll(async () => {
    ws = await workspace()
    server = await startServer({ DATASETS_DIR: ws.dir, DATASETS_RELOAD_SECONDS: '1' })
  })
  afterAll(async () => {
    await server?.stop()
  })

  const paidSummary = async () => {
    const res = await fetch(server.url + SUMMARY, { headers: { 'x402-payment': await payer.proof({ value: PRICE }) } })
    return { status: res.status, body: (await res.json()) as any }
  }
  const versions = async () =>
    ((await (await fetch(`${server.url}/ready`)).json()) as any).data.checks.datasets.versions as Record<string, string>
  const spendVersion = async () => (await versions()).spend!
  const cli = (...args: string[]) => {
    const p = Bun.spawnSync([process.execPath, join(ROOT, 'src/index.ts'), 'data', ...args, '--dir', ws.dir], {
      stdout: 'pipe',
      stderr: 'pipe',
    })
    return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() }
  }

  test('import under concurrent paid requests: zero errors, no mixed answers, then only the new version', async () => {
    const v1 = await spendVersion()
    const baseline = await paidSummary()
    expect(baseline.status).toBe(200)
    expect(baseline.body.data.summary.total_cards).toBe(ws.cards)

    const answers: { startedAfterSwitch: boolean; status: number; version?: string; cards?: number }[] = []
    let switched = false
    let stop = false
    const worker = async () => {
      while (!stop) {
        const startedAfterSwitch = switched
        const a = await paidSummary()
        answers.push({
          startedAfterSwitch,
          status: a.status,
          version: a.body.data?.data_quality.dataset_version,
          cards: a.body.data?.summary.total_cards,
        })
      }
    }
    const workers = Array.from({ length: 4 }, worker)
    let v2 = ''
    try {
      await waitFor('answers before the import', async () => answers.length >= 20)
      const imported = cli('import', ws.doubled, '--sample')
      expect(imported.err).toBe('')
      expect(imported.code).toBe(0)
      v2 = readManifest(ws.dir).datasets.spend!.version
      expect(imported.out).toContain(`spend: ${v1} -> ${v2}`)
      await waitFor('the server to report the new version', async () => (await spendVersion()) === v2)
      switched = true
      const seen = answers.length
      await waitFor('answers after the switch', async () => answers.length >= seen + 20)
    } finally {
      stop = true
      await Promise.all(workers)
    }

    expect(answers.filter((a) => a.status !== 200)).toEqual([])
    const expected: Record<string, number> = { [v1]: ws.cards, [v2]: ws.cards * 2 }
    // Each answer's figure belongs to the version it names: no answer mixes versions.
    expect(answers.filter((a) => expected[a.version!] !== a.cards)).toEqual([])
    expect(new Set(answers.map((a) => a.version))).toEqual(new Set([v1, v2]))
    expect(answers.filter((a) => a.startedAfterSwitch && a.version !== v2)).toEqual([])
  }, 120_000)

  test('a broken file is refused with its defect and changes nothing', async () => {
    const before = readFileSync(join(ws.dir, 'manifest.json'), 'utf8')
    const version = await spendVersion()
    const r = cli('import', ws.broken)
    expect(r.code).toBe(1)
    expect(r.err).toContain('does not meet the spend contract')
    expect(r.err).toMatch(/total_cards: row 42: negative value/)
    expect(readFileSync(join(ws.dir, 'manifest.json'), 'utf8')).toBe(before)
    expect(await spendVersion()).toBe(version)
  })

  test('a file with damaged pages is refused with its defect, without a stack trace, and the current version keeps serving', async () => {
    const before = readFileSync(join(ws.dir, 'manifest.json'), 'utf8')
    const serving = await versions()
    const expected = [/estimated_passengers: rows [\d, ]+ \(\d+ rows in all\): negative value/, /seats: data pages cannot be decoded/]
    ws.damaged.forEach((file, i) => {
      const r = cli('import', file)
      expect(r.code).toBe(1)
      expect(r.err).toContain('does not meet the flights contract')
      expect(r.err).toMatch(expected[i]!)
      expect(r.err).not.toMatch(/^\s+at /m)
    })
    expect(readFileSync(join(ws.dir, 'manifest.json'), 'utf8')).toBe(before)
    const ready = await fetch(`${server.url}/ready`)
    expect(ready.status).toBe(200)
    expect(await versions()).toEqual(serving)
  })

  test('rollback restores the previous answers', async () => {
    const original = JSON.parse(readFileSync(join(ROOT, 'datasets/manifest.json'), 'utf8')).datasets.spend.version
    const r = cli('rollback', 'spend')
    expect(r.code).toBe(0)
    expect(r.out).toContain(`-> ${original} (rolled back)`)
    await waitFor('the server to report the restored version', async () => (await spendVersion()) === original)
    const a = await paidSummary()
    expect(a.status).toBe(200)
    expect(a.body.data.data_quality.dataset_version).toBe(original)
    expect(a.body.data.summary.total_cards).toBe(ws.cards)
    const listed = cli('list')
    expect(listed.out).toMatch(new RegExp(`spend\\s+${original}`))
  })
})
