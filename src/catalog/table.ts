import { type TObject, type TSchema, Type as t } from '@sinclair/typebox'
import { Enum } from './routes/params'
import type { RouteSpec } from './types'

/** The answer formats of a table route. JSON (the envelope) is the default. */
export const FORMATS = ['json', 'csv', 'arrow'] as const
export type AnswerFormat = (typeof FORMATS)[number]

export const MEDIA_TYPES: Record<AnswerFormat, string> = {
  json: 'application/json',
  csv: 'text/csv',
  arrow: 'application/vnd.apache.arrow.stream',
}

/** How a column is typed in an Arrow answer (CSV is text; DuckDB's `read_csv` reads it back to the same types). */
export type ColumnKind = 'integer' | 'double' | 'text' | 'month' | 'boolean' | 'text_list'

export interface TableColumn {
  name: string
  kind: ColumnKind
  nullable: boolean
  /** The column's value in one element of the table's array (an array of plain values is its one column). */
  value(row: unknown): unknown
}

/** A month value in an answer (`2026-10`): Arrow types it as a date, the first day of the month. */
export const MONTH_VALUE_PATTERN = '^\\d{4}-\\d{2}$'
export const MonthValue = (description = 'month, YYYY-MM') => t.String({ pattern: MONTH_VALUE_PATTERN, description })

const FormatParam = Enum(
  FORMATS,
  'Answer format: `json` (the envelope, default), `csv` (RFC 4180, header row) or `arrow` (Arrow IPC stream). Same price. The Accept header (`text/csv`, `application/vnd.apache.arrow.stream`) chooses too; this parameter wins.',
)

const httpQueries = new WeakMap<RouteSpec, TObject>()

/** The query (or body) schema of a route over HTTP: a table route also takes `format`. MCP tools answer JSON and do not. */
export function httpQuery(route: RouteSpec): TObject {
  if (!route.table) return route.query
  let query = httpQueries.get(route)
  if (!query) {
    query = t.Object({ ...route.query.properties, format: t.Optional(FormatParam) }, { additionalProperties: false })
    httpQueries.set(route, query)
  }
  return query
}

/** The kind of a value schema (a nullable column is a union with null). */
function kindOf(schema: TSchema): { kind: ColumnKind; nullable: boolean } {
  const members: TSchema[] = schema.anyOf ?? [schema]
  const flat = members.flatMap((m) => (m.anyOf as TSchema[] | undefined) ?? [m])
  const types = new Set(flat.map((m) => (m.const !== undefined ? typeof m.const : m.type) as string))
  const nullable = types.has('null') || flat.some((m) => m.const === null)
  const kind: ColumnKind = types.has('integer')
    ? 'integer'
    : types.has('number')
      ? 'double'
      : types.has('boolean')
        ? 'boolean'
        : types.has('array')
          ? 'text_list'
          : flat.some((m) => m.pattern === MONTH_VALUE_PATTERN)
            ? 'month'
            : 'text'
  return { kind, nullable }
}

const tableColumns = new WeakMap<RouteSpec, TableColumn[]>()

/** The columns of a table route, in the order of its row schema (the catalog), derived once. */
export function columnsOf(route: RouteSpec): TableColumn[] {
  const spec = route.table
  if (!spec) throw new Error(`${route.id} has no table`)
  let columns = tableColumns.get(route)
  if (!columns) {
    const array = (route.data as TObject).properties[spec.field] as TSchema
    const item = array.items as TSchema
    columns =
      item.type === 'object'
        ? Object.entries(item.properties as Record<string, TSchema>).map(([name, s]) => ({
            name,
            ...kindOf(s),
            value: (row: unknown) => (row as Record<string, unknown>)[name],
          }))
        : [{ name: spec.column ?? spec.field, ...kindOf(item), value: (row: unknown) => row }]
    tableColumns.set(route, columns)
  }
  return columns
}
