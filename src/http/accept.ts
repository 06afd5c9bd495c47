import type { AnswerFormat } from '../catalog/table'

/**
 * Content negotiation between a browser page and the JSON answer. JSON is the default: a client gets
 * HTML only when its Accept header names `text/html` and ranks it strictly above `application/json`
 * (by quality, each matched by its most specific range: exact type, then `type/*`, then `*\/*`).
 * Browsers' navigations (`text/html,…,*\/*;q=0.8`) get HTML; `*\/*`, no header, `application/json`, and a
 * tie such as `text/html, application/json` get JSON.
 */

const HTML = { exact: 'text/html', family: 'text/*' }
const JSON_TYPE = { exact: 'application/json', family: 'application/*' }

/** Quality from a media range's parameters; a malformed `q` counts as 0 (never HTML by accident). */
function quality(params: string[]): number {
  for (const p of params) {
    const eq = p.indexOf('=')
    if (eq < 0 || p.slice(0, eq).trim().toLowerCase() !== 'q') continue
    const q = Number(p.slice(eq + 1).trim())
    return Number.isFinite(q) && q >= 0 && q <= 1 ? q : 0
  }
  return 1
}

export function prefersHtml(accept: string | null): boolean {
  // The agents' path: one substring test. Browsers always name text/html in lower case.
  if (accept === null || !accept.includes('text/html')) return false
  // [quality, specificity] of the best-matching range for each type; specificity 0 = not matched.
  const html: [number, number] = [0, 0]
  const json: [number, number] = [0, 0]
  const match = (best: [number, number], wanted: typeof HTML, range: string, q: number) => {
    const specificity = range === wanted.exact ? 3 : range === wanted.family ? 2 : range === '*/*' ? 1 : 0
    if (specificity > best[1]) {
      best[0] = q
      best[1] = specificity
    }
  }
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';')
    const type = range.trim().toLowerCase()
    const q = quality(params)
    match(html, HTML, type, q)
    match(json, JSON_TYPE, type, q)
  }
  return html[0] > 0 && html[0] > json[0]
}

/** CSV and Arrow only when named (as HTML is): `text/*` or `application/*` alone keep JSON. */
const TABLE_TYPES = [
  { format: 'json', exact: 'application/json', family: 'application/*' },
  { format: 'csv', exact: 'text/csv', family: null },
  { format: 'arrow', exact: 'application/vnd.apache.arrow.stream', family: null },
] as const

/**
 * The format a table route answers in by its Accept header: the supported type with the highest
 * quality (each matched by its most specific range; CSV and Arrow only by name); JSON on a tie,
 * without a header, and when the header names nothing we serve (HTTP lets a server ignore Accept
 * rather than refuse).
 */
export function tableFormat(accept: string | null): AnswerFormat {
  // The usual path: no header, */* or application/json: one regular-expression test.
  if (accept === null || !/csv|arrow/i.test(accept)) return 'json'
  const best = TABLE_TYPES.map(() => [0, 0] as [number, number])
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';')
    const type = range.trim().toLowerCase()
    const q = quality(params)
    TABLE_TYPES.forEach((t, i) => {
      const specificity = type === t.exact ? 3 : type === t.family ? 2 : type === '*/*' ? 1 : 0
      if (specificity > best[i]![1]) best[i] = [q, specificity]
    })
  }
  let chosen = 0
  best.forEach(([q], i) => {
    if (q > best[chosen]![0]) chosen = i
  })
  return TABLE_TYPES[chosen]!.format
}
