import Negotiator from 'negotiator'
import { MEDIA_TYPES, type AnswerFormat } from '../catalog/table'

/**
 * Content negotiation between a browser page, the JSON answer and the bare tables, by `negotiator`
 * (Express's): the highest quality wins, then the most specific range. Two rules of ours on top, so that
 * no agent gets a page or a download it did not name:
 * - HTML, CSV and Arrow are offered only when the header names them (`text/*` alone keeps JSON);
 * - a tie goes to JSON: the ranges that stand for JSON are moved to the front of the header, because
 *   negotiator breaks ties by the header's order. So `text/html, application/json` gets JSON.
 * Browsers' navigations (`text/html,…,*\/*;q=0.8`) get HTML; no header, `*\/*` and `application/json` get JSON.
 */

/** What we answer in, as negotiator matches it: with the charset we write, so a range naming it matches too. */
const OFFERED = {
  json: `${MEDIA_TYPES.json}; charset=utf-8`,
  csv: `${MEDIA_TYPES.csv}; charset=utf-8`,
  arrow: MEDIA_TYPES.arrow,
  html: 'text/html; charset=utf-8',
} as const

const JSON_RANGE = /^\s*(?:application\/json|application\/\*|\*\/\*)\s*(?:;|$)/i

/** The header's media ranges with those that stand for JSON first, each group in its own order. */
function jsonFirst(accept: string): string {
  const ranges = accept.split(',')
  return [...ranges.filter((r) => JSON_RANGE.test(r)), ...ranges.filter((r) => !JSON_RANGE.test(r))].join(',')
}

/** The offered type the header prefers, or undefined (none acceptable, or a header negotiator cannot parse). */
function preferred(accept: string, offered: string[]): string | undefined {
  try {
    return new Negotiator({ headers: { accept: jsonFirst(accept) } }).mediaType(offered)
  } catch {
    return undefined // a malformed header: HTTP lets a server ignore Accept
  }
}

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
  const named = (['csv', 'arrow'] as const).filter((format) => accept.toLowerCase().includes(MEDIA_TYPES[format]))
  const chosen = preferred(accept, [OFFERED.json, ...named.map((format) => OFFERED[format])])
  return named.find((format) => OFFERED[format] === chosen) ?? 'json'
}
