import { CONTROL_CHARACTERS, INVISIBLE_CHARACTERS, MAX_TEXT_LENGTH, type ColumnContract, type DatasetContract } from '../contracts'
import { sqlString } from '../sql'
import type { DuckDb } from '../duckdb'
import { SHOWN_ROWS, type ValidationReport } from './violations'

/** A defect is a row where `where` holds. */
interface RowCheck {
  rule: string
  column: string
  where: string
  message: string
}

/** 1-based row number of a row of the decoded table. */
const ROW = '(file_row_number + 1)::INTEGER'

function rowChecks(contract: ColumnContract): RowCheck[] {
  const check = (rule: string, where: string, message: string): RowCheck => ({ rule, column: contract.name, where, message })
  const max = contract.maxLength ?? MAX_TEXT_LENGTH
  return [
    check('null', `${contract.name} IS NULL`, 'missing value (NULL)'),
    contract.nonNegative && check('negative', `${contract.name} < 0`, 'negative value; counts and amounts cannot be negative'),
    contract.type === 'DOUBLE' && check('not_finite', `NOT isfinite(${contract.name}::DOUBLE)`, 'NaN or infinite value'),
    contract.pattern &&
      check(
        'format',
        `NOT regexp_full_match(${contract.name}, ${sqlString(contract.pattern)})`,
        `value does not match ${contract.pattern}`,
      ),
    contract.values &&
      check(
        'value',
        `${contract.name} NOT IN (${contract.values.map(sqlString).join(', ')})`,
        `value not allowed; allowed: ${contract.values.join(', ')}`,
      ),
    contract.type === 'INTEGER' &&
      check('range', `${contract.name} > 2147483647 OR ${contract.name} < -2147483648`, 'does not fit a 32-bit integer'),
    contract.type === 'VARCHAR' &&
      check(
        'control_character',
        `regexp_matches(${contract.name}, ${sqlString(CONTROL_CHARACTERS)})`,
        'contains a control character (C0/C1: NUL, tab, newline, ...)',
      ),
    contract.type === 'VARCHAR' &&
      check(
        'invisible_character',
        `regexp_matches(${contract.name}, ${sqlString(INVISIBLE_CHARACTERS)})`,
        'contains a zero-width or bidi-control character (U+200B-200F, U+202A-202E, U+2060-2064, U+2066-2069, U+FEFF)',
      ),
    contract.type === 'VARCHAR' && check('too_long', `length(${contract.name}) > ${max}`, `longer than ${max} characters`),
  ].filter((x): x is RowCheck => !!x)
}

/** Every per-value rule of every column, in one pass over the table: a count and the first rows per rule. */
export async function checkValues(db: DuckDb, table: string, contract: DatasetContract, report: ValidationReport): Promise<void> {
  const checks = contract.columns.flatMap(rowChecks)
  const [found] = await db.all<Record<string, number | number[] | null>>(
    `SELECT ${checks.map((k, i) => `count_if(${k.where})::INTEGER AS n${i}, min(${ROW}, ${SHOWN_ROWS}) FILTER (WHERE ${k.where}) AS r${i}`).join(', ')} FROM ${table}`,
  )
  checks.forEach((k, i) => {
    const count = found![`n${i}`] as number
    if (count > 0) report.violations.push({ rule: k.rule, column: k.column, message: k.message, rows: found![`r${i}`] as number[], count })
  })
}

/** Keys that appear more than once, the first few with their rows. */
export async function checkKeys(db: DuckDb, table: string, contract: DatasetContract, report: ValidationReport): Promise<void> {
  const key = contract.key.join(', ')
  const dupes = await db.all<{ k: string; rows: number[]; n: number }>(
    `SELECT concat_ws(' | ', ${contract.key.map((k) => `${k}::VARCHAR`).join(', ')}) AS k, min(${ROW}, ${SHOWN_ROWS}) AS rows, count(*)::INTEGER AS n
       FROM ${table} GROUP BY ${key} HAVING count(*) > 1 ORDER BY min(file_row_number) LIMIT ${SHOWN_ROWS}`,
  )
  for (const d of dupes)
    report.violations.push({ rule: 'duplicate_key', column: key, message: `key (${d.k}) appears ${d.n} times`, rows: d.rows, count: d.n })
}

/**
 * Name/code pairs: a value that goes with several partners is one defect, naming each partner with
 * its row count; the rows listed are those of the less usual partners (all but the most frequent).
 * Pairs whose columns already have a defect are skipped: a NULL or a malformed code is reported once.
 */
export async function checkPairs(db: DuckDb, table: string, contract: DatasetContract, report: ValidationReport): Promise<void> {
  const clean = (column: string) => !report.violations.some((v) => v.column === column)
  for (const p of contract.pairs.filter((p) => clean(p.column) && clean(p.partner))) {
    await checkPair(db, table, p.column, p.partner, report)
    if (p.oneToOne) await checkPair(db, table, p.partner, p.column, report)
  }
}

async function checkPair(db: DuckDb, table: string, column: string, partner: string, report: ValidationReport): Promise<void> {
  const found = await db.all<{ v: string; partners: string[]; rows: number[]; n: number }>(
    `WITH pairs AS (SELECT ${column} AS v, ${partner} AS p, count(*)::INTEGER AS n, min(file_row_number) AS first FROM ${table} GROUP BY ALL),
          ranked AS (SELECT *, row_number() OVER (PARTITION BY v ORDER BY n DESC, first) AS k, count(*) OVER (PARTITION BY v) AS variants FROM pairs),
          odd AS (SELECT v, list(format('{} ({} row{})', p, n, CASE WHEN n = 1 THEN '' ELSE 's' END) ORDER BY k) AS partners FROM ranked WHERE variants > 1 GROUP BY v)
     SELECT odd.v, odd.partners, min(${ROW}, ${SHOWN_ROWS}) AS rows, count(*)::INTEGER AS n
       FROM ${table} t JOIN ranked r ON t.${column} = r.v AND t.${partner} = r.p AND r.k > 1 JOIN odd ON odd.v = r.v
      GROUP BY odd.v, odd.partners ORDER BY min(t.file_row_number) LIMIT ${SHOWN_ROWS}`,
  )
  for (const f of found) {
    const message = `${JSON.stringify(f.v)} goes with ${f.partners.length} ${partner} values: ${f.partners.join(', ')}; expected one`
    report.violations.push({ rule: 'pairing', column, message, rows: f.rows, count: f.n })
  }
}

/** Runs a WHERE clause over the table; every matching row is one defect, reported with its row numbers. */
async function defectRows(db: DuckDb, src: string, report: ValidationReport, rule: string, column: string, where: string, message: string) {
  const found = await db.all<{ row: number; n: number }>(
    `SELECT ${ROW} AS row, count(*) OVER ()::INTEGER AS n FROM ${src} WHERE ${where} ORDER BY file_row_number LIMIT ${SHOWN_ROWS}`,
  )
  if (found.length > 0) report.violations.push({ rule, column, message, rows: found.map((r) => r.row), count: found[0]!.n })
}

/** Well-formed periods, none in the future, and (with `gaps`) no missing month or week between the first and the last. */
export async function checkPeriods(db: DuckDb, src: string, contract: DatasetContract, today: Date, report: ValidationReport, gaps = true) {
  const period = contract.period
  const todayIso = today.toISOString().slice(0, 10)
  const rowsWhere = (rule: string, column: string, where: string, message: string) =>
    defectRows(db, src, report, rule, column, where, message)
  const before = report.violations.length
  if (period.kind === 'month') {
    const pattern = contract.columns.find((c) => c.name === period.column)?.pattern ?? '.*'
    await rowsWhere(
      'future_period',
      period.column,
      `regexp_full_match(${period.column}, ${sqlString(pattern)}) AND ${period.column} > ${sqlString(todayIso.slice(0, 7))}`,
      `month is in the future (today is ${todayIso})`,
    )
  } else {
    const start = `TRY_CAST(${period.column} AS DATE)`
    await rowsWhere('format', period.column, `${start} IS NULL`, 'not a calendar date')
    await rowsWhere('week_start', period.column, `${start} IS NOT NULL AND isodow(${start}) <> 1`, 'week_start must be a Monday')
    await rowsWhere(
      'week_end',
      period.endColumn,
      `${start} IS NOT NULL AND TRY_CAST(${period.endColumn} AS DATE) IS DISTINCT FROM ${start} + INTERVAL 6 DAY`,
      'week_end must be the Sunday six days after week_start',
    )
    await rowsWhere(
      'future_period',
      period.endColumn,
      `TRY_CAST(${period.endColumn} AS DATE) > DATE ${sqlString(todayIso)}`,
      `week has not ended yet (today is ${todayIso})`,
    )
  }
  if (report.violations.length > before || report.violations.some((v) => v.column === period.column)) return

  const periods = (await db.all<{ p: string }>(`SELECT DISTINCT ${period.column} AS p FROM ${src} ORDER BY p`)).map((r) => r.p)
  const first = periods[0]!
  const last = periods.at(-1)!
  const step =
    period.kind === 'month' ? nextMonth : (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 7 * 86_400_000).toISOString().slice(0, 10)
  const have = new Set(periods)
  const missing: string[] = []
  for (let at = first; at < last; at = step(at)) if (!have.has(at)) missing.push(at)
  if (gaps && missing.length > 0 && !period.gapsAllowed) {
    report.violations.push({
      rule: 'gap',
      column: period.column,
      message: `no rows for ${missing.length} ${period.kind === 'month' ? 'month' : 'week'}(s) between ${first} and ${last}: ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', ...' : ''}`,
    })
  }
  report.period =
    period.kind === 'month'
      ? { from: first, to: last }
      : { from: first, to: new Date(Date.parse(`${last}T00:00:00Z`) + 6 * 86_400_000).toISOString().slice(0, 10) }
}

function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number]
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`
}
