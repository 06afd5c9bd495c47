/**
 * The data team's `data validate` against the broken-file corpus (test/data/import/broken-files.ts): every
 * file must be refused for exactly its defect, naming column and rows; the shipped datasets must pass.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { DATASETS, FLIGHTS, SIGNAL_BRANDS, SIGNAL_CREATORS, SPEND } from '../../../src/data/contracts'
import type { Manifest } from '../../../src/data/import/datasets'
import { DuckDb } from '../../../src/data/duckdb'
import { contractForFile, formatReport, validateFile } from '../../../src/data/import/validate'
import type { ValidationReport } from '../../../src/data/import/violations'
import { ALL, CORPUS, DAMAGE, SHIPPED, columnChunks, cut, type Broken } from './broken-files'

const ROOT = resolve(import.meta.dir, '../../..')
const TODAY = new Date('2026-11-22T12:00:00Z')
const dir = mkdtempSync(join(tmpdir(), 'validate-'))
let db: DuckDb

beforeAll(async () => {
  db = await DuckDb.open(1)
})
afterAll(() => db.close())

const cli = (...args: string[]) => {
  const p = Bun.spawnSync([process.execPath, join(ROOT, 'src/index.ts'), 'data', ...args], { stdout: 'pipe', stderr: 'pipe' })
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() }
}

/** The report on a corpus file (by validateFile, or by `data validate <folder>` for folder cases), once per file. */
const outcomes = new Map<string, Promise<{ report: ValidationReport; exitCode?: number }>>()
function outcome(b: Broken) {
  if (!outcomes.has(b.label)) {
    outcomes.set(
      b.label,
      (async () => {
        const file = await b.make(db, dir)
        if (!b.inFolder) return { report: await validateFile(db, file, b.contract, TODAY) }
        const r = cli('validate', dirname(file), '--json')
        return { report: (JSON.parse(r.out) as ValidationReport[]).find((x) => basename(x.file) === basename(file))!, exitCode: r.code }
      })(),
    )
  }
  return outcomes.get(b.label)!
}

test.each(CORPUS.map((b) => [b.label, b] as const))('refused: %s', async (_, b) => {
  const { report, exitCode } = await outcome(b)
  if (b.inFolder) expect(exitCode).toBe(1)
  expect(report.violations.map((v) => [v.rule, v.column])).toEqual([[b.expected.rule, b.expected.column]])
  const v = report.violations[0]!
  if (b.expected.rows) expect(v.rows).toEqual(b.expected.rows)
  if (b.expected.message) expect(v.message).toMatch(b.expected.message)
  // The printed report names the file, the column and the rows.
  const printed = formatReport(report).join('\n')
  expect(printed).toContain(`FAIL  ${basename(report.file)}: 1 defect(s)`)
  if (b.expected.column) expect(printed).toContain(`: ${b.expected.column}: `)
  if (b.expected.rows) expect(printed).toContain(`${b.expected.rows.length > 1 ? 'rows' : 'row'} ${b.expected.rows.join(', ')}`)
})

test('damaged copies keep the footer, whose statistics vouch for every value; the damage lies in the named pages', async () => {
  for (const b of CORPUS.filter((x) => x.damage)) {
    const file = (await outcome(b)).report.file
    const original = join(SHIPPED, b.contract.file)
    const footer = (f: string) => db.all(`SELECT * EXCLUDE (file_name) FROM parquet_metadata('${f}') ORDER BY row_group_id, column_id`)
    expect(await footer(file)).toEqual(await footer(original))
    // No NULL and no negative minimum by the statistics: a check answered from them passes the file.
    const counts = b.contract.columns
      .filter((c) => c.nonNegative)
      .map((c) => `'${c.name}'`)
      .join(', ')
    const flagged = await db.all(
      `SELECT path_in_schema FROM parquet_metadata('${file}') WHERE stats_null_count > 0 OR (path_in_schema IN (${counts}) AND stats_min_value LIKE '-%')`,
    )
    expect(flagged).toEqual([])
    const at = await b.damage!.at(db)
    const chunk = (await columnChunks(db, original)).find((c) => c.start <= at && at + DAMAGE <= c.end)!
    expect(chunk.column).toBe(b.expected.column!)
    if (b.damage!.pages === 'data') expect(at).toBeGreaterThanOrEqual(chunk.data)
    else expect(at + DAMAGE).toBeLessThanOrEqual(chunk.data)
  }
})

test('the whole corpus is refused, and the shipped datasets pass', async () => {
  const refused: string[] = []
  for (const b of CORPUS) if ((await outcome(b)).report.violations.length > 0) refused.push(b.label)
  console.log(`broken files refused: ${refused.length} of ${CORPUS.length}`)
  expect(refused).toEqual(CORPUS.map((b) => b.label))

  const manifest = JSON.parse(readFileSync(join(SHIPPED, 'manifest.json'), 'utf8')) as Manifest
  for (const c of DATASETS) {
    const report = await validateFile(db, join(SHIPPED, c.file), c, TODAY)
    expect([c.name, report.violations, report.warnings]).toEqual([c.name, [], []])
    expect([report.rows, report.period]).toEqual([manifest.datasets[c.name]!.rows, manifest.datasets[c.name]!.period])
  }
}, 30_000)

test('data validate <folder> reports every file, in any case, even one whose dataset cannot be told', async () => {
  const folder = join(dir, 'incoming')
  mkdirSync(folder)
  await cut(db, join(folder, 'spend-2026-11.parquet'), SPEND, ALL)
  await cut(db, join(folder, 'SIGNAL_BRANDS-2026-W46.PARQUET'), SIGNAL_BRANDS, ALL)
  await cut(db, join(folder, 'sales.parquet'), SPEND, ALL)
  const r = cli('validate', folder)
  expect([r.code, r.err]).toEqual([1, ''])
  expect(r.out.split('\n').filter((l) => !l.startsWith(' '))).toEqual([
    expect.stringMatching(/^OK {4}SIGNAL_BRANDS-2026-W46\.PARQUET: valid signal_brands file/),
    'FAIL  sales.parquet: 1 defect(s)',
    expect.stringMatching(/^OK {4}spend-2026-11\.parquet: valid spend file/),
    '',
  ])
  expect(r.out).toContain('  error sales.parquet: cannot tell which dataset this file is for (flights, spend, ')
})

test('each dataset cut used by the corpus is valid as it is', async () => {
  for (const c of [SPEND, FLIGHTS, SIGNAL_BRANDS, SIGNAL_CREATORS]) {
    const report = await validateFile(db, await cut(db, join(dir, `${c.name}-ok.parquet`), c, ALL), c, TODAY)
    expect([c.name, report.violations]).toEqual([c.name, []])
  }
  const spend = await validateFile(db, join(dir, 'spend-ok.parquet'), SPEND, TODAY)
  expect(spend.period).toEqual({ from: '2019-01', to: '2026-10' })
  expect(formatReport(spend)[0]).toMatch(/^OK\s+spend-ok\.parquet: valid spend file, \d+ rows, 2019-01 to 2026-10$/)
})

test('a week ending today is published; one ending tomorrow is not', async () => {
  const sunday = await cut(db, join(dir, 'signal_brands-sunday.parquet'), SIGNAL_BRANDS, ALL)
  expect((await validateFile(db, sunday, SIGNAL_BRANDS, new Date('2026-11-15T08:00:00Z'))).violations).toEqual([])
  const report = await validateFile(db, sunday, SIGNAL_BRANDS, new Date('2026-11-14T23:00:00Z'))
  expect(report.violations.map((v) => v.rule)).toEqual(['future_period'])
})

test('wider integer types and an extra column are accepted, the extra column with a warning', async () => {
  const file = await cut(
    db,
    join(dir, 'spend-wide.parquet'),
    SPEND,
    "SELECT * EXCLUDE (rn) REPLACE (total_cards::BIGINT AS total_cards), 'x' AS comment FROM src ORDER BY rn",
  )
  const report = await validateFile(db, file, SPEND, TODAY)
  expect(report.violations).toEqual([])
  expect(report.warnings.map((w) => [w.rule, w.column])).toEqual([['extra_column', 'comment']])
})

test('the dataset of a file is told by its name, in any case', () => {
  expect(contractForFile('/x/spend.parquet')?.name).toBe('spend')
  expect(contractForFile('spend-2026-11.parquet')?.name).toBe('spend')
  expect(contractForFile('SPEND-2026-11.PARQUET')?.name).toBe('spend')
  expect(contractForFile('signal_brands_v2.parquet')?.name).toBe('signal_brands')
  expect(contractForFile('signal_creators-8f2a.parquet')?.name).toBe('signal_creators')
  expect(contractForFile('brands.parquet')).toBeUndefined()
})
