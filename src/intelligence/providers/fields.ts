/**
 * Reading a vendor's JSON: strings cut to PROVIDER_LIMITS before anything else reads them, counts that
 * vendors write as numbers, digit strings or "1.2万", and the last steps every adapter shares to turn a
 * result into an evidence item.
 */
import { PROVIDER_LIMITS } from '../../catalog'
import { detectLanguage, type Engagement } from '../evidence'

export type Raw = Record<string, unknown>

/** `v` as an object, or an empty one. */
export const obj = (v: unknown): Raw => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Raw) : {})

/** `v` as a list of objects, or undefined when it is not a list. */
export const list = (v: unknown): Raw[] | undefined =>
  Array.isArray(v) ? (v.filter((r) => r && typeof r === 'object') as Raw[]) : undefined

/**
 * `text` cut to `max` UTF-16 units (not inside a surrogate pair). The cut is copied: a slice would keep the
 * provider's whole string alive as long as the item, or an excerpt of it in a cached answer.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text
  const last = text.charCodeAt(max - 1)
  const end = last >= 0xd800 && last <= 0xdbff ? max - 1 : max
  return Buffer.from(text.slice(0, end), 'utf16le').toString('utf16le')
}

/** A string (or a number, as its digits) cut to `max`, then trimmed; undefined when blank. */
export const str = (v: unknown, max: number = PROVIDER_LIMITS.fieldChars): string | undefined =>
  typeof v === 'string' ? clip(v, max).trim() || undefined : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined

/** Text with markup removed (search engines highlight matches with <em> or <b>). */
export const plain = (v: unknown, max: number): string | undefined => str(typeof v === 'string' ? v.replace(/<[^>]{0,64}>/g, '') : v, max)

/** A count: a number, a digit string, or Chinese shorthand such as 1.2万 or 3亿; undefined otherwise. */
export function count(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined
  if (typeof value !== 'string') return undefined
  const match = /^\s*(\d+(?:\.\d+)?)\s*(万|w|亿|k)?\+?\s*$/i.exec(value.replace(/,/g, ''))
  if (!match) return undefined
  const scale = { 万: 1e4, w: 1e4, 亿: 1e8, k: 1e3 }[(match[2] ?? '').toLowerCase() as '万'] ?? 1
  return Math.round(Number(match[1]) * scale)
}

/** Engagement when any figure is known (unknown figures count 0; views stay null when unknown). */
export function engagementOf(likes?: number, comments?: number, shares?: number, views?: number): Engagement | null {
  if ([likes, comments, shares, views].every((v) => v === undefined)) return null
  return { likes: likes ?? 0, comments: comments ?? 0, shares: shares ?? 0, views: views ?? null }
}

/** zh or en from a vendor's language code, else from the text. */
export function languageOf(code: unknown, title: string, text: string): 'zh' | 'en' {
  const lang = typeof code === 'string' ? code.toLowerCase() : ''
  return lang.startsWith('zh') ? 'zh' : lang.startsWith('en') ? 'en' : detectLanguage(`${title} ${text}`)
}

/** The host of a URL, or null. */
export function hostOf(url: string | null | undefined): string | null {
  if (!url) return null
  try {
    return new URL(url).host
  } catch {
    return null
  }
}
