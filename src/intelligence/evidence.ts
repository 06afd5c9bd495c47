/**
 * The evidence model shared by every provider and every China intelligence route: one normalised record
 * per post, note, video, article or web page, whatever provider found it.
 */
import type { Platform } from '../catalog/platforms'
import type { Matcher } from './relevance'

export type { Platform }

/** How an item was obtained: first-party platform discovery, or the open web (reports, analysis, coverage). */
export type Retrieval = 'native' | 'proxy'

export const SOURCE_KINDS = ['note', 'video', 'article', 'web_page', 'report', 'news'] as const
export type SourceKind = (typeof SOURCE_KINDS)[number]

export interface Engagement {
  likes: number
  comments: number
  shares: number
  /** Views or reads; null when the source does not report them. */
  views: number | null
}

export interface EvidenceItem {
  /** Stable id from the source (the URL when the source has no id). */
  id: string
  url: string | null
  /** Where it was published: a platform, or `web`. */
  platform: Platform | 'web'
  retrieval: Retrieval
  sourceKind: SourceKind
  author: string | null
  /** Followers of the author when known (creators); null for web publishers and unknown. */
  authorFollowers: number | null
  authorCity: string | null
  publishedAt: Date
  title: string
  text: string
  language: 'zh' | 'en'
  engagement: Engagement | null
  /** Name of the provider that returned it. */
  provider: string
  /** How much it is about what was asked (RELEVANCE), set when the lanes keep it; 1 when not graded. */
  relevance?: number
}

/** One provider call: which lane step, what to look for, and the time window [from, to). */
export interface EvidenceQuery {
  platform: Platform
  step: 'native' | 'web'
  keyword: string
  /** What an item must be about: the resolved entity's names, or the free-text keyword. */
  match: Matcher
  /** The query shaped for this platform and step (Chinese names first), as sent to live search providers. */
  q: string
  from: Date
  to: Date
  limit: number
}

export type ProviderFailure = 'timeout' | 'unavailable' | 'bad_response' | 'cancelled'

/** A provider could not answer; `kind` decides the API error (timeout -> 504, otherwise 502). */
export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderFailure,
    readonly provider: string,
    message: string,
  ) {
    super(`${provider}: ${message}`)
  }
}

/** A source of evidence items. `timeoutMs` bounds each call; `signal` cancels it. */
export interface EvidenceProvider {
  readonly name: string
  /** native: first-party discovery of the platforms it `serves`; web: broad web evidence (proxy). */
  readonly role: 'native' | 'web'
  readonly timeoutMs: number
  serves(platform: Platform): boolean
  search(q: EvidenceQuery, signal: AbortSignal): Promise<EvidenceItem[]>
}

/** Engagement of one item as one number (likes + comments + shares); 0 when unknown. */
export const engagementOf = (item: EvidenceItem): number =>
  item.engagement ? item.engagement.likes + item.engagement.comments + item.engagement.shares : 0

/** `native` when every item is first-party, `proxy` when none is, `mixed` otherwise. */
export function evidenceMode(items: readonly EvidenceItem[]): 'native' | 'proxy' | 'mixed' {
  const native = items.filter((i) => i.retrieval === 'native').length
  return native === items.length ? 'native' : native === 0 ? 'proxy' : 'mixed'
}

/** zh when at least a fifth of the letters (CJK characters and A-Z, a-z) are CJK, else en. */
export function detectLanguage(text: string): 'zh' | 'en' {
  // Counted in one pass: matching with /g built an array of every character (~0.1 ms per 4,000).
  let cjk = 0
  let latin = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if ((c >= 0x3400 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff)) cjk++
    else if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) latin++
  }
  return cjk > 0 && cjk >= 0.2 * (cjk + latin) ? 'zh' : 'en'
}
