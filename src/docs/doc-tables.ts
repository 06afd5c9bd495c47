import { CATALOG, columnsOf } from '../catalog'
import { ENV } from '../config'
import { ERROR_CODES } from '../core'
import { implementedRouteIds } from '../composition'
import { intelligenceRules } from '../intelligence'

const cell = (s: string) => s.replaceAll('|', '\\|').replaceAll('\n', ' ')

/** Route table: method, path, price, parameters, status. `implemented` = ids that have a handler. */
export function routeTable(implemented: ReadonlySet<string>): string {
  const rows = CATALOG.map((route) => {
    const params = Object.entries(route.query.properties).map(([k]) => (route.query.required?.includes(k) ? `**${k}**` : k))
    const pathParams = route.params ? Object.keys(route.params.properties).map((k) => `**:${k}**`) : []
    const status = implemented.has(route.id) ? 'live' : 'planned (501, free)'
    return `| ${route.methods.join(', ')} | \`${route.path}\` | ${route.priceUsd} | ${[...pathParams, ...params].join(', ') || '—'} | ${cell(route.summary)} | ${status} |`
  })
  return ['| Method | Path | USD | Parameters (**required**) | What it answers | Status |', '|---|---|---|---|---|---|', ...rows].join('\n')
}

/** One rule line per parameter: its description, the allowed values of an enum, required or not. */
function parameterRule(name: string, schema: { description?: string; anyOf?: { const?: unknown }[] }, required: boolean): string {
  const allowed = schema.anyOf?.map((a) => a.const).filter((c) => c !== undefined)
  const values = allowed?.length ? ` One of: ${allowed.map((v) => `\`${v}\``).join(', ')}.` : ''
  return `\`${name}\`${required ? ' (required)' : ''}: ${schema.description ?? ''}${values}`.trim()
}

/** What each served route answers and the rules of its parameters, straight from the catalog. */
export function routeDetails(implemented: ReadonlySet<string>): string {
  const rows = CATALOG.filter((r) => implemented.has(r.id)).map((r) => {
    const params = Object.entries(r.query.properties).map(([k, v]) => parameterRule(k, v as never, Boolean(r.query.required?.includes(k))))
    return `| \`${r.path}\` | ${cell(r.description)} | ${params.map(cell).join('<br>') || '—'} |`
  })
  return ['| Route | What it answers | Parameters |', '|---|---|---|', ...rows].join('\n')
}

const ARROW_TYPE = { integer: 'int64', double: 'float64', text: 'utf8', month: 'date32', boolean: 'bool', text_list: 'list<utf8>' } as const

/** The table routes: which array of `data` is the table, and its columns with their Arrow types (`?` = may be null). */
export function tableRoutes(): string {
  const rows = CATALOG.filter((r) => r.table).map((r) => {
    const columns = columnsOf(r).map((c) => `${c.name} ${ARROW_TYPE[c.kind]}${c.nullable ? '?' : ''}`)
    return `| \`${r.path}\` | \`data.${r.table!.field}\` | ${cell(columns.join(', '))} |`
  })
  return ['| Route | Table | Columns (Arrow type; `?` may be null) |', '|---|---|---|', ...rows].join('\n')
}

export function configTable(): string {
  const rows = Object.entries(ENV).map(([k, v]) => `| \`${k}\` | ${cell(v.default)} | ${cell(v.meaning)} |`)
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n')
}

export function errorTable(): string {
  const rows = Object.entries(ERROR_CODES).map(([code, e]) => `| ${e.status} | \`${code}\` | ${cell(e.meaning)} |`)
  return ['| HTTP | error.code | When |', '|---|---|---|', ...rows].join('\n')
}

/** The documentation sections generated from their single sources (catalog, ENV, ERROR_CODES, rules), by the file that holds them. */
export const GENERATED: Record<string, Record<string, () => string>> = {
  'docs/routes.md': {
    routes: () => routeTable(implementedRouteIds()),
    details: () => routeDetails(implementedRouteIds()),
    tables: tableRoutes,
    errors: errorTable,
  },
  'docs/configuration.md': { config: configTable },
  'docs/intelligence.md': { intelligence: intelligenceRules },
}

/** `file`'s text with its generated sections filled in (a file not listed comes back unchanged). */
export function renderDoc(file: string, text: string): string {
  return Object.entries(GENERATED[file] ?? {}).reduce((t, [name, render]) => fillSection(t, name, render()), text)
}

/** Replaces the text between `<!-- name:start -->` and `<!-- name:end -->` markers. */
export function fillSection(readme: string, name: string, content: string): string {
  const start = `<!-- ${name}:start -->`
  const end = `<!-- ${name}:end -->`
  const startAt = readme.indexOf(start)
  const endAt = readme.indexOf(end)
  if (startAt < 0 || endAt < startAt) throw new Error(`no ${start} ... ${end} section`)
  return `${readme.slice(0, startAt + start.length)}\n${content}\n${readme.slice(endAt)}`
}
