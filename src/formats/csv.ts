import type { TableColumn } from '../catalog'

/**
 * A cell a spreadsheet would run as a formula (`=HYPERLINK(…)` in a creator's name, `@SUM(…)`, `+cmd|…`)
 * is written with a leading `'` (OWASP, CSV injection): spreadsheets then show it as text. A plain number
 * (`-12.5`) is a number, not a formula, and stays as it is. JSON and Arrow answers carry the text exactly.
 */
const FORMULA_START = /^[=+\-@\t\r]/
const PLAIN_NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/
const inert = (value: string) => (FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value)

/**
 * RFC 4180: a field is quoted when it holds a comma, a quote, CR or LF, and its quotes are doubled.
 * NULL is an empty field; an empty string is `""`, so the two stay apart when read back.
 */
export function csvField(value: string | null): string {
  if (value === null) return ''
  if (value === '') return '""'
  const cell = inert(value)
  return /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell
}

export const csvRecord = (fields: readonly (string | null)[]) => `${fields.map(csvField).join(',')}\r\n`

/** Separates the values of a list column (platform tokens) in one CSV field. */
export const CSV_LIST_SEPARATOR = ';'

function cell(column: TableColumn, value: unknown): string | null {
  if (value === null || value === undefined) return null
  if (column.kind === 'text_list') return (value as unknown[]).join(CSV_LIST_SEPARATOR)
  return String(value)
}

/** Written once per rows array: a cached answer hands every request the same array (see arrow.ts). */
const written = new WeakMap<readonly unknown[], string>()

/** A table answer as RFC 4180 CSV: a header row, then one record per row, CRLF line ends. */
export function tableCsv(columns: readonly TableColumn[], rows: readonly unknown[]): string {
  let out = written.get(rows)
  if (out === undefined) {
    out = csvRecord(columns.map((c) => c.name))
    for (const row of rows) out += csvRecord(columns.map((c) => cell(c, c.value(row))))
    written.set(rows, out)
  }
  return out
}
