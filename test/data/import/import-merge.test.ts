/**
 * `data import` merges a delivery into the current version: its months (weeks) are added or replace
 * the same ones, everything else is kept byte for byte; the merged result is validated as a whole;
 * a delivery much smaller than the months it replaces is refused; every version records what it was
 * built from; and rollback walks back across merges.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { EVIDENCE, SPEND } from '../../../src/data/contracts'
import { readManifest } from '../../../src/data/import/datasets'
import { DuckDb } from '../../../src/data/duckdb'
import { HISTORY_KEEP, importDataset, RefreshError, rollbackDataset } from '../../../src/data/import/refresh'
import { deliver, sha256, SHIPPED, workspace } from './deliveries'

let db: DuckDb
beforeAll(async () => {
  db = await DuckDb.open(2)
})
afterAll(() => db.close())

const months = async (file: string) =>
  (await db.all<{ m: string }>(`SELECT DISTINCT month AS m FROM read_parquet('${file}') ORDER BY m`)).map((r) => r.m)
const count = async (sql: string) => (await db.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM (${sql})`))[0]!.n
const current = (dir: string, dataset = 'spend') => join(dir, readManifest(dir).datasets[dataset]!.file)
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('the import was accepted')
    },
    (e) => e as RefreshError,
  )
/** Rows of one file that the other lacks, both ways (EXCEPT ALL compares every value exactly). */
const differing = (a: string, b: string, where: string) =>
  count(
    `(SELECT * FROM read_parquet('${a}') WHERE ${where} EXCEPT ALL SELECT * FROM read_parquet('${b}') WHERE ${where}) UNION ALL (SELECT * FROM read_parquet('${b}') WHERE ${where} EXCEPT ALL SELECT * FROM read_parquet('${a}') WHERE ${where})`,
  )

const SHIPPED_SPEND = join(SHIPPED, SPEND.file)
/** 2026-10 again, as the month after it. */
const NEXT_MONTH = "SELECT * REPLACE ('2026-11' AS month) FROM src WHERE month = '2026-10'"

test('a new month delivered alone is added to the whole history', async () => {
  const ws = workspace()
  const original = readManifest(ws.dir).datasets.spend!
  const file = await deliver(db, join(ws.incoming, 'spend-2026-11.parquet'), SPEND, NEXT_MONTH)
  const r = await importDataset(db, ws.dir, file, SPEND)
  expect(r.report.violations).toEqual([])
  expect(r.entry.period).toEqual({ from: '2019-01', to: '2026-11' })
  expect(r.entry.rows).toBe(original.rows + 975)
  expect(await months(current(ws.dir))).toEqual([...(await months(SHIPPED_SPEND)), '2026-11'])
  expect(await differing(current(ws.dir), SHIPPED_SPEND, "month <> '2026-11'")).toBe(0)
  // The stored version is Parquet written by DuckDB, named by its own content.
  expect(r.entry.file).toBe(`${r.entry.version}.parquet`)
  expect(r.entry.version).toBe(`spend-${sha256(current(ws.dir)).slice(0, 12)}`)
  expect(r.entry.built_from).toEqual({
    mode: 'merge',
    file: 'spend-2026-11.parquet',
    format: 'parquet',
    sha256: sha256(file),
    rows: 975,
    base: original.version,
    added: ['2026-11'],
    replaced: [],
  })
  // Still the sample's figures underneath: the merged version stays labelled sample.
  expect(r.entry.sample).toBe(true)
})

test('a corrected month replaces only itself; two months apart in one delivery are legal', async () => {
  const ws = workspace()
  // 2026-03 with one more card everywhere and Chengdu's rows gone; 2026-07 with one more card.
  const fix =
    "SELECT * REPLACE (total_cards + 1 AS total_cards) FROM src WHERE (month = '2026-03' AND source_city <> 'Chengdu') OR month = '2026-07'"
  const chengdu = await count(`SELECT * FROM read_parquet('${SHIPPED_SPEND}') WHERE month = '2026-03' AND source_city = 'Chengdu'`)
  expect(chengdu).toBeGreaterThan(0)
  const file = await deliver(db, join(ws.incoming, 'spend-corrections.parquet'), SPEND, fix)
  const r = await importDataset(db, ws.dir, file, SPEND)
  expect(r.entry.rows).toBe(91_650 - chengdu)
  expect(r.entry.built_from).toMatchObject({ mode: 'merge', added: [], replaced: ['2026-03', '2026-07'] })
  const merged = current(ws.dir)
  // Every other month is byte-identical; the corrected ones are the delivery's.
  expect(await differing(merged, SHIPPED_SPEND, "month NOT IN ('2026-03', '2026-07')")).toBe(0)
  expect(await differing(merged, file, "month IN ('2026-03', '2026-07')")).toBe(0)
  const cards = async (f: string) =>
    (
      await db.all<{ c: number }>(
        `SELECT sum(total_cards)::INTEGER AS c FROM read_parquet('${f}') WHERE month = '2026-07' AND country = 'Japan'`,
      )
    )[0]!.c
  expect(await cards(merged)).toBe(
    (await cards(SHIPPED_SPEND)) +
      (await count(`SELECT * FROM read_parquet('${SHIPPED_SPEND}') WHERE month = '2026-07' AND country = 'Japan'`)),
  )
})

test('a delivery much smaller than the month it replaces is refused with the counts; --max-drop or --replace accept it', async () => {
  const ws = workspace()
  const before = readManifest(ws.dir)
  // 300 of 2026-10's 975 rows: a truncated export, not a correction.
  const file = await deliver(
    db,
    join(ws.incoming, 'spend-2026-10.parquet'),
    SPEND,
    "SELECT * FROM src WHERE month = '2026-10' ORDER BY country, source_city LIMIT 300",
  )
  const e = await refusal(importDataset(db, ws.dir, file, SPEND))
  expect(e).toBeInstanceOf(RefreshError)
  expect(e.message).toContain('spend-2026-10.parquet would drop more than 20% of the rows of 1 period(s) it replaces; nothing changed')
  expect(e.message).toContain('2026-10: 300 rows would replace 975 (-69.2%)')
  expect(e.message).toContain('--max-drop 70')
  expect(e.message).toContain('--replace')
  expect(readManifest(ws.dir)).toEqual(before)

  // Up to the limit is accepted: 780 of 975 rows is a 20% drop.
  const fifth = await deliver(
    db,
    join(ws.incoming, 'spend-2026-10-fifth.parquet'),
    SPEND,
    "SELECT * FROM src WHERE month = '2026-10' ORDER BY country, source_city LIMIT 780",
  )
  expect((await importDataset(db, ws.dir, fifth, SPEND)).entry.rows).toBe(91_650 - 195)
  await rollbackDataset(ws.dir, SPEND)

  const merged = await importDataset(db, ws.dir, file, SPEND, { maxDropPercent: 70 })
  expect(merged.entry.rows).toBe(91_650 - 675)
  expect(await months(current(ws.dir))).toHaveLength(94)
  await rollbackDataset(ws.dir, SPEND)

  // --replace: the delivery is the whole dataset, and the record says which months went.
  const replaced = await importDataset(db, ws.dir, file, SPEND, { replace: true })
  expect([replaced.entry.rows, replaced.entry.period]).toEqual([300, { from: '2026-10', to: '2026-10' }])
  expect(replaced.entry.built_from).toMatchObject({ mode: 'replace', added: [], replaced: ['2026-10'] })
  expect(replaced.entry.built_from!.removed).toHaveLength(93)
  expect(replaced.entry.built_from!.base).toBeUndefined()
})

test('defects that only the merged result has are refused, saying they come from the merge', async () => {
  const ws = workspace()
  const before = readManifest(ws.dir)
  const later = new Date('2027-03-15T00:00:00Z')
  // 2027-01 alone is a valid delivery, but merged after 2026-10 it leaves 2026-11 and 2026-12 empty.
  const gap = await deliver(
    db,
    join(ws.incoming, 'spend-2027-01.parquet'),
    SPEND,
    "SELECT * REPLACE ('2027-01' AS month) FROM src WHERE month = '2026-10'",
  )
  let e = await refusal(importDataset(db, ws.dir, gap, SPEND, { now: later }))
  expect(e.message).toMatch(
    /^merging spend-2027-01\.parquet onto spend-[0-9a-f]{12} would break the spend contract \(the delivery itself is valid\); nothing changed$/,
  )
  expect(e.report!.file).toBe(`spend-2027-01.parquet merged onto ${before.datasets.spend!.version}`)
  expect(e.report!.violations.map((v) => [v.rule, v.column, v.message])).toEqual([
    ['gap', 'month', 'no rows for 2 month(s) between 2019-01 and 2027-01: 2026-11, 2026-12'],
  ])

  // A month in which Japan is coded JA: consistent alone, but Japan now has two codes across the history.
  const recoded = await deliver(
    db,
    join(ws.incoming, 'spend-2026-11.parquet'),
    SPEND,
    `SELECT * REPLACE ('2026-11' AS month, CASE WHEN country = 'Japan' THEN 'JA' ELSE country_code END AS country_code) FROM src WHERE month = '2026-10'`,
  )
  e = await refusal(importDataset(db, ws.dir, recoded, SPEND))
  const [pairing] = e.report!.violations
  expect([pairing!.rule, pairing!.column, pairing!.rows]).toEqual(['pairing', 'country', undefined])
  expect(pairing!.message).toMatch(/^"Japan" goes with 2 country_code values: JP \(\d+ rows\), JA \(25 rows\); expected one$/)

  // An evidence id delivered again under another month.
  const moved = await deliver(
    db,
    join(ws.incoming, 'evidence-2026-11.parquet'),
    EVIDENCE,
    "SELECT * FROM src WHERE month = '2026-11' UNION ALL (SELECT * REPLACE ('2026-11' AS month, '2026-11-02T10:00:00Z' AS published_at) FROM src WHERE month = '2026-10' ORDER BY id LIMIT 1)",
  )
  e = await refusal(importDataset(db, ws.dir, moved, EVIDENCE))
  expect(e.report!.violations.map((v) => [v.rule, v.count])).toEqual([['duplicate_key', 2]])
  expect(readManifest(ws.dir)).toEqual(before)
}, 30_000)

test("a defect of the delivery itself is reported with the delivery's row numbers", async () => {
  const ws = workspace()
  const file = await deliver(
    db,
    join(ws.incoming, 'spend-2026-11.parquet'),
    SPEND,
    `SELECT * REPLACE (CASE WHEN country = 'Japan' AND source_city = 'Beijing' THEN -1 ELSE total_cards END AS total_cards) FROM (${NEXT_MONTH}) ORDER BY country, source_city`,
  )
  const row = (
    await db.all<{ r: number }>(
      `SELECT (file_row_number + 1)::INTEGER AS r FROM read_parquet('${file}', file_row_number = true) WHERE total_cards < 0`,
    )
  )[0]!.r
  const e = await refusal(importDataset(db, ws.dir, file, SPEND))
  expect(e.message).toBe(`${file} does not meet the spend contract`)
  expect(e.report!.violations.map((v) => [v.rule, v.column, v.rows])).toEqual([['negative', 'total_cards', [row]]])
})

test("rollback walks back across merges, and pruning keeps every listed version's file", async () => {
  const ws = workspace()
  const original = readManifest(ws.dir).datasets.spend!
  /** `select` delivered as `name` and merged into the workspace. */
  const merge = async (name: string, select: string) =>
    importDataset(db, ws.dir, await deliver(db, join(ws.incoming, name), SPEND, select), SPEND)
  const a = await merge('spend-2026-11.parquet', NEXT_MONTH)
  const b = await merge('spend-2026-03.parquet', "SELECT * REPLACE (total_cards + 1 AS total_cards) FROM src WHERE month = '2026-03'")
  expect(b.entry.built_from).toMatchObject({ base: a.entry.version, added: [], replaced: ['2026-03'] })

  expect((await rollbackDataset(ws.dir, SPEND)).to.version).toBe(a.entry.version)
  expect(await months(current(ws.dir))).toContain('2026-11')
  expect(await differing(current(ws.dir), SHIPPED_SPEND, "month <> '2026-11'")).toBe(0) // 2026-03 as it was
  expect((await rollbackDataset(ws.dir, SPEND)).to.version).toBe(original.version)
  expect(readManifest(ws.dir).datasets.spend).toEqual(original)

  // More merges than HISTORY_KEEP: every listed version's file is on disk and intact; unlisted ones are gone.
  for (const month of ['2026-01', '2026-02', '2026-04', '2026-05', '2026-06'])
    await merge(`spend-${month}.parquet`, `SELECT * REPLACE (total_cards + 2 AS total_cards) FROM src WHERE month = '${month}'`)
  const manifest = readManifest(ws.dir)
  const listed = [manifest.datasets.spend!, ...manifest.history!.spend!]
  expect(listed).toHaveLength(HISTORY_KEEP + 1)
  for (const e of listed) expect(sha256(join(ws.dir, e.file))).toBe(e.sha256)
  expect(
    readdirSync(ws.dir)
      .filter((f) => /^spend-[0-9a-f]{12}\.parquet$/.test(f))
      .sort(),
  ).toEqual(listed.map((e) => e.file).sort())
  expect(existsSync(join(ws.dir, 'spend.parquet'))).toBe(true) // the shipped file is never pruned
  for (let i = 0; i < HISTORY_KEEP; i++) await rollbackDataset(ws.dir, SPEND)
  expect(readManifest(ws.dir).datasets.spend!.built_from).toMatchObject({ replaced: ['2026-02'] })
}, 60_000)

test('the same rows give the same version: a month identical to the current one changes nothing', async () => {
  const ws = workspace()
  const file = await deliver(
    db,
    join(ws.incoming, 'spend-2026-10.parquet'),
    SPEND,
    "SELECT * FROM src WHERE month = '2026-10' ORDER BY random()",
  )
  const r = await importDataset(db, ws.dir, file, SPEND)
  expect(r.unchanged).toBe(true)
  expect(r.entry.version).toBe(readManifest(SHIPPED).datasets.spend!.version)
  // And a whole shipped file imported with --replace is the shipped version: versions are written as the generator writes them.
  expect((await importDataset(db, ws.dir, SHIPPED_SPEND, SPEND, { replace: true })).unchanged).toBe(true)
})
