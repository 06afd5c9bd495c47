import { MEDIA_TYPES, type AnswerFormat } from '../catalog/table'

/**
 * Content negotiation between a browser page and the JSON answer. JSON is the default: a client gets
 * HTML only when its Accept header names `text/html` and ranks it strictly above `application/json`
 * (by quality, each matched by its most specific range: exact type, then `type/*`, then `*\/*`).
 * Browsers' navigations (`text/html,…,*\/*;q=0.8`) get HTML; `*\/*`, no header, `application/json`, and a
 * tie such as `text/html, application/json` get JSON.
 */

/** A media type we answer in, matched by its exact name, its `type/*` family (when that may stand for it), or `*\/*`. */
interface Offered {
  exact: string
  family: string | null
}

const JSON_TYPE: Offered = { exact: MEDIA_TYPES.json, family: 'application/*' }
const HTML: Offered = { exact: 'text/html', family: 'text/*' }

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

/** The quality the Accept header gives each offered type: that of its most specific matching range (0 when none matches). */
function qualities(accept: string, offered: readonly Offered[]): number[] {
  const best = offered.map(() => ({ q: 0, specificity: 0 }))
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';')
    const type = range.trim().toLowerCase()
    const q = quality(params)
    offered.forEach((o, i) => {
      const specificity = type === o.exact ? 3 : type === o.family ? 2 : type === '*/*' ? 1 : 0
      if (specificity > best[i]!.specificity) best[i] = { q, specificity }
    })
  }
  return best.map((b) => b.q)
}

export function prefersHtml(accept: string | null): boolean {
  // The agents' path: one substring test. Browsers always name text/html in lower case.
  if (accept === null || !accept.includes('text/html')) return false
  const [html, json] = qualities(accept, [HTML, JSON_TYPE]) as [number, number]
  return html > 0 && html > json
}

/** CSV and Arrow only when named (as HTML is): `text/*` or `application/*` alone keep JSON. JSON first: it wins a tie. */
const TABLE_FORMATS: readonly AnswerFormat[] = ['json', 'csv', 'arrow']
const TABLE_TYPES: readonly Offered[] = [JSON_TYPE, { exact: MEDIA_TYPES.csv, family: null }, { exact: MEDIA_TYPES.arrow, family: null }]

/**
 * The format a table route answers in by its Accept header: the supported type with the highest
 * quality (CSV and Arrow only by name); JSON on a tie, without a header, and when the header names
 * nothing we serve (HTTP lets a server ignore Accept rather than refuse).
 */
export function tableFormat(accept: string | null): AnswerFormat {
  // The usual path: no header, */* or application/json: one regular-expression test.
  if (accept === null || !/csv|arrow/i.test(accept)) return 'json'
  const q = qualities(accept, TABLE_TYPES)
  let chosen = 0
  q.forEach((v, i) => {
    if (v > q[chosen]!) chosen = i
  })
  return TABLE_FORMATS[chosen]!
}
