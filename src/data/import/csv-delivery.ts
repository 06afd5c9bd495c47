import { randomUUID } from 'node:crypto'
import type { DatasetContract } from '../contracts'
import { sqlString } from '../sql'
import type { DuckDb, DuckDbSession } from '../duckdb'
import { SHOWN_ROWS, type Violation } from './violations'

export interface CsvConversion {
  /** Data rows read (the first row after the header is row 1). */
  rows: number
  violations: Violation[]
  warnings: Violation[]
}

/** RFC 4180 as DuckDB reads it: comma, `"` quotes, `""` inside quotes, no type or dialect sniffing. */
const dialect = (compression: 'none' | 'gzip') => `delim = ',', quote = '"', escape = '"', compression = '${compression}'`

/** What DuckDB's reject table calls a defect, in the report's words. */
const REJECTS: Record<string, { rule: string; message: string }> = {
  'MISSING COLUMNS': { rule: 'csv_row', message: 'fewer cells than the header has columns' },
  'TOO MANY COLUMNS': { rule: 'csv_row', message: 'more cells than the header has columns' },
  'UNQUOTED VALUE': {
    rule: 'csv_quote',
    message: 'a quote inside an unquoted cell (quote the whole cell and double the quotes inside it)',
  },
  'LINE SIZE OVER MAXIMUM': { rule: 'csv_row', message: 'row longer than DuckDB reads (2 MB)' },
  'INVALID ENCODING': { rule: 'encoding', message: 'not UTF-8 text' },
  'INVALID UNICODE': { rule: 'encoding', message: 'not UTF-8 text' },
}

/**
 * Converts a CSV delivery into a Parquet file typed by the contract, rows in file order, so that
 * `validateFile` checks it exactly like a Parquet delivery and its row numbers are the CSV's data rows.
 *
 * The header names the columns (any order; a missing one is a defect, an extra one a warning). Every
 * cell is read as its contract type with no guessing; cells that do not parse are all collected from
 * DuckDB's reject table and reported by data row and column, and then nothing is written (a rejected
 * row would shift the numbers of the rows after it). An empty text cell reads as the empty string
 * (columns such as `author_city` allow it; pattern and value rules still apply); an empty number cell
 * is a defect. INTEGER cells are read as DOUBLE first because DuckDB's integer cast rounds `12.5`
 * to 13: a value that is not a whole number is refused instead.
 */
export async function csvToParquet(
  db: DuckDb,
  file: string,
  compression: 'none' | 'gzip',
  contract: DatasetContract,
  out: string,
): Promise<CsvConversion> {
  const result: CsvConversion = { rows: 0, violations: [], warnings: [] }
  const fail = (v: Violation) => {
    result.violations.push(v)
    return result
  }
  const id = randomUUID().replaceAll('-', '')
  const [table, rejects, scans] = [`csv_${id}`, `csv_rejects_${id}`, `csv_scans_${id}`]
  return db.withConnection(async (connection) => {
    let header: string[] | undefined
    try {
      header = await readHeader(connection, file, compression)
    } catch (error) {
      return fail({ rule: 'format', message: `not a readable CSV file: ${duckdbMessage(error, file)}` })
    }
    if (!header) return fail({ rule: 'empty', message: 'the file is empty: no header row' })

    const seen = new Set<string>()
    for (const name of header) {
      if (seen.has(name) && contract.columns.some((col) => col.name === name))
        fail({ rule: 'duplicate_column', column: name, message: 'the header names this column more than once' })
      seen.add(name)
    }
    for (const col of contract.columns) {
      if (!seen.has(col.name))
        fail({
          rule: 'missing_column',
          column: col.name,
          message: `missing column (${col.type}: ${col.description}); the first row must be the header`,
        })
    }
    header.forEach((name, index) => {
      if (!contract.columns.some((col) => col.name === name))
        result.warnings.push({
          rule: 'extra_column',
          column: name || `(unnamed column ${index + 1})`,
          message: 'not in the contract; ignored by the service',
        })
    })
    if (result.violations.length > 0) return result

    // Extra columns are read as text under names of our own: the header's may be empty or anything.
    const columns = header.map((name, i) => {
      const col = contract.columns.find((x) => x.name === name)
      return { name: col ? name : `__extra_${i}`, type: col ? (col.type === 'INTEGER' ? 'DOUBLE' : col.type) : 'VARCHAR' }
    })
    const text = columns.filter((x) => x.type === 'VARCHAR').map((x) => sqlString(x.name))
    try {
      await connection.exec(
        `CREATE TEMP TABLE ${table} AS SELECT ${contract.columns.map((x) => x.name).join(', ')} FROM read_csv(${sqlString(file)}, ${dialect(compression)},
           header = true, auto_detect = false, columns = {${columns.map((x) => `${sqlString(x.name)}: '${x.type}'`).join(', ')}},
           force_not_null = [${text.join(', ')}], store_rejects = true, rejects_table = '${rejects}', rejects_scan = '${scans}')`,
      )
      const rejected = await reportRejects(connection, rejects, contract, result)
      await checkCells(connection, table, contract, result, rejected)
      // Rejected rows were not loaded, so the table's row numbers are not the file's: stop here.
      if (result.violations.length > 0) return result
      result.rows = (await connection.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${table}`))[0]!.n
      const select = contract.columns.map((x) => (x.type === 'INTEGER' ? `${x.name}::INTEGER AS ${x.name}` : x.name)).join(', ')
      // rowid is the insertion order, which DuckDB keeps from the file (preserve_insertion_order).
      await connection.exec(`COPY (SELECT ${select} FROM ${table} ORDER BY rowid) TO ${sqlString(out)} (FORMAT parquet)`)
      return result
    } catch (error) {
      return fail({ rule: 'format', message: `not a readable CSV file: ${duckdbMessage(error, file)}` })
    } finally {
      for (const t of [table, rejects, scans]) await connection.exec(`DROP TABLE IF EXISTS ${t}`)
    }
  })
}

/**
 * The header row's cells, as DuckDB parses the first record. The first line's commas bound the number
 * of cells (quoted commas make fewer); the padding DuckDB adds past the last cell is NULL.
 */
async function readHeader(session: DuckDbSession, file: string, compression: 'none' | 'gzip'): Promise<string[] | undefined> {
  const [line] = await session.all<{ n: number }>(
    `SELECT (length(h) - length(replace(h, ',', '')) + 1)::INTEGER AS n
       FROM read_csv(${sqlString(file)}, delim = '\\n', quote = '', escape = '', compression = '${compression}', header = false, auto_detect = false, columns = {'h': 'VARCHAR'}) LIMIT 1`,
  )
  if (!line) return undefined
  const names = Array.from({ length: line.n }, (_, i) => `'c${i}'`)
  const [cells] = await session.all<Record<string, string | null>>(
    `SELECT * FROM read_csv(${sqlString(file)}, ${dialect(compression)}, header = false, auto_detect = false, null_padding = true, strict_mode = false,
       columns = {${names.map((n) => `${n}: 'VARCHAR'`).join(', ')}}, force_not_null = [${names.join(', ')}]) LIMIT 1`,
  )
  const values = names.map((_, i) => cells![`c${i}`] ?? null)
  while (values.length > 0 && values.at(-1) === null) values.pop()
  return values.map((v) => v ?? '')
}

/**
 * Every reject, grouped by kind (and column, for cells that do not parse); returns the rejected data
 * rows, sorted. Data row = DuckDB's line - 1: it counts records (a quoted line break does not start
 * one), the header being line 1.
 */
async function reportRejects(session: DuckDbSession, rejects: string, contract: DatasetContract, result: CsvConversion): Promise<number[]> {
  const found = await session.all<{ error_type: string; column_name: string | null; rows: number[]; n: number; value: string }>(
    `SELECT error_type, CASE WHEN error_type = 'CAST' THEN column_name END AS column_name, list(DISTINCT (line - 1)::INTEGER ORDER BY (line - 1)::INTEGER)[1:${SHOWN_ROWS}] AS rows,
            count(DISTINCT line)::INTEGER AS n, regexp_extract(min_by(error_message, line), 'Could not convert string "(.*)" to', 1) AS value
       FROM ${rejects} GROUP BY ALL ORDER BY min(line), column_name`,
  )
  for (const reject of found) {
    const col = contract.columns.find((x) => x.name === reject.column_name)
    const known = REJECTS[reject.error_type]
    const violation: Violation =
      reject.error_type === 'CAST' && col
        ? {
            rule: 'type',
            column: col.name,
            message: `cannot be read as ${col.type}${reject.value ? ` (first: ${JSON.stringify(reject.value)})` : ''}`,
          }
        : { rule: known?.rule ?? 'csv', message: known?.message ?? reject.error_type.toLowerCase() }
    result.violations.push({ ...violation, rows: reject.rows, count: reject.n })
  }
  return (await session.all<{ r: number }>(`SELECT DISTINCT (line - 1)::INTEGER AS r FROM ${rejects} ORDER BY r`)).map((x) => x.r)
}

/** The data row of loaded row `loadedRow` (1-based) when the `rejected` data rows (sorted) were skipped. */
function dataRow(loadedRow: number, rejected: number[]): number {
  let row = loadedRow
  for (const r of rejected) {
    if (r > row) break
    row++
  }
  return row
}

/** Empty number cells, and INTEGER cells that are not whole numbers of 32 bits. Rows by rowid (file order). */
async function checkCells(session: DuckDbSession, table: string, contract: DatasetContract, result: CsvConversion, rejected: number[]) {
  const checks = contract.columns.flatMap((col) => [
    ...(col.type !== 'VARCHAR'
      ? [{ rule: 'empty_cell', column: col.name, where: `${col.name} IS NULL`, message: `empty cell; a number (${col.type}) is required` }]
      : []),
    ...(col.type === 'INTEGER'
      ? [
          {
            rule: 'type',
            column: col.name,
            where: `NOT isfinite(${col.name}) OR ${col.name} <> trunc(${col.name})`,
            message: 'not a whole number (INTEGER)',
          },
          {
            rule: 'range',
            column: col.name,
            where: `isfinite(${col.name}) AND ${col.name} = trunc(${col.name}) AND NOT ${col.name} BETWEEN -2147483648 AND 2147483647`,
            message: 'does not fit a 32-bit integer',
          },
        ]
      : []),
  ])
  if (checks.length === 0) return
  const [found] = await session.all<Record<string, number | number[] | null>>(
    `SELECT ${checks.map((k, i) => `count_if(${k.where})::INTEGER AS n${i}, min((rowid + 1)::INTEGER, ${SHOWN_ROWS}) FILTER (WHERE ${k.where}) AS r${i}`).join(', ')} FROM ${table}`,
  )
  checks.forEach((k, i) => {
    const n = found![`n${i}`] as number
    const rows = (found![`r${i}`] as number[] | null)?.map((k) => dataRow(k, rejected))
    if (n > 0) result.violations.push({ rule: k.rule, column: k.column, message: k.message, rows, count: n })
  })
}

/** DuckDB's first line, with its explanation of a CSV error (the second line repeats the row), without the path. */
function duckdbMessage(error: unknown, file: string): string {
  const lines = (error as Error).message.split('\n')
  const why = /CSV Error on Line/.test(lines[0]!) ? lines.slice(2).find((l) => l.trim() !== '') : undefined
  return [lines[0], why].filter(Boolean).join(': ').replaceAll(file, 'the file')
}
