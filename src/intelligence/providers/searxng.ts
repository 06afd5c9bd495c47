/**
 * SearXNG (https://docs.searxng.org/dev/search_api.html) and searx, the code it grew from (Debian's
 * `searx` 1.1.0, run by the tests: support/searx.ts): self-hosted metasearch with the same API.
 *
 *   GET <instance>/search?q=<query>&format=json&pageno=<n>&language=<zh-CN|all>&categories=general
 *
 * What their code does, and what follows here:
 * - JSON is answered only when `json` is in the instance's `search.formats`; otherwise 403 (reported with that fix).
 * - `time_range` is never sent: with it set, an engine without time-range support is not asked at all
 *   (`searx/search/processors/abstract.py` in both), so the answer gets emptier, not narrower. Dates are
 *   filtered here instead, and the pager measures how far back the results reach.
 * - Dates: SearXNG writes `publishedDate` in ISO 8601 (`searx/webutils.py`, `isoformat()`); searx 1.1.0
 *   writes it for display ("Nov 24, 2026", "5 hour(s), 0 minute(s) ago", in the instance's locale) and
 *   the machine form in `pubdate` (`2026-11-24 08:10:38+0000`, `searx/webapp.py`). `pubdate` is read first.
 * - SearXNG's limiter (`server.limiter`, on in its install template) refuses `/search` with 429 unless
 *   `Accept` holds `text/html`, `Accept-Encoding` gzip or deflate, `Accept-Language` is set and the
 *   User-Agent is not a known tool's (`searx/botdetection/http_*.py`): these headers are sent. It also
 *   allows an address 4 JSON searches an hour (`ip_limit.py`, API_MAX): an instance of the seller's own
 *   needs this service's address in `pass_ip` of its `limiter.toml`, or the limiter off (docs/intelligence.md).
 *
 * Results are `results[]` with `url`, `title`, `content`, `engine`; a page merges every engine's results
 * ranked by relevance, and there is no "more" flag: an empty page is the end.
 */
import { PROVIDER_LIMITS } from '../../catalog'
import { ProviderError, type EvidenceItem, type EvidenceQuery } from '../evidence'
import { fetchJson, ProviderHttpError } from './vendor-call'
import { parseVendorDate } from './dates'
import { hostOf, languageOf, list, obj, plain, str } from './fields'
import { WebVendorBase, type SearchCapabilities, type VendorAdapter, type VendorOptions, type VendorPage, type Window } from './paging'
import type { VendorFacts } from './provider-settings'

export const SEARXNG: VendorFacts = {
  docs: 'a SearXNG instance: `/search`, `format=json`',
  timeoutMs: 12_000,
  maxPages: 3,
}

/** Not a tool's name that bot detection refuses (curl, python-requests, Go-http-client, …). */
const USER_AGENT = 'Mozilla/5.0 (compatible; china-market-intel)'
const HAN = /\p{Script=Han}/u

/** Headers that pass SearXNG's bot detection (see above), for a JSON client that is not a browser. */
export function searxHeaders(query: string): Record<string, string> {
  return {
    accept: 'application/json, text/html;q=0.1',
    'accept-encoding': 'gzip, deflate',
    'accept-language': HAN.test(query) ? 'zh-CN,zh;q=0.9,en;q=0.5' : 'en;q=0.9,*;q=0.5',
    'user-agent': USER_AGENT,
  }
}

export class SearxngAdapter extends WebVendorBase implements VendorAdapter {
  constructor(options: VendorOptions, now?: () => number) {
    super('searxng', options, now)
  }

  capabilities(): SearchCapabilities {
    // No date filter is sent (it silences engines): every date is checked here.
    return { dateFilter: 'none', order: 'relevance' }
  }

  private searchUrl(text: string, page: number, range?: string): string {
    const url = new URL(`${this.options.url.replace(/\/+$/, '').replace(/\/search$/, '')}/search`)
    url.searchParams.set('q', text)
    url.searchParams.set('format', 'json')
    url.searchParams.set('categories', 'general')
    url.searchParams.set('language', HAN.test(text) ? 'zh-CN' : 'all')
    url.searchParams.set('pageno', String(page))
    if (range) url.searchParams.set('time_range', range)
    return url.toString()
  }

  /**
   * What the instance does with this service's questions: the same question with and without a time range
   * (engines without time-range support are skipped when one is set: the reason none is sent), and how many
   * results carry a date this adapter reads. Two billed requests at most (SearXNG itself is free).
   */
  async diagnose(text: string, signal: AbortSignal): Promise<string[]> {
    const ask = async (range?: string) => {
      const body = await fetchJson(
        this.name,
        this.searchUrl(text, 1, range),
        { headers: this.headers(text), signal },
        PROVIDER_LIMITS.searchResponseBytes,
      )
      return list(obj(body).results) ?? []
    }
    const findings: string[] = []
    const plain = await ask()
    const ranged = await ask('month')
    if (plain.length > ranged.length)
      findings.push(
        `${this.name}: ${plain.length} results without time_range, ${ranged.length} with time_range=month: its engines without time-range support are skipped when a range is sent. This service sends none and filters dates itself; nothing to change.`,
      )
    const undated = plain.filter((r) => this.item(r, { q: text } as EvidenceQuery, this.now()) === 'undated').length
    if (undated > 0)
      findings.push(
        `${this.name}: ${undated} of ${plain.length} results have no date this service can read (engines that publish none): they are dropped, never placed in a window. Enable engines that date their results (news engines, platform engines) in the instance's settings.yml.`,
      )
    return findings
  }

  private headers(text: string): Record<string, string> {
    const headers = searxHeaders(text)
    // SearXNG has no keys of its own; a key is for a proxy in front of the instance.
    if (this.options.key) headers.authorization = `Bearer ${this.options.key}`
    return headers
  }

  async page(query: EvidenceQuery, _window: Window, page: number, _cursor: unknown, signal: AbortSignal): Promise<VendorPage> {
    const url = new URL(this.searchUrl(query.q, page))
    const headers = this.headers(query.q)
    let body: unknown
    try {
      body = await fetchJson(this.name, url.toString(), { headers, signal }, PROVIDER_LIMITS.searchResponseBytes)
    } catch (error) {
      if (error instanceof ProviderHttpError && error.status === 429 && error.retryAfterSeconds === undefined) {
        throw new ProviderError(
          'rate_limited',
          this.name,
          "answered HTTP 429 without Retry-After: SearXNG's limiter refuses this service (4 JSON searches an hour an address): add this service's address to pass_ip in the instance's limiter.toml, or set server.limiter: false on a private instance",
        )
      }
      if (error instanceof ProviderHttpError && error.status === 403) {
        throw new ProviderError(
          'unavailable',
          this.name,
          'answered HTTP 403: JSON output is not enabled on this instance (add `json` to search.formats in its settings.yml)',
        )
      }
      throw error
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
    const result = obj(raw)
    const url = str(result.url) ?? null
    const title = plain(result.title, PROVIDER_LIMITS.titleChars) ?? ''
    // A result without a snippet is still its title: what the engine says the page is about.
    const text = plain(result.content, PROVIDER_LIMITS.textChars) ?? title
    if (!url || !text) return null
    // SearXNG's publishedDate is ISO (with its fraction of a second); searx's is for display, so its pubdate comes first.
    const iso = typeof result.publishedDate === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(result.publishedDate)
    const dates = iso ? [result.publishedDate, result.pubdate] : [result.pubdate, result.publishedDate]
    const publishedAt = parseVendorDate(dates[0], { now, zone: 0 }) ?? parseVendorDate(dates[1], { now, zone: 0 })
    if (!publishedAt) return 'undated'
    const parsed = Array.isArray(result.parsed_url) ? str(result.parsed_url[1]) : undefined
    return {
      id: url,
      url,
      platform: 'web',
      retrieval: 'proxy',
      sourceKind: result.category === 'news' ? 'news' : 'web_page',
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
