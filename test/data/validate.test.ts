/**
 * The data team's `data validate`: a corpus of broken files, one defect each, cut from the shipped
 * sample with DuckDB. Every file must be refused for exactly its defect, naming column and rows.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { SIGNAL_BRANDS, SPEND, type DatasetContract } from '../../src/data/contracts'
import { DuckDb } from '../../src/data/duckdb'
import { contractForFile, formatReport, validateFile } from '../../src/data/validate'

const DATASETS = resolve(import.meta.dir, '../../datasets')
const TODAY = new Date('2026-11-22T12:00:00Z')
const dir = mkdtempSync(join(tmpdir(), 'validate-'))
let db: DuckDb

beforeAll(async () => {
  db = await DuckDb.open(1)
})
afterAll(() => db.close())

/**
 * Writes a candidate file: `select` reads `src` (the shipped file restricted to a few countries or
 * categories, numbered by `rn` in file order); the output keeps that order.
 */
async function candidate(name: string, contract: DatasetContract, select: string): Promise<string> {
  const where = contract === SPEND ? "country IN ('Japan', 'Thailand')" : "category = 'beauty'"
  const file = join(dir, name)
  await db.exec(`COPY (
      WITH src AS (SELECT * EXCLUDE (file_row_number), row_number() OVER (ORDER BY file_row_number)::INTEGER AS rn
                     FROM read_parquet('${join(DATASETS, contract.file)}', file_row_number = true) WHERE ${where})
      ${select}
    ) TO '${file}' (FORMAT parquet)`)
  return file
}

const ALL = 'SELECT * EXCLUDE (rn) FROM src ORDER BY rn'

test('a clean cut of the sample is valid', async () => {
  const report = await validateFile(db, await candidate('spend-ok.parquet', SPEND, ALL), SPEND, TODAY)
  expect(report.violations).toEqual([])
  expect(report.period).toEqual({ from: '2019-01', to: '2026-10' })
  expect(formatReport(report)[0]).toMatch(/^OK\s+spend-ok\.parquet: valid spend file, \d+ rows, 2019-01 to 2026-10$/)
})

describe('spend: one defect per file, each refused for that defect', () => {
  const cases: [string, string, { rule: string; column?: string; rows?: number[]; message?: RegExp }][] = [
    ['missing column', 'SELECT * EXCLUDE (rn, dining_spend_cny) FROM src ORDER BY rn', { rule: 'missing_column', column: 'dining_spend_cny' }],
    ['wrong type', 'SELECT * EXCLUDE (rn) REPLACE (total_cards::VARCHAR AS total_cards) FROM src ORDER BY rn', { rule: 'type', column: 'total_cards', message: /VARCHAR, expected INTEGER/ }],
    ['duplicate key', 'SELECT * EXCLUDE (rn) FROM (SELECT * FROM src UNION ALL SELECT * FROM src WHERE rn = 5) ORDER BY rn', { rule: 'duplicate_key', rows: [5, 6] }],
    ['negative count', 'SELECT * EXCLUDE (rn) REPLACE (CASE WHEN rn = 10 THEN -3 ELSE total_cards END AS total_cards) FROM src ORDER BY rn', { rule: 'negative', column: 'total_cards', rows: [10] }],
    ['negative amount', 'SELECT * EXCLUDE (rn) REPLACE (CASE WHEN rn IN (4, 9) THEN -1.5 ELSE luxury_spend_cny END AS luxury_spend_cny) FROM src ORDER BY rn', { rule: 'negative', column: 'luxury_spend_cny', rows: [4, 9] }],
    ['malformed month', "SELECT * EXCLUDE (rn) REPLACE (CASE WHEN rn = 7 THEN '2026-13' ELSE month END AS month) FROM src ORDER BY rn", { rule: 'format', column: 'month', rows: [7] }],
    ['month in the future', "SELECT * EXCLUDE (rn) FROM src UNION ALL (SELECT * EXCLUDE (rn) REPLACE ('2027-01' AS month) FROM src WHERE rn = 1)", { rule: 'future_period', column: 'month', message: /future/ }],
    ['a month missing in the middle', "SELECT * EXCLUDE (rn) FROM src WHERE month <> '2024-05' ORDER BY rn", { rule: 'gap', column: 'month', message: /2024-05/ }],
    ['a null value', 'SELECT * EXCLUDE (rn) REPLACE (CASE WHEN rn = 3 THEN NULL ELSE country END AS country) FROM src ORDER BY rn', { rule: 'null', column: 'country', rows: [3] }],
    ['a malformed country code', "SELECT * EXCLUDE (rn) REPLACE (CASE WHEN rn = 12 THEN 'japan' ELSE country_code END AS country_code) FROM src ORDER BY rn", { rule: 'format', column: 'country_code', rows: [12] }],
    ['NaN amount', "SELECT * EXCLUDE (rn) REPLACE (CASE WHEN rn = 2 THEN 'NaN'::DOUBLE ELSE dining_spend_cny END AS dining_spend_cny) FROM src ORDER BY rn", { rule: 'not_finite', column: 'dining_spend_cny', rows: [2] }],
    ['no rows', 'SELECT * EXCLUDE (rn) FROM src WHERE false', { rule: 'empty' }],
  ]
  test.each(cases)('%s', async (label, select, expected) => {
    const file = await candidate(`spend-${label.replaceAll(' ', '-')}.parquet`, SPEND, select)
    const report = await validateFile(db, file, SPEND, TODAY)
    expect(report.violations).toHaveLength(1)
    const v = report.violations[0]!
    expect(v.rule).toBe(expected.rule)
    if (expected.column) expect(v.column).toBe(expected.column)
    if (expected.rows) expect(v.rows).toEqual(expected.rows)
    if (expected.message) expect(v.message).toMatch(expected.message)
    // The printed report names the file, the column and the rows.
    const printed = formatReport(report).join('\n')
    expect(printed).toContain(`FAIL  spend-${label.replaceAll(' ', '-')}.parquet`)
    if (expected.column) expect(printed).toContain(`: ${expected.column}: `)
    if (expected.rows) expect(printed).toContain(`${expected.rows.length > 1 ? 'rows' : 'row'} ${expected.rows.join(', ')}`)
  })
})

describe('weekly signals: week rules', () => {
  const cases: [string, string, { rule: string; column: string; rows?: number[] }][] = [
    ['week_start not a Monday', "SELECT * EXCLUDE (rn) REPLACE (CASE WHEN rn = 8 THEN strftime(week_start::DATE + 1, '%Y-%m-%d') ELSE week_start END AS week_start, CASE WHEN rn = 8 THEN strftime(week_end::DATE + 1, '%Y-%m-%d') ELSE week_end END AS week_end) FROM src ORDER BY rn", { rule: 'week_start', column: 'week_start', rows: [8] }],
    ['week_end not six days later', "SELECT * EXCLUDE (rn) REPLACE (CASE WHEN rn = 4 THEN strftime(week_end::DATE - 1, '%Y-%m-%d') ELSE week_end END AS week_end) FROM src ORDER BY rn", { rule: 'week_end', column: 'week_end', rows: [4] }],
    ['a week that has not ended', "SELECT * EXCLUDE (rn) FROM src UNION ALL (SELECT * EXCLUDE (rn) REPLACE ('2026-11-16' AS week_start, '2026-11-22' AS week_end) FROM src WHERE rn = 1) UNION ALL (SELECT * EXCLUDE (rn) REPLACE ('2026-11-23' AS week_start, '2026-11-29' AS week_end) FROM src WHERE rn = 1)", { rule: 'future_period', column: 'week_end' }],
    ['an undocumented category', "SELECT * EXCLUDE (rn) REPLACE (CASE WHEN rn = 6 THEN 'cosmetics' ELSE category END AS category) FROM src ORDER BY rn", { rule: 'value', column: 'category', rows: [6] }],
    ['a week missing', "SELECT * EXCLUDE (rn) FROM src WHERE week_start <> '2026-03-02' ORDER BY rn", { rule: 'gap', column: 'week_start' }],
  ]
  test.each(cases)('%s', async (label, select, expected) => {
    const file = await candidate(`signal_brands-${label.replaceAll(' ', '-')}.parquet`, SIGNAL_BRANDS, select)
    const report = await validateFile(db, file, SIGNAL_BRANDS, TODAY)
    expect(report.violations.map((v) => [v.rule, v.column])).toEqual([[expected.rule, expected.column]])
    if (expected.rows) expect(report.violations[0]!.rows).toEqual(expected.rows)
  })
})

test('a week ending today is published; one ending tomorrow is not', async () => {
  const sunday = await candidate('signal_brands-sunday.parquet', SIGNAL_BRANDS, ALL)
  expect((await validateFile(db, sunday, SIGNAL_BRANDS, new Date('2026-11-15T08:00:00Z'))).violations).toEqual([])
  const report = await validateFile(db, sunday, SIGNAL_BRANDS, new Date('2026-11-14T23:00:00Z'))
  expect(report.violations.map((v) => v.rule)).toEqual(['future_period'])
})

test('a file that is not Parquet is refused, not a crash', async () => {
  const file = join(dir, 'spend-text.parquet')
  writeFileSync(file, 'month,country\n2026-10,Japan\n')
  const report = await validateFile(db, file, SPEND, TODAY)
  expect(report.violations.map((v) => v.rule)).toEqual(['format'])
  expect(report.violations[0]!.message).toMatch(/not a readable Parquet file/)
})

test('wider integer types and an extra column are accepted, the extra column with a warning', async () => {
  const file = await candidate('spend-wide.parquet', SPEND, "SELECT * EXCLUDE (rn) REPLACE (total_cards::BIGINT AS total_cards), 'x' AS comment FROM src ORDER BY rn")
  const report = await validateFile(db, file, SPEND, TODAY)
  expect(report.violations).toEqual([])
  expect(report.warnings.map((w) => [w.rule, w.column])).toEqual([['extra_column', 'comment']])
})

test('the dataset of a file is told by its name', () => {
  expect(contractForFile('/x/spend.parquet')?.name).toBe('spend')
  expect(contractForFile('spend-2026-11.parquet')?.name).toBe('spend')
  expect(contractForFile('signal_brands_v2.parquet')?.name).toBe('signal_brands')
  expect(contractForFile('signal_creators-8f2a.parquet')?.name).toBe('signal_creators')
  expect(contractForFile('brands.parquet')).toBeUndefined()
})
