/**
 * A search provider spoken over HTTP with one small JSON protocol, so that any vendor (or a self-hosted
 * SearXNG, or an in-house adapter in front of a platform's discovery API) can sit behind it:
 *
 *   GET <url>?q=<shaped query>&keyword=<keyword>&platform=<platform>&from=<YYYY-MM-DD>&to=<YYYY-MM-DD>&limit=<n>
 *   Authorization: Bearer <key>                       (when a key is configured)
 *   `{platform}` in the URL is replaced by the platform.
 *
 * The answer is JSON with the results under `results`, `items`, `data` or `web.results`. Each result
 * needs a text (`text`, `content`, `snippet` or `description`) and a date (`published_at`,
 * `publishedDate`, `date` or `page_age`); `url`/`link`, `id`, `title`, `author`/`source`,
 * `author_followers`/`followers`, `author_city`, `language`, `source_kind` and engagement (`likes`,
 * `comments`, `shares`, `views`, top-level or under `engagement`) are used when present. Results
 * without text or date, or dated outside the window, are dropped. Only the first LIVE_RESULTS_PER_CALL
 * results are read, and their strings are cut to PROVIDER_LIMITS before anything else reads them.
 */
import { LIVE_RESULTS_PER_CALL, PROVIDER_LIMITS } from '../../catalog/evidence-rules'
import { detectLanguage, ProviderError, SOURCE_KINDS, type EvidenceItem, type EvidenceProvider, type EvidenceQuery, type Platform, type SourceKind } from '../evidence'
import { turn } from '../turns'
import { fetchJson, hostOf } from './call'

export interface SearchHttpOptions {
  role: 'native' | 'web'
  url: string
  key?: string
  timeoutMs: number
  /** Platforms a native provider discovers first-party content for. */
  platforms?: readonly Platform[]
}

/** The kind of first-party item each platform publishes. */
const NATIVE_KIND: Record<Platform, SourceKind> = { xiaohongshu: 'note', douyin: 'video', wechat: 'article' }

type Raw = Record<string, unknown>

/**
 * `s` cut to `max` UTF-16 units (not inside a surrogate pair). The cut is copied: a slice would keep the
 * provider's whole string alive as long as the item, or an excerpt of it in a cached answer.
 */
function clip(s: string, max: number): string {
  if (s.length <= max) return s
  const last = s.charCodeAt(max - 1)
  const end = last >= 0xd800 && last <= 0xdbff ? max - 1 : max
  return Buffer.from(s.slice(0, end), 'utf16le').toString('utf16le')
}

/** A string cut to `max`, then trimmed; undefined when blank. */
const str = (v: unknown, max: number = PROVIDER_LIMITS.fieldChars): string | undefined => (typeof v === 'string' ? clip(v, max).trim() || undefined : undefined)
const count = (v: unknown): number | undefined => {
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? Math.round(n) : undefined
}

function resultsOf(body: unknown): Raw[] | undefined {
  if (!body || typeof body !== 'object') return undefined
  const b = body as Raw
  const list = b.results ?? b.items ?? b.data ?? (b.web as Raw | undefined)?.results
  return Array.isArray(list) ? (list.filter((r) => r && typeof r === 'object') as Raw[]) : undefined
}

export class SearchHttpProvider implements EvidenceProvider {
  readonly name: string
  readonly role: 'native' | 'web'
  readonly timeoutMs: number

  constructor(private readonly o: SearchHttpOptions) {
    this.role = o.role
    this.timeoutMs = o.timeoutMs
    this.name = `${o.role === 'native' ? 'native-search' : 'web-search'} (${hostOf(o.url.replaceAll('{platform}', 'p'))})`
  }

  serves(platform: Platform): boolean {
    return this.role === 'web' || (this.o.platforms ?? []).includes(platform)
  }

  async search(q: EvidenceQuery, signal: AbortSignal): Promise<EvidenceItem[]> {
    const url = new URL(this.o.url.replaceAll('{platform}', q.platform))
    const day = (d: Date) => d.toISOString().slice(0, 10)
    for (const [k, v] of Object.entries({ q: q.q, keyword: q.keyword, platform: q.platform, from: day(q.from), to: day(q.to), limit: String(Math.min(q.limit, LIVE_RESULTS_PER_CALL)) })) {
      url.searchParams.set(k, v)
    }
    const headers: Record<string, string> = { accept: 'application/json' }
    if (this.o.key) headers.authorization = `Bearer ${this.o.key}`
    const body = await fetchJson(this.name, url.toString(), { headers, signal }, PROVIDER_LIMITS.searchResponseBytes)
    const results = resultsOf(body)
    if (!results) throw new ProviderError('bad_response', this.name, 'answered JSON without a results list')
    const items: EvidenceItem[] = []
    // However many it answers, no more than were asked for are read.
    for (const r of results.slice(0, LIVE_RESULTS_PER_CALL)) {
      await turn()
      const item = this.toItem(r, q)
      if (item && item.publishedAt >= q.from && item.publishedAt < q.to) items.push(item)
    }
    return items
  }

  private toItem(r: Raw, q: EvidenceQuery): EvidenceItem | null {
    const { textChars, titleChars } = PROVIDER_LIMITS
    const text = str(r.text, textChars) ?? str(r.content, textChars) ?? str(r.snippet, textChars) ?? str(r.description, textChars)
    const when = str(r.published_at) ?? str(r.publishedDate) ?? str(r.date) ?? str(r.page_age)
    const publishedAt = when ? new Date(when) : null
    if (!text || !publishedAt || Number.isNaN(publishedAt.getTime())) return null
    const url = str(r.url) ?? str(r.link) ?? null
    const id = str(r.id) ?? (typeof r.id === 'number' ? String(r.id) : undefined) ?? url
    if (!id) return null
    const e = (r.engagement && typeof r.engagement === 'object' ? r.engagement : r) as Raw
    const [likes, comments, shares, views] = [count(e.likes), count(e.comments), count(e.shares), count(e.views)]
    const hasEngagement = [likes, comments, shares, views].some((v) => v !== undefined)
    const native = this.role === 'native'
    const kind = str(r.source_kind) as SourceKind | undefined
    const title = str(r.title, titleChars) ?? ''
    const lang = str(r.language)?.toLowerCase()
    return {
      id,
      url,
      platform: native ? q.platform : 'web',
      retrieval: native ? 'native' : 'proxy',
      sourceKind: kind && SOURCE_KINDS.includes(kind) ? kind : native ? NATIVE_KIND[q.platform] : 'web_page',
      author: str(r.author) ?? str(r.source) ?? str(r.site) ?? (url ? safeHost(url) : null),
      authorFollowers: count(r.author_followers) ?? count(r.followers) ?? null,
      authorCity: str(r.author_city) ?? null,
      publishedAt,
      title,
      text,
      language: lang?.startsWith('zh') ? 'zh' : lang?.startsWith('en') ? 'en' : detectLanguage(`${title} ${text}`),
      engagement: hasEngagement ? { likes: likes ?? 0, comments: comments ?? 0, shares: shares ?? 0, views: views ?? null } : null,
      provider: this.name,
    }
  }
}

function safeHost(url: string): string | null {
  try {
    return new URL(url).host
  } catch {
    return null
  }
}
