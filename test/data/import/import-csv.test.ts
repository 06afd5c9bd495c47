/**
 * CSV deliveries (`.csv`, `.csv.gz`): read by DuckDB with the contract's types, every cell defect
 * reported by data row and column, stored as the same Parquet version the equivalent Parquet delivery
 * gives.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { EVIDENCE, SPEND } from '../../../src/data/contracts'
import { readManifest } from '../../../src/data/import/datasets'
import { validateDelivery } from '../../../src/data/import/delivery'
import { DuckDb } from '../../../src/data/duckdb'
import { importDataset } from '../../../src/data/import/refresh'
import { formatReport } from '../../../src/data/import/validate'
import { cli, deliver, workspace } from './deliveries'

let db: DuckDb
beforeAll(async () => {
  db = await DuckDb.open(1)
})
afterAll(() => db.close())

/** 2026-10 as 2026-11, numbered in file order by `rn` (1 = the first row after the header). */
const month = (replace = '') =>
  `SELECT * EXCLUDE (rn) ${replace} FROM (SELECT * REPLACE ('2026-11' AS month), row_number() OVER (ORDER BY country, source_city) AS rn FROM src WHERE month = '2026-10') ORDER BY rn`

test('a bad cell is refused naming its data row and column; nothing changes', async () => {
  const ws = workspace()
  const file = await deliver(
    db,
    join(ws.incoming, 'spend-2026-11.csv'),
    SPEND,
    month("REPLACE (CASE WHEN rn = 7 THEN '12x' ELSE total_cards::VARCHAR END AS total_cards)"),
  )
  expect(readFileSync(file, 'utf8').split('\n')[7]).toContain(',12x,') // line 8: the header, then row 7
  const before = readFileSync(join(ws.dir, 'manifest.json'), 'utf8')
  const r = cli(ws.dir, 'import', file)
  expect(r.code).toBe(1)
  expect(r.err).toContain(`${file} does not meet the spend contract`)
  expect(r.err).toContain('error spend-2026-11.csv: total_cards: row 7: cannot be read as INTEGER (first: "12x") [type]')
  expect(readFileSync(join(ws.dir, 'manifest.json'), 'utf8')).toBe(before)
})

test('every cell defect of a CSV is reported at once, by data row', async () => {
  const ws = workspace()
  const cells = `REPLACE (CASE rn WHEN 3 THEN '' WHEN 4 THEN '12.5' WHEN 5 THEN '3000000000' WHEN 9 THEN '1,000' WHEN 12 THEN 'many' ELSE total_cards::VARCHAR END AS total_cards,
                          CASE WHEN rn = 6 THEN '' ELSE dining_spend_cny::VARCHAR END AS dining_spend_cny)`
  const file = await deliver(db, join(ws.incoming, 'spend-2026-11.csv'), SPEND, month(cells))
  // Row 10 loses its last cell, row 11 gets one too many.
  const lines = readFileSync(file, 'utf8').split('\n')
  lines[10] = lines[10]!.replace(/,[^,]*$/, '')
  lines[11] = `${lines[11]},extra`
  writeFileSync(file, lines.join('\n'))
  const { report } = await validateDelivery(db, file, SPEND, { format: 'csv', staging: join(ws.incoming, 'staging.parquet') })
  expect(report.violations.map((v) => [v.rule, v.column, v.rows])).toEqual([
    ['type', 'total_cards', [9, 12]],
    ['csv_row', undefined, [10]],
    ['csv_row', undefined, [11]],
    ['empty_cell', 'total_cards', [3]],
    ['type', 'total_cards', [4]],
    ['range', 'total_cards', [5]],
    ['empty_cell', 'dining_spend_cny', [6]],
  ])
  expect(formatReport(report)).toContain(
    '  error spend-2026-11.csv: total_cards: rows 9, 12: cannot be read as INTEGER (first: "1,000") [type]',
  )
  expect(formatReport(report)).toContain('  error spend-2026-11.csv: total_cards: row 4: not a whole number (INTEGER) [type]')
})

test('a good CSV and .csv.gz give the very version the equivalent Parquet delivery gives, stored as Parquet', async () => {
  const versions: string[] = []
  // DuckDB with 1 and 4 threads: the written bytes must not depend on it.
  const four = await DuckDb.open(4)
  try {
    for (const [name, engine] of [
      ['spend-2026-11.parquet', db],
      ['spend-2026-11.csv', four],
      ['spend-2026-11.csv.gz', db],
    ] as const) {
      const ws = workspace()
      const r = await importDataset(engine, ws.dir, await deliver(db, join(ws.incoming, name), SPEND, month()), SPEND)
      expect(r.entry.built_from).toMatchObject({ file: name, format: name.replace(/^spend-2026-11\./, ''), rows: 975, added: ['2026-11'] })
      expect(readFileSync(join(ws.dir, r.entry.file)).subarray(0, 4).toString()).toBe('PAR1')
      versions.push(r.entry.version)
    }
  } finally {
    four.close()
  }
  expect(new Set(versions).size).toBe(1)
})

test('columns map by name in any order; an extra column is a warning, a missing one a defect', async () => {
  const ws = workspace()
  const parquet = await importDataset(db, ws.dir, await deliver(db, join(ws.incoming, 'spend-2026-11.parquet'), SPEND, month()), SPEND)
  const reordered = await deliver(
    db,
    join(ws.incoming, 'spend-2026-11-reordered.csv'),
    SPEND,
    `SELECT retail_spend_cny, 'checked' AS reviewer, * EXCLUDE (retail_spend_cny) FROM (${month()})`,
  )
  const r = await importDataset(db, ws.dir, reordered, SPEND)
  expect([r.unchanged, r.entry.version]).toEqual([true, parquet.entry.version])
  expect(r.report.warnings.map((w) => [w.rule, w.column])).toEqual([['extra_column', 'reviewer']])

  const missing = await deliver(
    db,
    join(ws.incoming, 'spend-2026-11-missing.csv'),
    SPEND,
    `SELECT * EXCLUDE (dining_spend_cny) FROM (${month()})`,
  )
  const { report } = await validateDelivery(db, missing, SPEND, { format: 'csv', staging: join(ws.incoming, 'staging.parquet') })
  expect(report.violations.map((v) => [v.rule, v.column])).toEqual([['missing_column', 'dining_spend_cny']])
})

test('empty text cells read as empty strings; quoted commas and quotes survive; same version as Parquet', async () => {
  // Evidence has empty author_city, title and about_platform; some titles get quotes, texts have commas.
  const select = `SELECT * REPLACE (likes + 1 AS likes, CASE WHEN id LIKE '%1' THEN title || ' "quoted", with a comma' ELSE title END AS title) FROM src WHERE month = '2026-11' ORDER BY published_at, id`
  const results = []
  for (const name of ['evidence-2026-11.parquet', 'evidence-2026-11.csv']) {
    const ws = workspace()
    const file = await deliver(db, join(ws.incoming, name), EVIDENCE, select)
    results.push({ r: await importDataset(db, ws.dir, file, EVIDENCE), file })
  }
  const [parquet, csv] = results
  expect(readFileSync(csv!.file, 'utf8')).toContain('""quoted"", with a comma"')
  expect(csv!.r.report.violations).toEqual([])
  expect(csv!.r.entry.built_from).toMatchObject({ mode: 'merge', replaced: ['2026-11'], added: [] })
  expect(csv!.r.entry.version).toBe(parquet!.r.entry.version)
  const empties = await db.all<{ n: number }>(
    `SELECT count(*)::INTEGER AS n FROM read_csv('${csv!.file}', header = true, all_varchar = true) WHERE author_city IS NULL`,
  )
  expect(empties[0]!.n).toBeGreaterThan(1000) // read naively, these cells would be NULL
}, 30_000)

test("row numbers stay the file's deep into a large CSV, with parallel DuckDB", async () => {
  const ws = workspace()
  const four = await DuckDb.open(4)
  try {
    const file = await deliver(
      db,
      join(ws.incoming, 'spend-all.csv.gz'),
      SPEND,
      `SELECT * EXCLUDE (rn) REPLACE (CASE WHEN rn IN (80000, 91650) THEN -5 ELSE total_cards END AS total_cards) FROM (SELECT *, row_number() OVER (ORDER BY month, country, source_city) AS rn FROM src) ORDER BY rn`,
    )
    const { report } = await validateDelivery(four, file, SPEND, { format: 'csv.gz', staging: join(ws.incoming, 'staging.parquet') })
    expect(report.rows).toBe(91_650)
    expect(report.violations.map((v) => [v.rule, v.column, v.rows])).toEqual([['negative', 'total_cards', [80_000, 91_650]]])
  } finally {
    four.close()
  }
}, 30_000)

test('data validate takes CSV files and folders of them; import tells the dataset from a CSV name', async () => {
  const ws = workspace()
  const folder = join(ws.incoming, 'monthly')
  mkdirSync(folder)
  await deliver(db, join(folder, 'SPEND-2026-11.CSV'), SPEND, month())
  await deliver(
    db,
    join(folder, 'spend-2026-11b.csv.gz'),
    SPEND,
    month('REPLACE (CASE WHEN rn = 2 THEN -1 ELSE total_cards END AS total_cards)'),
  )
  writeFileSync(join(folder, 'notes.txt'), 'not a delivery')
  const r = cli(ws.dir, 'validate', folder)
  expect([r.code, r.err]).toEqual([1, ''])
  expect(r.out.split('\n').filter((l) => l !== '')).toEqual([
    'OK    SPEND-2026-11.CSV: valid spend file, 975 rows, 2026-11 to 2026-11',
    'FAIL  spend-2026-11b.csv.gz: 1 defect(s) against the spend contract',
    '  error spend-2026-11b.csv.gz: total_cards: row 2: negative value; counts and amounts cannot be negative [negative]',
  ])
  const imported = cli(ws.dir, 'import', join(folder, 'SPEND-2026-11.CSV'))
  expect([imported.code, imported.err]).toEqual([0, ''])
  expect(readManifest(ws.dir).datasets.spend!.period.to).toBe('2026-11')
})
