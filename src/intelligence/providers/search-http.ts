/**
 * The `generic` provider: one small JSON search protocol, so that an in-house adapter in front of any
 * vendor or platform API can sit behind it:
 *
 *   GET <url>?q=<shaped query>&keyword=<keyword>&platform=<platform>&from=<YYYY-MM-DD>&to=<YYYY-MM-DD>&limit=<n>&page=<n>
 *   Authorization: Bearer <key>                       (when a key is configured)
 *   `{platform}` in the URL is replaced by the platform.
 *
 * The provider must return only results dated in [from, to): the service then trusts an answer shorter
 * than `limit` (or with `has_more: false`) to be all there is in the window. The answer is JSON with the
 * results under `results`, `items`, `data` or `web.results`. Each result needs a text (`text`, `content`,
 * `snippet` or `description`) and a date (`published_at`, `publishedDate`, `date` or `page_age`: ISO
 * 8601, read as UTC without a zone, epoch seconds, or a relative date); `url`/`link`, `id`, `title`,
 * `author`/`source`, `author_followers`/`followers`, `author_city`, `language`, `source_kind` and
 * engagement (`likes`, `comments`, `shares`, `views`, top-level or under `engagement`) are used when
 * present.
 */
import { LIVE_RESULTS_PER_CALL, PROVIDER_LIMITS } from '../../catalog'
import { ProviderError, SOURCE_KINDS, type EvidenceItem, type EvidenceQuery, type Platform, type SourceKind } from '../evidence'
import { fetchJson, hostOf as urlHost } from './vendor-call'
import { parseVendorDate } from './dates'
import { count, engagementOf, hostOf, languageOf, list, obj, str, type Raw } from './fields'
import {
  PagedProvider,
  VendorBase,
  type SearchCapabilities,
  type VendorAdapter,
  type VendorOptions,
  type VendorPage,
  type Window,
} from './paging'
import type { VendorFacts } from './provider-settings'

/** The generic protocol (docs/intelligence.md), as a web provider: the seller names its URL. */
export const GENERIC_WEB: VendorFacts = {
  docs: 'the JSON search protocol in docs/intelligence.md',
  timeoutMs: 12_000,
  maxPages: 1,
  hints: (settings) => {
    const url = new URL(settings.url)
    return /searx/i.test(url.host) || /\/search\/?$/.test(url.pathname) || url.searchParams.get('format') === 'json'
      ? [
          `WEB_SEARCH_URL looks like a SearXNG instance: set WEB_SEARCH_PROVIDER=searxng (and WEB_SEARCH_URL to the instance's address); the generic protocol is not SearXNG's API`,
        ]
      : []
  },
}

/** The same protocol as a native provider. */
export const GENERIC_NATIVE: VendorFacts = {
  docs: 'the same JSON search protocol; `{platform}` in NATIVE_SEARCH_URL is replaced by the platform',
  timeoutMs: 12_000,
  maxPages: 1,
  platforms: ['douyin', 'wechat'],
}

export interface SearchHttpOptions extends VendorOptions {
  role: 'native' | 'web'
  /** Platforms a native provider discovers first-party content for. */
  platforms?: readonly Platform[]
}

/** The kind of first-party item each platform publishes. */
export const NATIVE_KIND: Record<Platform, SourceKind> = { xiaohongshu: 'note', douyin: 'video', wechat: 'article' }

const day = (d: Date) => d.toISOString().slice(0, 10)

function resultsOf(body: unknown): Raw[] | undefined {
  const answer = obj(body)
  return list(answer.results ?? answer.items ?? answer.data ?? obj(answer.web).results)
}

export class SearchHttpAdapter extends VendorBase implements VendorAdapter {
  readonly role: 'native' | 'web'

  /** One page by default: the protocol's `page` is optional for providers. */
  constructor(private readonly options: SearchHttpOptions) {
    super(
      `${options.role === 'native' ? 'native-search' : 'web-search'} (${urlHost(options.url.replaceAll('{platform}', 'p'))})`,
      options,
      1,
    )
    this.role = options.role
  }

  serves(platform: Platform): boolean {
    return this.role === 'web' || (this.options.platforms ?? []).includes(platform)
  }

  /** The protocol sends `limit` (at most LIVE_RESULTS_PER_CALL): a longer answer is read that far. */
  readonly resultsRead = LIVE_RESULTS_PER_CALL

  capabilities(): SearchCapabilities {
    return { dateFilter: 'range', order: 'relevance' }
  }

  async page(query: EvidenceQuery, window: Window, page: number, _cursor: unknown, signal: AbortSignal): Promise<VendorPage> {
    const url = new URL(this.options.url.replaceAll('{platform}', query.platform))
    const limit = Math.min(query.limit, LIVE_RESULTS_PER_CALL)
    const params = {
      q: query.q,
      keyword: query.keyword,
      platform: query.platform,
      from: day(window.from),
      to: day(window.to),
      limit: String(limit),
      ...(page > 1 ? { page: String(page) } : {}),
    }
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
    const headers: Record<string, string> = { accept: 'application/json' }
    if (this.options.key) headers.authorization = `Bearer ${this.options.key}`
    const body = await fetchJson(this.name, url.toString(), { headers, signal }, PROVIDER_LIMITS.searchResponseBytes)
    const results = resultsOf(body)
    if (!results) throw new ProviderError('bad_response', this.name, 'answered JSON without a results list')
    const hasMore = obj(body).has_more
    return { results, more: typeof hasMore === 'boolean' ? hasMore : results.length >= limit }
  }

  item(raw: unknown, query: EvidenceQuery, now: number): EvidenceItem | 'undated' | null {
    const result = obj(raw)
    const { textChars, titleChars } = PROVIDER_LIMITS
    const text =
      str(result.text, textChars) ?? str(result.content, textChars) ?? str(result.snippet, textChars) ?? str(result.description, textChars)
    const url = str(result.url) ?? str(result.link) ?? null
    const id = str(result.id) ?? url
    if (!text || !id) return null
    const publishedAt = parseVendorDate(result.published_at ?? result.publishedDate ?? result.date ?? result.page_age, { now, zone: 0 })
    if (!publishedAt) return 'undated'
    const figures = result.engagement && typeof result.engagement === 'object' ? obj(result.engagement) : result
    const native = this.role === 'native'
    const kind = str(result.source_kind) as SourceKind | undefined
    const title = str(result.title, titleChars) ?? ''
    const named = str(result.author) ?? str(result.source)
    return {
      id,
      url,
      platform: native ? query.platform : 'web',
      retrieval: native ? 'native' : 'proxy',
      sourceKind: kind && SOURCE_KINDS.includes(kind) ? kind : native ? NATIVE_KIND[query.platform] : 'web_page',
      // A web page's publisher is its site, not a creator.
      author: native ? (named ?? null) : null,
      site: native ? null : (str(result.site) ?? named ?? hostOf(url)),
      authorFollowers: count(result.author_followers) ?? count(result.followers) ?? null,
      authorCity: str(result.author_city) ?? null,
      publishedAt,
      title,
      text,
      language: languageOf(result.language, title, text),
      engagement: engagementOf(count(figures.likes), count(figures.comments), count(figures.shares), count(figures.views)),
      provider: this.name,
    }
  }
}

/** The generic protocol as an evidence provider. */
export class SearchHttpProvider extends PagedProvider {
  constructor(options: SearchHttpOptions) {
    super(new SearchHttpAdapter(options))
  }
}
