/**
 * Paging a vendor's search until the window is covered, the vendor has nothing more, or the page budget
 * is spent, and saying honestly how much of the window the answer covers. Vendors return a page of
 * 10-50 results; many web engines ignore the date range they are sent and return recent pages only, so
 * "how far back the results reach" is measured from each answer, never assumed:
 *
 * - a result dated before the window's start proves the vendor reaches back past it;
 * - a vendor that filters by date range and has nothing more after some results has listed the window;
 * - otherwise the answer covers the window only from its oldest dated result on.
 *
 * Paging stops at the first of: the vendor has nothing more; a page brings no post the earlier pages did
 * not (a vendor that ignores the page number answers its first page again); for a vendor that lists newest
 * first, the results reach back past the window's start (every later result is older still); the page
 * budget or half the call's time. A vendor that ranks by relevance (SearXNG, Bocha) mixes dates on every
 * page: a result older than the window on page 1 says nothing of the window's posts on page 2, so it is
 * paged on. Only the budget is a cap: a vendor that lists newest first covers everything since its oldest
 * result even then, but one that ranks by relevance was cut short while new results were coming, so its
 * count is a lower bound (`capped`), however far back its results reach. Undated results, results outside
 * the window and repeats (by post, not by link: post-identity.ts) are dropped and counted.
 */
import { VENDOR_PAGE_RESULTS_MAX } from '../../catalog'
import {
  noneDropped,
  ProviderError,
  type Dropped,
  type EvidenceItem,
  type EvidenceProvider,
  type EvidenceQuery,
  type Platform,
  type SearchResult,
  type WindowCoverage,
} from '../evidence'
import { distinctPosts, postsOf } from '../names/post-identity'
import { turn } from '../turns'
import { hostOf } from './vendor-call'

export interface VendorPage {
  results: unknown[]
  /** Whether the vendor says (or a full page implies) that more results follow. */
  more: boolean
  /** The vendor's cursor for the next page, when it pages by cursor rather than by number. */
  next?: unknown
}

/** How a vendor searches one platform (or the web). */
export interface SearchCapabilities {
  /** `range`: filters by the dates asked for; `recency`: by a coarse range (day, week, month, year) engines may ignore; `none`. */
  dateFilter: 'range' | 'recency' | 'none'
  /** Newest first, or by relevance. */
  order: 'newest' | 'relevance'
}

export interface Window {
  from: Date
  to: Date
}

/** One vendor's search API: how to ask for a page and how to read one result. */
export interface VendorAdapter {
  /** Shown in answers and logs: the vendor and its host, never a key. */
  readonly name: string
  readonly role: 'native' | 'web'
  readonly timeoutMs: number
  /** Pages asked for at most per window (each page is one paid request to the vendor). */
  readonly maxPages: number
  readonly pricePerRequestNanoUsd?: bigint
  serves(platform: Platform): boolean
  /** Whether its items name creators with follower counts (default: every platform it serves). */
  hasCreators?(platform: Platform): boolean
  capabilities(platform: Platform): SearchCapabilities
  /** Page `page` (1-based; `cursor` from the page before) of the results for `q` in `window`. */
  page(query: EvidenceQuery, window: Window, page: number, cursor: unknown, signal: AbortSignal): Promise<VendorPage>
  /** One result as evidence; `undated` when it has no readable date; null when it is not usable (no text or id). */
  item(raw: unknown, query: EvidenceQuery, now: number): EvidenceItem | 'undated' | null
  /**
   * A KOL request (`q.creators`): look up the follower counts search did not carry, within the vendor's
   * budget. Sets them on the items; returns the requests made.
   */
  creators?(items: EvidenceItem[], query: EvidenceQuery, signal: AbortSignal): Promise<number>
  /** Results read of one page, the first ones (default: all, VENDOR_PAGE_RESULTS_MAX kept, spread over time). */
  readonly resultsRead?: number
  /** `providers check`: findings about the vendor's behaviour (see EvidenceProvider.diagnose). */
  diagnose?(query: string, signal: AbortSignal): Promise<string[]>
}

/** What every vendor adapter is configured with (the SearchSettings of the configuration). */
export interface VendorOptions {
  url: string
  key?: string
  timeoutMs: number
  /** Pages asked for at most per window (default: the adapter's). */
  maxPages?: number
  /** What one request costs the seller, in nano-USD. */
  priceNanoUsd?: bigint
}

/** What every adapter keeps of its options: its name, time and page budget, and price per request. */
export abstract class VendorBase {
  readonly timeoutMs: number
  readonly maxPages: number
  readonly pricePerRequestNanoUsd?: bigint

  constructor(
    readonly name: string,
    options: VendorOptions,
    defaultPages: number,
  ) {
    this.timeoutMs = options.timeoutMs
    this.maxPages = options.maxPages ?? defaultPages
    if (options.priceNanoUsd !== undefined) this.pricePerRequestNanoUsd = options.priceNanoUsd
  }
}

/** A web-search adapter (SearXNG, Bocha): the broad lane, asked for every query, named by its vendor and host. */
export abstract class WebVendorBase extends VendorBase {
  readonly role = 'web' as const

  constructor(
    vendor: string,
    protected readonly options: VendorOptions,
    protected readonly now: () => number = Date.now,
  ) {
    super(`${vendor} (${hostOf(options.url)})`, options, 3)
  }

  serves(): boolean {
    return true
  }
}

/** Dropped results of one call, with those that carried nothing to read. */
export type PagedDropped = Dropped & { unreadable: number }

/** An adapter as an evidence provider: pages each window (see the module comment). */
export class PagedProvider implements EvidenceProvider {
  readonly name: string
  readonly role: 'native' | 'web'
  readonly timeoutMs: number
  readonly pricePerRequestNanoUsd?: bigint

  constructor(
    readonly adapter: VendorAdapter,
    private readonly now: () => number = Date.now,
  ) {
    this.name = adapter.name
    this.role = adapter.role
    this.timeoutMs = adapter.timeoutMs
    if (adapter.pricePerRequestNanoUsd !== undefined) this.pricePerRequestNanoUsd = adapter.pricePerRequestNanoUsd
  }

  serves(platform: Platform): boolean {
    return this.adapter.serves(platform)
  }

  hasCreators(platform: Platform): boolean {
    return this.adapter.hasCreators ? this.adapter.hasCreators(platform) : this.adapter.serves(platform)
  }

  async diagnose(query: string, signal: AbortSignal): Promise<string[]> {
    return this.adapter.diagnose ? this.adapter.diagnose(query, signal) : []
  }

  async search(query: EvidenceQuery, signal: AbortSignal): Promise<SearchResult & { dropped: PagedDropped }> {
    const caps = this.adapter.capabilities(query.platform)
    // A vendor that filters by date is asked for each compared window on its own (see EvidenceQuery.split).
    const windows: Window[] =
      query.split && caps.dateFilter === 'range'
        ? [
            { from: query.from, to: query.split },
            { from: query.split, to: query.to },
          ]
        : [{ from: query.from, to: query.to }]
    const dropped: PagedDropped = { ...noneDropped(), unreadable: 0 }
    const started = this.now()
    const runs = await Promise.all(windows.map((w) => this.window(query, w, caps, dropped, started, signal)))
    const partial = runs.map((r) => r.partial).filter(Boolean)
    // Another link to a post already kept (a share link, another URL form): one post is one post.
    const { kept: items, copies } = distinctPosts(runs.flatMap((r) => r.items))
    dropped.duplicate += copies.length
    const lookups = query.creators && this.adapter.creators ? await this.adapter.creators(items, query, signal) : 0
    return {
      items,
      coverage: runs.map((r) => r.coverage),
      dropped,
      requests: runs.reduce((n, r) => n + r.requests, 0) + lookups,
      ...(partial.length ? { partial: partial.join('; ') } : {}),
    }
  }

  private async window(
    query: EvidenceQuery,
    window: Window,
    caps: SearchCapabilities,
    dropped: PagedDropped,
    started: number,
    signal: AbortSignal,
  ) {
    const items: EvidenceItem[] = []
    const [from, to] = [window.from.getTime(), window.to.getTime()]
    let oldest = Infinity
    // Why paging stopped: the vendor had no more, a page brought nothing new, a newest-first vendor's results
    // reached back past the window's start, or the budget (pages, or half the call's time) ran out while new
    // results were coming.
    let stop: 'exhausted' | 'repeated' | 'reached' | 'budget' = 'budget'
    let requests = 0
    let partial: string | undefined
    let sampled = false
    let cursor: unknown
    // Every result of this window's pages, to tell a page that brings new posts from the same ones again.
    const answered: EvidenceItem[] = []
    for (let page = 1; page <= this.adapter.maxPages; page++) {
      // Another page only while it can still finish within the call's timeout.
      if (page > 1 && this.now() - started > this.timeoutMs / 2) break
      let vendorPage: VendorPage
      try {
        vendorPage = await this.adapter.page(query, window, page, cursor, signal)
      } catch (error) {
        // The first page decides the call; a later page that fails keeps what came before (it covers less).
        if (page === 1 || signal.aborted || !(error instanceof ProviderError)) throw error
        partial = `page ${page} failed (${error.kind}): ${error.message}`
        break
      }
      requests++
      const now = this.now()
      // Every result the page holds is read: the page is paid for (its size is bounded by the byte limit).
      // Our own protocol promises no more than it was asked for: only that many are read.
      const cut = this.adapter.resultsRead !== undefined && vendorPage.results.length > this.adapter.resultsRead
      const read: EvidenceItem[] = []
      for (const raw of cut ? vendorPage.results.slice(0, this.adapter.resultsRead) : vendorPage.results) {
        const wait = turn()
        if (wait) await wait
        const item = this.adapter.item(raw, query, now)
        if (item === null) dropped.unreadable++
        else if (item === 'undated') dropped.undated++
        else read.push(item)
      }
      const kept = evenlyOverTime(read, VENDOR_PAGE_RESULTS_MAX)
      // A sample: the window's count is then a lower bound, like a relevance-ranked answer cut short.
      if (kept.length < read.length) sampled = true
      const before = answered.length
      for (const item of kept) {
        const publishedMs = item.publishedAt.getTime()
        oldest = Math.min(oldest, publishedMs)
        answered.push(item)
        if (publishedMs < from || publishedMs >= to) {
          // A vendor that ignores the range answers the other window's items too: they are that window's.
          dropped.out_of_window++
          continue
        }
        items.push(item)
      }
      // Nothing more, and every result of this page read.
      if ((!vendorPage.more && !cut) || vendorPage.results.length === 0) {
        stop = 'exhausted'
        break
      }
      // Nothing new (a vendor that ignores the page asked for answers the same results again): no point asking on.
      if (page > 1 && !bringsNew(answered, before)) {
        stop = 'repeated'
        break
      }
      // Newest first, the results reach back past the window's start: every later page is older still. Ranked by
      // relevance, a later page holds posts of any date (the window's too), so a result older than the window
      // does not end the paging.
      if (caps.order === 'newest' && oldest <= from) {
        stop = 'reached'
        break
      }
      cursor = vendorPage.next
    }
    const reached = oldest <= from
    // A date-filtering vendor with nothing more has listed the window; but only results prove it looked
    // there (an empty answer may be an engine that found nothing for the range, or did not search it).
    const complete = reached || (stop === 'exhausted' && caps.dateFilter === 'range' && Number.isFinite(oldest))
    const coverage: WindowCoverage = {
      from: window.from,
      to: window.to,
      coveredFrom: complete ? window.from : Number.isFinite(oldest) ? new Date(Math.min(oldest, to)) : null,
      // A lower bound only when the budget (or a failed page) stopped paging while new results were coming,
      // ranked by relevance (newest first covers everything since its oldest result), or a page was sampled.
      capped: sampled || (stop === 'budget' && caps.order !== 'newest'),
    }
    return { items, coverage, requests, partial }
  }
}

/** Whether the results from `answered[before]` on hold a post that none of the results before them do. */
function bringsNew(answered: readonly EvidenceItem[], before: number): boolean {
  const earlier = new Set(answered.slice(0, before))
  return postsOf(answered).some((post) => post.every((item) => !earlier.has(item)))
}

/** At most `max` items, spread evenly over their dates (oldest and newest kept), in their dates' order. */
function evenlyOverTime(items: EvidenceItem[], max: number): EvidenceItem[] {
  if (items.length <= max) return items
  const byDate = [...items].sort((a, b) => a.publishedAt.getTime() - b.publishedAt.getTime())
  const step = (byDate.length - 1) / (max - 1)
  return Array.from({ length: max }, (_, i) => byDate[Math.round(i * step)]!)
}
