import { existsSync, statSync } from 'node:fs'
import { basename } from 'node:path'
import { DATASETS, type ColumnContract, type DatasetContract } from './contracts'
import { sqlString } from './datasets'
import type { DuckDb } from './duckdb'

/** One defect of a candidate file. `rows` are 1-based data rows (the first row of the file is row 1). */
export interface Violation {
  rule: string
  column?: string
  message: string
  rows?: number[]
  /** How many rows have the defect (rows lists the first few). */
  count?: number
}

export interface ValidationReport {
  file: string
  dataset: string
  rows: number
  period?: { from: string; to: string }
  violations: Violation[]
  warnings: Violation[]
}

/** Rows listed per defect; the count says how many more there are. */
const SHOWN_ROWS = 5

/** Which integer and floating-point Parquet types can be read as the contract's type without loss. */
const COMPATIBLE: Record<ColumnContract['type'], readonly string[]> = {
  VARCHAR: ['VARCHAR'],
  INTEGER: ['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'UTINYINT', 'USMALLINT', 'UINTEGER', 'UBIGINT', 'HUGEINT'],
  DOUBLE: ['DOUBLE', 'FLOAT', 'DECIMAL', 'TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT'],
}

/** The dataset a file is for, from its name: `spend.parquet`, `spend-2026-11.parquet`, `signal_brands_v2.parquet`. */
export function contractForFile(file: string): DatasetContract | undefined {
  const name = basename(file).toLowerCase()
  return [...DATASETS].sort((a, b) => b.name.length - a.name.length).find((d) => name === d.file || name.startsWith(`${d.name}-`) || name.startsWith(`${d.name}_`) || name.startsWith(`${d.name}.`))
}

/**
 * Checks a candidate Parquet file against its dataset's contract: columns and types, no nulls,
 * non-negative counts, value patterns and allowed values, unique keys, well-formed periods that are
 * not in the future, and no missing period between the first and the last. Every defect names the
 * column and the rows.
 */
export async function validateFile(db: DuckDb, file: string, contract: DatasetContract, today = new Date()): Promise<ValidationReport> {
  const report: ValidationReport = { file, dataset: contract.name, rows: 0, violations: [], warnings: [] }
  const fail = (v: Violation) => report.violations.push(v)
  if (!existsSync(file) || !statSync(file).isFile()) {
    fail({ rule: 'file', message: 'file not found' })
    return report
  }
  const src = `read_parquet(${sqlString(file)}, file_row_number = true)`

  let schema: { column_name: string; column_type: string }[]
  try {
    schema = await db.all(`DESCRIBE SELECT * FROM read_parquet(${sqlString(file)})`)
  } catch (e) {
    fail({ rule: 'format', message: `not a readable Parquet file: ${(e as Error).message.split('\n')[0]}` })
    return report
  }
  const actual = new Map(schema.map((c) => [c.column_name, c.column_type.replace(/\(.*\)$/, '')]))
  for (const column of contract.columns) {
    const type = actual.get(column.name)
    if (type === undefined) fail({ rule: 'missing_column', column: column.name, message: `missing column (${column.type}: ${column.description})` })
    else if (!COMPATIBLE[column.type].includes(type)) fail({ rule: 'type', column: column.name, message: `type ${type}, expected ${column.type}` })
  }
  for (const name of actual.keys()) {
    if (!contract.columns.some((c) => c.name === name)) report.warnings.push({ rule: 'extra_column', column: name, message: 'not in the contract; ignored by the service' })
  }
  if (report.violations.length > 0) return report // the checks below read these columns

  report.rows = Number((await db.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${src}`))[0]!.n)
  if (report.rows === 0) {
    fail({ rule: 'empty', message: 'the file has no rows' })
    return report
  }

  const rowsWhere = (rule: string, column: string, where: string, message: string) => defectRows(db, src, report, rule, column, where, message)

  for (const c of contract.columns) {
    await rowsWhere('null', c.name, `${c.name} IS NULL`, 'missing value (NULL)')
    if (c.nonNegative) await rowsWhere('negative', c.name, `${c.name} < 0`, 'negative value; counts and amounts cannot be negative')
    if (c.type === 'DOUBLE') await rowsWhere('not_finite', c.name, `NOT isfinite(${c.name}::DOUBLE)`, 'NaN or infinite value')
    if (c.pattern) await rowsWhere('format', c.name, `NOT regexp_full_match(${c.name}, ${sqlString(c.pattern)})`, `value does not match ${c.pattern}`)
    if (c.values) await rowsWhere('value', c.name, `${c.name} NOT IN (${c.values.map(sqlString).join(', ')})`, `value not allowed; allowed: ${c.values.join(', ')}`)
    if (c.type === 'INTEGER') await rowsWhere('range', c.name, `${c.name} > 2147483647 OR ${c.name} < -2147483648`, 'does not fit a 32-bit integer')
  }

  const key = contract.key.join(', ')
  const dupes = await db.all<{ k: string; rows: number[]; n: number }>(
    `SELECT concat_ws(' | ', ${contract.key.map((k) => `${k}::VARCHAR`).join(', ')}) AS k, list((file_row_number + 1)::INTEGER ORDER BY file_row_number) AS rows, count(*) OVER ()::INTEGER AS n
       FROM ${src} GROUP BY ${key} HAVING count(*) > 1 ORDER BY min(file_row_number) LIMIT ${SHOWN_ROWS}`,
  )
  for (const d of dupes) fail({ rule: 'duplicate_key', column: key, message: `key (${d.k}) appears ${d.rows.length} times`, rows: d.rows.slice(0, SHOWN_ROWS), count: d.rows.length })

  await checkPeriods(db, src, contract, today, report)
  return report
}

/** Runs a WHERE clause over the file; every matching row is one defect, reported with its row numbers. */
async function defectRows(db: DuckDb, src: string, report: ValidationReport, rule: string, column: string, where: string, message: string) {
  const found = await db.all<{ row: number; n: number }>(
    `SELECT (file_row_number + 1)::INTEGER AS row, count(*) OVER ()::INTEGER AS n FROM ${src} WHERE ${where} ORDER BY file_row_number LIMIT ${SHOWN_ROWS}`,
  )
  if (found.length > 0) report.violations.push({ rule, column, message, rows: found.map((r) => r.row), count: found[0]!.n })
}

async function checkPeriods(db: DuckDb, src: string, contract: DatasetContract, today: Date, report: ValidationReport) {
  const p = contract.period
  const todayIso = today.toISOString().slice(0, 10)
  const fail = (v: Violation) => report.violations.push(v)
  const rowsWhere = (rule: string, column: string, where: string, message: string) => defectRows(db, src, report, rule, column, where, message)
  const before = report.violations.length
  if (p.kind === 'month') {
    const pattern = contract.columns.find((c) => c.name === p.column)?.pattern ?? '.*'
    await rowsWhere('future_period', p.column, `regexp_full_match(${p.column}, ${sqlString(pattern)}) AND ${p.column} > ${sqlString(todayIso.slice(0, 7))}`, `month is in the future (today is ${todayIso})`)
  } else {
    const start = `TRY_CAST(${p.column} AS DATE)`
    await rowsWhere('format', p.column, `${start} IS NULL`, 'not a calendar date')
    await rowsWhere('week_start', p.column, `${start} IS NOT NULL AND isodow(${start}) <> 1`, 'week_start must be a Monday')
    await rowsWhere('week_end', p.endColumn, `${start} IS NOT NULL AND TRY_CAST(${p.endColumn} AS DATE) IS DISTINCT FROM ${start} + INTERVAL 6 DAY`, 'week_end must be the Sunday six days after week_start')
    await rowsWhere('future_period', p.endColumn, `TRY_CAST(${p.endColumn} AS DATE) > DATE ${sqlString(todayIso)}`, `week has not ended yet (today is ${todayIso})`)
  }
  if (report.violations.length > before || report.violations.some((v) => v.column === p.column)) return

  const periods = (await db.all<{ p: string }>(`SELECT DISTINCT ${p.column} AS p FROM ${src} ORDER BY p`)).map((r) => r.p)
  const first = periods[0]!
  const last = periods.at(-1)!
  const step = p.kind === 'month' ? nextMonth : (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 7 * 86_400_000).toISOString().slice(0, 10)
  const have = new Set(periods)
  const missing: string[] = []
  for (let at = first; at < last; at = step(at)) if (!have.has(at)) missing.push(at)
  if (missing.length > 0 && !p.gapsAllowed) {
    fail({ rule: 'gap', column: p.column, message: `no rows for ${missing.length} ${p.kind === 'month' ? 'month' : 'week'}(s) between ${first} and ${last}: ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', ...' : ''}` })
  }
  report.period = p.kind === 'month' ? { from: first, to: last } : { from: first, to: new Date(Date.parse(`${last}T00:00:00Z`) + 6 * 86_400_000).toISOString().slice(0, 10) }
}

function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number]
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`
}

/** Human-readable lines, one per defect: `file: column: rows 3, 17 (and 40 more): message`. */
export function formatReport(r: ValidationReport): string[] {
  const name = basename(r.file)
  const line = (v: Violation, level: string) => {
    const where = v.rows ? `row${v.rows.length > 1 ? 's' : ''} ${v.rows.join(', ')}${v.count && v.count > v.rows.length ? ` (${v.count} rows in all)` : ''}: ` : ''
    return `${level} ${name}: ${v.column ? `${v.column}: ` : ''}${where}${v.message} [${v.rule}]`
  }
  const head = r.violations.length === 0
    ? `OK    ${name}: valid ${r.dataset} file, ${r.rows} rows${r.period ? `, ${r.period.from} to ${r.period.to}` : ''}`
    : `FAIL  ${name}: ${r.violations.length} defect(s) against the ${r.dataset} contract`
  return [head, ...r.violations.map((v) => line(v, '  error')), ...r.warnings.map((v) => line(v, '  warn '))]
}
