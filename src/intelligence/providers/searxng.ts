/**
 * SearXNG (https://docs.searxng.org/dev/search_api.html): a self-hosted metasearch engine.
 *
 *   GET <instance>/search?q=<query>&format=json&pageno=<n>&language=<zh-CN|all>&time_range=<day|week|month|year>&categories=general
 *
 * JSON is answered only when `json` is listed in the instance's `search.formats` (settings.yml); an
 * instance without it answers 403, which is reported with that fix. Results are `results[]` with `url`,
 * `title`, `content`, `engine`, `publishedDate` (ISO 8601 without a time zone, read as UTC, or null) and
 * more; a page holds ~10-20 results ranked by relevance, and there is no "more" flag: an empty page is
 * the end. `time_range` is coarse and many engines ignore it, so the pager measures how far back the
 * results reach instead of trusting it (dateFilter `recency`).
 */
import { PROVIDER_LIMITS } from '../../catalog/evidence-rules'
import { ProviderError, type EvidenceItem, type EvidenceQuery } from '../evidence'
import { fetchJson, hostOf as urlHost, ProviderHttpError } from './call'
import { parseVendorDate } from './dates'
import { hostOf, languageOf, list, obj, plain, str } from './fields'
import { VendorBase, type SearchCapabilities, type VendorAdapter, type VendorOptions, type VendorPage, type Window } from './paging'

const DAY_MS = 86_400_000
const HAN = /\p{Script=Han}/u

/** The narrowest of SearXNG's time ranges that still holds the window (none past a year). */
export function timeRange(window: Window, now: number): 'day' | 'week' | 'month' | 'year' | null {
  const days = (now - window.from.getTime()) / DAY_MS
  return days <= 1 ? 'day' : days <= 7 ? 'week' : days <= 31 ? 'month' : days <= 365 ? 'year' : null
}

export class SearxngAdapter extends VendorBase implements VendorAdapter {
  readonly role = 'web' as const

  constructor(
    private readonly options: VendorOptions,
    private readonly now: () => number = Date.now,
  ) {
    super(`searxng (${urlHost(options.url)})`, options, 3)
  }

  serves(): boolean {
    return true
  }

  capabilities(): SearchCapabilities {
    return { dateFilter: 'recency', order: 'relevance' }
  }

  async page(query: EvidenceQuery, window: Window, page: number, _cursor: unknown, signal: AbortSignal): Promise<VendorPage> {
    const url = new URL(`${this.options.url.replace(/\/+$/, '').replace(/\/search$/, '')}/search`)
    url.searchParams.set('q', query.q)
    url.searchParams.set('format', 'json')
    url.searchParams.set('categories', 'general')
    url.searchParams.set('language', HAN.test(query.q) ? 'zh-CN' : 'all')
    url.searchParams.set('pageno', String(page))
    const range = timeRange(window, this.now())
    if (range) url.searchParams.set('time_range', range)
    const headers: Record<string, string> = { accept: 'application/json' }
    // SearXNG has no keys of its own; a key is for a proxy in front of the instance.
    if (this.options.key) headers.authorization = `Bearer ${this.options.key}`
    let body: unknown
    try {
      body = await fetchJson(this.name, url.toString(), { headers, signal }, PROVIDER_LIMITS.searchResponseBytes)
    } catch (e) {
      if (e instanceof ProviderHttpError && e.status === 403) {
        throw new ProviderError(
          'unavailable',
          this.name,
          'answered HTTP 403: JSON output is not enabled on this instance (add `json` to search.formats in its settings.yml)',
        )
      }
      throw e
    }
    const results = list(obj(body).results)
    if (!results)
      throw new ProviderError('bad_response', this.name, 'answered JSON without a `results` list (is this a SearXNG /search endpoint?)')
    // SearXNG answers 200 with no results when every engine failed; it names them in unresponsive_engines.
    const failed = Array.isArray(obj(body).unresponsive_engines) ? (obj(body).unresponsive_engines as unknown[]) : []
    if (results.length === 0 && failed.length > 0 && page === 1) {
      const why = failed
        .slice(0, 5)
        .map((e) => (Array.isArray(e) ? e.map(String).join(': ') : String(e)))
        .join(', ')
      throw new ProviderError('unavailable', this.name, `every engine failed (${why})`)
    }
    return { results, more: results.length > 0 }
  }

  item(raw: unknown, _q: EvidenceQuery, now: number): EvidenceItem | 'undated' | null {
    const r = obj(raw)
    const url = str(r.url) ?? null
    const title = plain(r.title, PROVIDER_LIMITS.titleChars) ?? ''
    // A result without a snippet is still its title: what the engine says the page is about.
    const text = plain(r.content, PROVIDER_LIMITS.textChars) ?? title
    if (!url || !text) return null
    const publishedAt = parseVendorDate(r.publishedDate ?? r.pubdate, { now, zone: 0 })
    if (!publishedAt) return 'undated'
    const parsed = Array.isArray(r.parsed_url) ? str(r.parsed_url[1]) : undefined
    return {
      id: url,
      url,
      platform: 'web',
      retrieval: 'proxy',
      sourceKind: r.category === 'news' ? 'news' : 'web_page',
      author: null,
      site: parsed ?? hostOf(url),
      authorFollowers: null,
      authorCity: null,
      publishedAt,
      title,
      text,
      language: languageOf(undefined, title, text),
      engagement: null,
      provider: this.name,
    }
  }
}
