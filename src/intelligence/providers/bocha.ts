/**
 * Bocha Web Search API (博查, https://open.bochaai.com): a commercial web search with Chinese coverage.
 *
 *   POST <base>/v1/web-search
 *   Authorization: Bearer <key>
 *   {"query": "...", "freshness": "oneMonth", "summary": true, "count": 50, "page": <n>}
 *
 * Answer: `{code, log_id, msg, data: {webPages: {totalEstimatedMatches, value: [{id, name, url, snippet,
 * summary, siteName, datePublished, dateLastCrawled, language}]}}}`. `datePublished` is ISO 8601 with the
 * China offset (+08:00); older answers have only `dateLastCrawled`, which is the publication time too,
 * written with a `Z` although it is Beijing time (Bocha's reference says to read it as +08:00).
 *
 * What Bocha's reference says, and what follows from it (sources in test/intelligence/vendors/README.md):
 * - `freshness` takes noLimit, oneDay, oneWeek, oneMonth, oneYear, a date or a `YYYY-MM-DD..YYYY-MM-DD`
 *   range, but warns that an explicit range is likely to find nothing and recommends letting its search
 *   rewrite the time range itself. So the narrowest named range holding the window is asked, results are
 *   kept by their own dates (the pager drops those outside the window), and how far back the evidence
 *   reaches is measured from those dates (dateFilter `recency`), never assumed from the range asked.
 * - `count` is a maximum ("the number returned may be smaller"): a short page is not the end of the list.
 *   Only an empty page, or the estimate of matches reached, ends it.
 * - Errors come as the HTTP status with `{code: "<status>", message}` (401 bad key, 403 insufficient
 *   balance, 429 rate limit, which scales with the account's top-up).
 * - `page` is in Bocha's earlier references only: an instance that ignores it answers page 1 again, and
 *   the pager stops there.
 */
import { PROVIDER_LIMITS } from '../../catalog'
import { ProviderError, type EvidenceItem, type EvidenceQuery } from '../evidence'
import { fetchJson } from './vendor-call'
import { parseVendorDate } from './dates'
import { count, hostOf, languageOf, list, obj, plain, str } from './fields'
import { WebVendorBase, type SearchCapabilities, type VendorAdapter, type VendorOptions, type VendorPage, type Window } from './paging'
import type { VendorFacts } from './provider-settings'

const BOCHA_URL = 'https://api.bochaai.com'

export const BOCHA: VendorFacts = {
  docs: `Bocha Web Search API; WEB_SEARCH_KEY required, WEB_SEARCH_URL defaults to ${BOCHA_URL}`,
  url: BOCHA_URL,
  keyRequired: true,
  timeoutMs: 12_000,
  maxPages: 3,
}

/** Results per page asked for: Bocha's maximum. */
export const BOCHA_PAGE_SIZE = 50
/** China Standard Time, minutes east of UTC: dates Bocha writes without a zone. */
const CST = 480
const DAY_MS = 86_400_000

/**
 * Bocha's named ranges with the fewest days each can mean (its reference does not define them: a month
 * is at least 28 days). Too wide a range only costs relevance; too narrow loses the window's start.
 * `oneDay` is never asked: it may mean the Beijing calendar day, less than the 24 hours a window spans.
 */
const RANGES = [
  ['oneWeek', 7],
  ['oneMonth', 28],
  ['oneYear', 365],
] as const

/** The narrowest named `freshness` that holds the window (counted back from now); `noLimit` past a year. */
export function bochaFreshness(window: Window, now: number): string {
  const days = (now - window.from.getTime()) / DAY_MS
  return RANGES.find(([, most]) => days <= most)?.[0] ?? 'noLimit'
}

export class BochaAdapter extends WebVendorBase implements VendorAdapter {
  constructor(options: VendorOptions, now?: () => number) {
    super('bocha', options, now)
  }

  capabilities(): SearchCapabilities {
    return { dateFilter: 'recency', order: 'relevance' }
  }

  async page(query: EvidenceQuery, window: Window, page: number, _cursor: unknown, signal: AbortSignal): Promise<VendorPage> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' }
    if (this.options.key) headers.authorization = `Bearer ${this.options.key}`
    const freshness = bochaFreshness(window, this.now())
    const body = await fetchJson(
      this.name,
      `${this.options.url.replace(/\/+$/, '')}/v1/web-search`,
      {
        method: 'POST',
        headers,
        signal,
        body: JSON.stringify({ query: query.q, freshness, summary: true, count: BOCHA_PAGE_SIZE, page }),
      },
      PROVIDER_LIMITS.searchResponseBytes,
    )
    const answer = obj(body)
    // Bocha also answers errors as HTTP 200 with its own code.
    const code = count(answer.code)
    if (code !== undefined && code !== 200)
      throw new ProviderError(
        code === 429 ? 'rate_limited' : 'unavailable',
        this.name,
        `answered code ${code}: ${str(answer.message ?? answer.msg, 200) ?? 'no message'}`,
      )
    const pages = obj(obj(answer.data).webPages)
    const results = list(pages.value) ?? (answer.data && obj(answer.data).webPages === undefined ? [] : undefined)
    if (!results)
      throw new ProviderError('bad_response', this.name, 'answered JSON without data.webPages.value (is this the Bocha web-search API?)')
    // `count` is a maximum: a short page says nothing about the next one; the estimate of matches does.
    const total = count(pages.totalEstimatedMatches)
    return { results, more: results.length > 0 && (total === undefined || page * BOCHA_PAGE_SIZE < total) }
  }

  item(raw: unknown, _q: EvidenceQuery, now: number): EvidenceItem | 'undated' | null {
    const result = obj(raw)
    const url = str(result.url) ?? null
    const title = plain(result.name, PROVIDER_LIMITS.titleChars) ?? ''
    const text = plain(result.summary, PROVIDER_LIMITS.textChars) ?? plain(result.snippet, PROVIDER_LIMITS.textChars) ?? title
    if (!url || !text) return null
    // The publication date; the crawl date says when Bocha saw the page, not when it was written.
    const crawled = typeof result.dateLastCrawled === 'string' ? result.dateLastCrawled.replace(/Z$/, '+08:00') : undefined
    const publishedAt = parseVendorDate(result.datePublished ?? crawled, { now, zone: CST })
    if (!publishedAt) return 'undated'
    return {
      id: url,
      url,
      platform: 'web',
      retrieval: 'proxy',
      sourceKind: 'web_page',
      author: null,
      site: str(result.siteName) ?? hostOf(url),
      authorFollowers: null,
      authorCity: null,
      publishedAt,
      title,
      text,
      language: languageOf(result.language, title, text),
      engagement: null,
      provider: this.name,
    }
  }
}
