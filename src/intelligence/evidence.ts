/**
 * The evidence model shared by every provider and every China intelligence route: one normalised record
 * per post, note, video, article or web page, whatever provider found it.
 */
import type { Platform } from '../catalog'
import { withoutCredentials } from '../core'
import type { Matcher } from './analysis/relevance'

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
  /** The creator (a platform account); null for web pages, whose publisher is `site`. */
  author: string | null
  /** The creator's id on the platform, when the source gives one (nicknames are not unique). */
  authorId?: string | null
  /** The web site a web page was published on (its host), or null. */
  site?: string | null
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
  /**
   * How many items of the provider's results it stands for, when the provider read an evenly drawn sample
   * of a large candidate set (the corpus: READ_MAX_ROWS); 1 when unset. Counts add weights (countOf).
   */
  weight?: number
}

/** How many items `items` stand for (see EvidenceItem.weight): a count, estimated when some were sampled. */
export const countOf = (items: readonly EvidenceItem[]): number => items.reduce((n, item) => n + (item.weight ?? 1), 0)

/**
 * How many posts about what was asked `items` amount to: each counts as the items it stands for times its
 * relevance, so a passing mention (RELEVANCE.mention) counts as part of a post. What momentum compares.
 */
export const weightedCountOf = (items: readonly EvidenceItem[]): number =>
  items.reduce((n, item) => n + (item.weight ?? 1) * (item.relevance ?? 1), 0)

/** One provider call: which lane step, what to look for, and the time window [from, to). */
export interface EvidenceQuery {
  /**
   * Where the window splits into the windows an answer compares (a trend's prior and recent window):
   * a provider that filters by date range asks for each one on its own, so that its cap on results per
   * call counts each window rather than only the newest items of both.
   */
  split?: Date
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
  /** A KOL request: the creators' follower counts are wanted (a provider may look them up, at a cost). */
  creators?: boolean
}

export type ProviderFailure = 'timeout' | 'unavailable' | 'bad_response' | 'cancelled' | 'rate_limited'

/**
 * A provider could not answer; `kind` decides the API error (timeout -> 504, rate_limited -> 503, otherwise 502).
 * Its message reaches the buyer, /ready, the console and the CLI: it is redacted here, once, whatever a
 * vendor or a library put in it (a vendor may echo the key or the URL it was sent).
 */
export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderFailure,
    readonly provider: string,
    message: string,
    /** rate_limited: the provider's Retry-After, in seconds, when it said. */
    readonly retryAfterSeconds?: number,
  ) {
    const said = withoutCredentials(message)
    super(`${provider}: ${said.length > PROVIDER_MESSAGE_CHARS ? `${said.slice(0, PROVIDER_MESSAGE_CHARS - 1)}…` : said}`)
  }
}

/** Characters of a provider failure's message kept (a vendor's own words are summarised shorter, core/redact.ts). */
const PROVIDER_MESSAGE_CHARS = 400

/** A call never made (the paid request's time for the work was spent): the provider bills nothing for it. */
export class ProviderNotCalled extends ProviderError {}

/** Results a provider returned that are not evidence, by reason (relevance adds `off_topic` in the lanes). */
export interface Dropped {
  /** No publication date, or one that could not be read: it cannot be placed in a window. */
  undated: number
  /** Dated outside the window asked for (engines that ignore the date range return these). */
  out_of_window: number
  /** The same item again (another page, or another window's call). */
  duplicate: number
}

export const noneDropped = (): Dropped => ({ undated: 0, out_of_window: 0, duplicate: 0 })

/**
 * How much of a window one provider's answer covers. `from`: the earliest instant from which the items
 * are all the provider has for the query (or a fair page of it); null when it covers nothing (no dated
 * result). `capped`: it stopped at the page budget with more results left, in an order that is not
 * newest first, so the count of the window is a lower bound, not a volume.
 */
export interface WindowCoverage {
  from: Date
  to: Date
  coveredFrom: Date | null
  capped: boolean
}

/** What a provider call found: the items, how far they cover the window(s), and what it cost. */
export interface SearchResult {
  items: EvidenceItem[]
  /** One entry per window asked for (two when the query was split). */
  coverage: WindowCoverage[]
  dropped: Dropped
  /** HTTP requests made (pages); 0 for the embedded corpus. */
  requests: number
  /** Why paging stopped early, when a page after the first failed (the items of earlier pages are kept). */
  partial?: string
  /** The items are an evenly drawn sample: `read` of `candidates` matching rows (weighted, see EvidenceItem.weight). */
  sampled?: { candidates: number; read: number }
}

/** A source of evidence items. `timeoutMs` bounds each call; `signal` cancels it. */
export interface EvidenceProvider {
  readonly name: string
  /** native: first-party discovery of the platforms it `serves`; web: broad web evidence (proxy). */
  readonly role: 'native' | 'web'
  readonly timeoutMs: number
  serves(platform: Platform): boolean
  search(query: EvidenceQuery, signal: AbortSignal): Promise<SearchResult>
  /** What one request costs the seller, in nano-USD, when configured. */
  readonly pricePerRequestNanoUsd?: bigint
  /** The embedded corpus: no requests, nothing billed. */
  readonly local?: boolean
  /** Whether its items of a platform name creators with follower counts (what KOL shortlists score); default: every platform it serves. */
  hasCreators?(platform: Platform): boolean
  /** `providers check`: what this vendor's own behaviour costs the answers, each with the setting that fixes it (billed requests). */
  diagnose?(query: string, signal: AbortSignal): Promise<string[]>
}

/** Whether a native provider's items of a platform name creators with follower counts. */
export const creatorsOn = (p: EvidenceProvider, platform: Platform): boolean =>
  p.serves(platform) && (p.hasCreators ? p.hasCreators(platform) : true)

/** Who published an item: its creator, else its web site, else the item itself (for diversity counts). */
export const publisherOf = (item: EvidenceItem): string => item.author ?? item.site ?? item.id

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
    const code = text.charCodeAt(i)
    if ((code >= 0x3400 && code <= 0x9fff) || (code >= 0xf900 && code <= 0xfaff)) cjk++
    else if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) latin++
  }
  return cjk > 0 && cjk >= 0.2 * (cjk + latin) ? 'zh' : 'en'
}
