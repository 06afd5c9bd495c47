import { randomUUID } from 'node:crypto'
import { existsSync, statSync } from 'node:fs'
import { basename } from 'node:path'
import { DATASETS, type ColumnContract, type DatasetContract } from '../contracts'
import { sqlString } from '../sql'
import type { DuckDb } from '../duckdb'
import type { ValidationReport, Violation } from './violations'
import { checkKeys, checkPairs, checkPeriods, checkValues } from './validate-rules'

export interface ValidateOptions {
  /**
   * false for a delivery that will be merged into the current version: the no-gap rule, which needs
   * the whole history, is left to the merged result (a delivery correcting 2026-03 and 2026-07 is legal).
   */
  wholeDataset?: boolean
}

/** Which integer and floating-point Parquet types can be read as the contract's type without loss. */
const COMPATIBLE: Record<ColumnContract['type'], readonly string[]> = {
  VARCHAR: ['VARCHAR'],
  INTEGER: ['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'UTINYINT', 'USMALLINT', 'UINTEGER', 'UBIGINT', 'HUGEINT'],
  DOUBLE: ['DOUBLE', 'FLOAT', 'DECIMAL', 'TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT'],
}

/** The dataset a file is for, from its name: `spend.parquet`, `spend-2026-11.parquet`, `signal_brands_v2.parquet`. */
export function contractForFile(file: string): DatasetContract | undefined {
  const name = basename(file).toLowerCase()
  return [...DATASETS]
    .sort((a, b) => b.name.length - a.name.length)
    .find((d) => name === d.file || name.startsWith(`${d.name}-`) || name.startsWith(`${d.name}_`) || name.startsWith(`${d.name}.`))
}

/** The report of a file refused before its rules could run. `dataset` is empty when it cannot be told. */
export function refusedReport(file: string, dataset: string, violation: Violation): ValidationReport {
  return { file, dataset, rows: 0, violations: [violation], warnings: [] }
}

/**
 * Checks a candidate Parquet file against its dataset's contract: columns and types, no nulls,
 * non-negative counts, value patterns and allowed values, clean text of bounded length, one code per
 * name (and name per code), unique keys, well-formed periods that are not in the future, and (for a
 * whole dataset) no missing period between the first and the last. Every defect names the column and the rows.
 *
 * The rules run on a table decoded from the file, not on the file: over Parquet, DuckDB answers
 * `IS NULL`, `< 0` and `min()` from the footer's statistics without decoding a page, so a file whose
 * pages were damaged after the footer was written passed. Copying it into a table decodes every page
 * of every column (a damaged page fails the copy), and the table's statistics are the values'.
 */
export async function validateFile(
  db: DuckDb,
  file: string,
  contract: DatasetContract,
  today = new Date(),
  options: ValidateOptions = {},
): Promise<ValidationReport> {
  const report: ValidationReport = { file, dataset: contract.name, rows: 0, violations: [], warnings: [] }
  const fail = (v: Violation) => report.violations.push(v)
  if (!existsSync(file) || !statSync(file).isFile()) {
    fail({ rule: 'file', message: 'file not found' })
    return report
  }
  const parquet = `read_parquet(${sqlString(file)}, file_row_number = true)`

  let schema: { column_name: string; column_type: string }[]
  try {
    schema = await db.all(`DESCRIBE SELECT * FROM read_parquet(${sqlString(file)})`)
  } catch (error) {
    fail({ rule: 'format', message: `not a readable Parquet file: ${duckdbMessage(error)}` })
    return report
  }
  const actual = new Map(schema.map((c) => [c.column_name, c.column_type.replace(/\(.*\)$/, '')]))
  for (const column of contract.columns) {
    const type = actual.get(column.name)
    if (type === undefined)
      fail({ rule: 'missing_column', column: column.name, message: `missing column (${column.type}: ${column.description})` })
    else if (!COMPATIBLE[column.type].includes(type))
      fail({ rule: 'type', column: column.name, message: `type ${type}, expected ${column.type}` })
  }
  for (const name of actual.keys()) {
    if (!contract.columns.some((c) => c.name === name))
      report.warnings.push({ rule: 'extra_column', column: name, message: 'not in the contract; ignored by the service' })
  }
  if (report.violations.length > 0) return report // the checks below read these columns

  // A table per call: the pool's connections share it, and concurrent validations do not collide.
  const table = `validate_${randomUUID().replaceAll('-', '')}`
  try {
    await db.exec(`CREATE TABLE ${table} AS SELECT * FROM ${parquet}`)
  } catch (error) {
    await reportUndecodable(db, file, [...actual.keys()], error, report)
    return report
  }
  try {
    report.rows = (await db.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${table}`))[0]!.n
    if (report.rows === 0) {
      fail({ rule: 'empty', message: 'the file has no rows' })
      return report
    }
    await checkValues(db, table, contract, report)
    await checkPairs(db, table, contract, report)
    await checkKeys(db, table, contract, report)
    await checkPeriods(db, table, contract, today, report, options.wholeDataset ?? true)
    return report
  } finally {
    await db.exec(`DROP TABLE IF EXISTS ${table}`)
  }
}

/** Names the columns whose pages cannot be decoded, each read alone; the whole file when none fails alone. */
async function reportUndecodable(db: DuckDb, file: string, columns: string[], error: unknown, report: ValidationReport) {
  const message = (e: unknown) => `data pages cannot be decoded (damaged file?): ${duckdbMessage(e)}`
  for (const column of columns) {
    // hash() has no statistics to answer from, so every value of the column is read.
    try {
      await db.all(`SELECT max(hash("${column.replaceAll('"', '""')}")) FROM read_parquet(${sqlString(file)})`)
    } catch (columnError) {
      report.violations.push({ rule: 'corrupt', column, message: message(columnError) })
    }
  }
  if (report.violations.length === 0) report.violations.push({ rule: 'corrupt', message: message(error) })
}

/** DuckDB's first line, without the file's path (the report names the file). */
const duckdbMessage = (error: unknown) =>
  (error as Error).message
    .split('\n')[0]!
    .replace(/Failed to read file "[^"]*": /, '')
    .replace(/'[^']*\/([^'/]+)'/g, "'$1'")

/** Human-readable lines, one per defect: `file: column: rows 3, 17 (and 40 more): message`. */
export function formatReport(report: ValidationReport): string[] {
  const name = basename(report.file)
  const line = (violation: Violation, level: string) => {
    const where = violation.rows
      ? `row${violation.rows.length > 1 ? 's' : ''} ${violation.rows.join(', ')}${violation.count && violation.count > violation.rows.length ? ` (${violation.count} rows in all)` : ''}: `
      : violation.count
        ? `${violation.count} row${violation.count > 1 ? 's' : ''}: `
        : ''
    return `${level} ${name}: ${violation.column ? `${violation.column}: ` : ''}${where}${violation.message} [${violation.rule}]`
  }
  const head =
    report.violations.length === 0
      ? `OK    ${name}: valid ${report.dataset} file, ${report.rows} rows${report.period ? `, ${report.period.from} to ${report.period.to}` : ''}`
      : `FAIL  ${name}: ${report.violations.length} defect(s)${report.dataset ? ` against the ${report.dataset} contract` : ''}`
  return [head, ...report.violations.map((v) => line(v, '  error')), ...report.warnings.map((v) => line(v, '  warn '))]
}
