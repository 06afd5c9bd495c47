import Negotiator from 'negotiator'
import { type AnswerFormat, MEDIA_TYPES } from '../catalog'

/**
 * Content negotiation between a browser page, the JSON answer and the bare tables, by `negotiator`
 * (Express's): the highest quality wins, then the more specific range (`text/html` over `*\/*`). Our
 * rules on top, so that no agent gets a page or a download it did not name:
 * - HTML, CSV and Arrow are offered only when the header names them (`text/*` alone keeps JSON);
 * - the header is read as media ranges and qualities only: other parameters (`charset`, `header`,
 *   `version`) decide nothing, and a quality that is not a number from 0 to 1 is 0;
 * - a tie goes to JSON: the ranges that stand for JSON are put first, because negotiator breaks the
 *   last ties by the header's order. So `text/html, application/json` gets JSON.
 * Browsers' navigations (`text/html,…,*\/*;q=0.8`) get HTML; no header, `*\/*` and `application/json` get JSON.
 */

const OFFERED = { json: MEDIA_TYPES.json, csv: MEDIA_TYPES.csv, arrow: MEDIA_TYPES.arrow, html: 'text/html' } as const

const MEDIA_RANGE = /^(?:\*\/\*|[a-z0-9!#$&^_.+-]+\/(?:\*|[a-z0-9!#$&^_.+-]+))$/
const STANDS_FOR_JSON = new Set(['application/json', 'application/*', '*/*'])

/** The header as `type/subtype;q=…` ranges, those that stand for JSON first; unreadable ranges dropped. */
function normalised(accept: string): string {
  const json: string[] = []
  const rest: string[] = []
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';')
    const type = range.trim().toLowerCase()
    if (!MEDIA_RANGE.test(type)) continue
    const qualityParam = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('q='))
    const quality = qualityParam === undefined ? 1 : Number(qualityParam.slice(2))
    const read = `${type};q=${Number.isFinite(quality) && quality >= 0 && quality <= 1 ? quality : 0}`
    ;(STANDS_FOR_JSON.has(type) ? json : rest).push(read)
  }
  return [...json, ...rest].join(',')
}

/** The offered type the header prefers, or undefined when it accepts none of them. */
const preferred = (accept: string, offered: string[]): string | undefined =>
  new Negotiator({ headers: { accept: normalised(accept) } }).mediaType(offered)

export function prefersHtml(accept: string | null): boolean {
  // The agents' path: one substring test. Browsers always name text/html in lower case.
  if (accept === null || !accept.includes('text/html')) return false
  return preferred(accept, [OFFERED.json, OFFERED.html]) === OFFERED.html
}

/**
 * The format a table route answers in by its Accept header: the supported type with the highest
 * quality (CSV and Arrow only by name); JSON on a tie, without a header, and when the header names
 * nothing we serve (HTTP lets a server ignore Accept rather than refuse).
 */
export function tableFormat(accept: string | null): AnswerFormat {
  // The usual path: no header, */* or application/json: one regular-expression test.
  if (accept === null || !/csv|arrow/i.test(accept)) return 'json'
  const named = (['csv', 'arrow'] as const).filter((format) => accept.toLowerCase().includes(OFFERED[format]))
  const chosen = preferred(accept, [OFFERED.json, ...named.map((format) => OFFERED[format])])
  return named.find((format) => OFFERED[format] === chosen) ?? 'json'
}
