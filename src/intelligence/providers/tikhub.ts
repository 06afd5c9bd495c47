/**
 * TikHub (https://api.tikhub.io; https://api.tikhub.dev from mainland China, same paths: the base URL is
 * `options.url`): first-party platform data for the native lanes, with creators and engagement. Every
 * answer is TikHub's envelope `{code, request_id, router, params, data}` around the platform's own payload,
 * which may carry its own status. Authentication is `Authorization: Bearer <key>`; 429 is a rate limit
 * (Retry-After), 401/403 a key or plan problem, 400/422 a request the API refused (422: FastAPI's
 * `{detail: [{loc, msg, type}]}`). TikHub asks for client timeouts of 30-60 s.
 *
 * - Xiaohongshu: `GET /api/v1/xiaohongshu/app_v2/search_notes?keyword&page&sort_type=time_descending&time_filter`
 *   (time_filter 一天内 / 一周内 / 半年内 / 不限); notes at `data.data.items[].note` (`id, title, desc,
 *   liked_count, comments_count, collected_count, shared_count, timestamp` in epoch seconds, `user{userid,
 *   nickname}`), non-note items skipped; every later page sends the `search_id` and `search_session_id`
 *   of the first answer. Search results carry no follower counts (the profiles below).
 * - Douyin: `POST /api/v1/douyin/search/fetch_video_search_v1` `{keyword, cursor, sort_type: "2" (latest),
 *   publish_time: "1" | "7" | "180" | "0", filter_duration, content_type, search_id, backtrace}`; videos
 *   at `data.data[].aweme_info` (`aweme_id, desc, create_time` in epoch seconds, `author{uid, sec_uid,
 *   nickname, follower_count}`, `statistics{digg_count, comment_count, share_count, play_count}`), paged by
 *   `data.cursor` while `data.has_more` is 1, each later page sending the previous answer's search id
 *   (`data.extra.logid`, also `data.log_pb.impr_id`) and `data.backtrace`; `data.status_code` 0 is success.
 * - WeChat: `POST /api/v1/wechat_search/v2/fetch_search` `{keyword, business_type: "article", sort: "latest",
 *   publish_time: "day" | "week" | "half_year" | "all", offset, cursor, raw: false}`; articles at
 *   `data.items[]` (`docID` as a string, `title` with highlight markup, `desc`, `doc_url`, `timestamp`
 *   in epoch seconds, `source.title` = the official account), paged by sending the answer's `data.cursor`
 *   back verbatim while `data.continue_flag` is 1 (`offset` alone does not page).
 *   Official accounts publish no follower counts or engagement in search.
 *
 * Creators (a KOL request): search carries no Xiaohongshu follower counts and Douyin's are 0 for most
 * creators, so the followers of the creators with the most posts (CREATOR_LOOKUPS a platform) are looked
 * up: `GET /api/v1/xiaohongshu/app_v2/get_user_info?user_id` (`data.data.fans`, or the `interactions` entry
 * of type `fans`) and `GET /api/v1/douyin/app/v3/handler_user_profile?sec_user_id` (`data.user.follower_count`;
 * a private account, `secret: 1`, shows 0: unknown). Each lookup is a billed request; counts are kept for a
 * day, so a creator is looked up once a day however many answers name them.
 *
 * All three list newest first, and their time filters are coarse: the pager measures coverage from the
 * dates. Paths, parameters and values are TikHub's OpenAPI spec (the excerpt in
 * test/intelligence/vendors/contracts/, checked by the tests); answer fields its descriptions and answers
 * captured by integrations (test/intelligence/vendors/README.md names the sources).
 */
import { CREATOR_LOOKUPS, PLATFORM_TOKENS, PROVIDER_LIMITS } from '../../catalog'
import { ProviderError, type EvidenceItem, type EvidenceQuery, type Platform } from '../evidence'
import { fetchJson, hostOf as urlHost } from './vendor-call'
import { parseVendorDate } from './dates'
import { count, engagementOf, languageOf, list, obj, plain, str, type Raw } from './fields'
import { VendorBase, type SearchCapabilities, type VendorAdapter, type VendorOptions, type VendorPage, type Window } from './paging'
import type { VendorFacts } from './provider-settings'

/** TikHub's documented minimum client timeout (its OpenAPI spec, V5.3.2: ">=30s and <=60s"). */
export const TIKHUB_MIN_TIMEOUT_MS = 30_000
const TIKHUB_URL = 'https://api.tikhub.io'

export const TIKHUB: VendorFacts = {
  docs: `TikHub's Xiaohongshu, Douyin and WeChat search endpoints, with authors, followers and engagement; NATIVE_SEARCH_KEY required, NATIVE_SEARCH_URL defaults to ${TIKHUB_URL}`,
  url: TIKHUB_URL,
  keyRequired: true,
  // A call covers all its pages, within the 90-s payment window.
  timeoutMs: TIKHUB_MIN_TIMEOUT_MS,
  maxPages: 3,
  platforms: PLATFORM_TOKENS,
  hints: (settings) => [
    // TikHub bills a request it answered even if we gave up waiting.
    ...(settings.timeoutMs < TIKHUB_MIN_TIMEOUT_MS
      ? [
          `NATIVE_SEARCH_TIMEOUT_MS=${settings.timeoutMs} is under TikHub's documented 30-60 s: calls it would still answer (and bill) are given up; set it to at least ${TIKHUB_MIN_TIMEOUT_MS}`,
        ]
      : []),
    ...(new URL(settings.url).host === 'api.tikhub.io'
      ? [
          'NATIVE_SEARCH_URL is https://api.tikhub.io, which mainland China cannot reach: a seller there sets https://api.tikhub.dev (same API)',
        ]
      : []),
  ],
}

export interface TikhubOptions extends VendorOptions {
  platforms?: readonly Platform[]
}

const DAY_MS = 86_400_000
/** Follower counts looked up kept this long (a creator's audience does not move by the hour). */
const FOLLOWERS_TTL_MS = DAY_MS
/** Lookups at once: TikHub allows 10 requests a second. */
const LOOKUP_CONCURRENCY = 4
/** Epoch seconds the platforms write; a date written as text is China time. */
const CST = 480

/** A paging token to send back as answered: opaque, so neither trimmed nor cut (a WeChat cursor runs past 2 kB). */
const token = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined)

/** The narrowest of a platform's coarse time filters that still holds the window. */
function timeFilter(window: Window, now: number, values: [day: string, week: string, halfYear: string, any: string]): string {
  const days = (now - window.from.getTime()) / DAY_MS
  return days <= 1 ? values[0] : days <= 7 ? values[1] : days <= 180 ? values[2] : values[3]
}

export class TikhubAdapter extends VendorBase implements VendorAdapter {
  readonly role = 'native' as const
  private readonly platforms: readonly Platform[]
  /** Follower counts looked up, by platform and creator id (null: looked up, not known). */
  private readonly followers = new Map<string, { count: number | null; until: number }>()

  constructor(
    private readonly options: TikhubOptions,
    private readonly now: () => number = Date.now,
  ) {
    super(`tikhub (${urlHost(options.url)})`, options, 3)
    this.platforms = options.platforms ?? PLATFORM_TOKENS
  }

  serves(platform: Platform): boolean {
    return this.platforms.includes(platform)
  }

  /** Official accounts have no follower counts: WeChat gives articles, not creators to shortlist. */
  hasCreators(platform: Platform): boolean {
    return this.serves(platform) && platform !== 'wechat'
  }

  capabilities(): SearchCapabilities {
    return { dateFilter: 'recency', order: 'newest' }
  }

  private async call(
    path: string,
    init: { query?: Record<string, string>; body?: Record<string, unknown> },
    signal: AbortSignal,
  ): Promise<Raw> {
    const url = new URL(`${this.options.url.replace(/\/+$/, '')}${path}`)
    for (const [k, v] of Object.entries(init.query ?? {})) url.searchParams.set(k, v)
    const headers: Record<string, string> = { accept: 'application/json' }
    if (this.options.key) headers.authorization = `Bearer ${this.options.key}`
    if (init.body) headers['content-type'] = 'application/json'
    const body = obj(
      await fetchJson(
        this.name,
        url.toString(),
        { method: init.body ? 'POST' : 'GET', headers, signal, ...(init.body ? { body: JSON.stringify(init.body) } : {}) },
        PROVIDER_LIMITS.searchResponseBytes,
      ),
    )
    const code = count(body.code)
    if (code === undefined || !('data' in body))
      throw new ProviderError('bad_response', this.name, "answered JSON without TikHub's envelope (code, data): is this the TikHub API?")
    if (code !== 200)
      throw new ProviderError(
        code === 429 ? 'rate_limited' : 'unavailable',
        this.name,
        `answered code ${code}: ${str(body.message, 200) ?? 'no message'}`,
      )
    return obj(body.data)
  }

  /** The platform's own status inside a 200 envelope: a failed platform call is a failed call. */
  private platformFailed(data: Raw, ok: boolean): never | void {
    if (!ok)
      throw new ProviderError(
        'unavailable',
        this.name,
        `the platform answered no results (${str(data.msg ?? data.message ?? data.status_msg, 200) ?? `status ${String(data.status_code ?? data.code)}`})`,
      )
  }

  async page(search: EvidenceQuery, window: Window, page: number, cursor: unknown, signal: AbortSignal): Promise<VendorPage> {
    const now = this.now()
    if (search.platform === 'xiaohongshu') {
      const ids = obj(cursor)
      const query: Record<string, string> = {
        keyword: search.q,
        page: String(page),
        sort_type: 'time_descending',
        time_filter: timeFilter(window, now, ['一天内', '一周内', '半年内', '不限']),
      }
      if (page > 1) Object.assign(query, { search_id: str(ids.search_id) ?? '', search_session_id: str(ids.search_session_id) ?? '' })
      const data = await this.call('/api/v1/xiaohongshu/app_v2/search_notes', { query }, signal)
      this.platformFailed(data, data.success !== false && (data.code === undefined || count(data.code) === 0))
      const inner = obj(data.data)
      const items = list(inner.items)
      if (!items) throw new ProviderError('bad_response', this.name, 'answered without data.data.items (Xiaohongshu search)')
      const notes = items.filter((i) => (i.model_type ?? 'note') === 'note')
      // The spec pages on the ids of the first search, whatever later answers say; they are in the inner
      // payload or beside it, depending on the answer.
      const next = {
        search_id: ids.search_id ?? inner.search_id ?? data.search_id,
        search_session_id: ids.search_session_id ?? inner.search_session_id ?? data.search_session_id,
      }
      const hasMore = inner.has_more ?? data.has_more
      return { results: notes, more: hasMore === undefined ? items.length > 0 : Boolean(hasMore) && hasMore !== 0, next }
    }
    if (search.platform === 'douyin') {
      const prev = obj(cursor)
      const data = await this.call(
        '/api/v1/douyin/search/fetch_video_search_v1',
        {
          body: {
            keyword: search.q,
            cursor: count(prev.cursor) ?? 0,
            sort_type: '2',
            publish_time: timeFilter(window, now, ['1', '7', '180', '0']),
            filter_duration: '0',
            content_type: '0',
            // A later page continues the same search: "obtained from the last response" (empty the first time).
            search_id: token(prev.search_id) ?? '',
            backtrace: token(prev.backtrace) ?? '',
          },
        },
        signal,
      )
      this.platformFailed(data, data.status_code === undefined || count(data.status_code) === 0)
      const results = list(data.data)
      if (!results) throw new ProviderError('bad_response', this.name, 'answered without data.data (Douyin video search)')
      const next = {
        cursor: count(data.cursor),
        // The search id is Douyin's log id: the spec's JSON paths for it are data.extra.logid and data.log_pb.impr_id.
        search_id: token(obj(data.extra).logid) ?? token(obj(data.log_pb).impr_id) ?? prev.search_id,
        backtrace: token(data.backtrace) ?? prev.backtrace,
      }
      return { results, more: count(data.has_more) === 1, next }
    }
    const prev = obj(cursor)
    const data = await this.call(
      '/api/v1/wechat_search/v2/fetch_search',
      {
        body: {
          keyword: search.q,
          business_type: 'article',
          sort: 'latest',
          publish_time: timeFilter(window, now, ['day', 'week', 'half_year', 'all']),
          // The cursor pages (sent back verbatim, with the same sort and time); the server's offset goes back
          // beside it as answered, 0 the first time: on its own it would answer the first page again.
          offset: count(prev.offset) ?? 0,
          ...(token(prev.cursor) ? { cursor: prev.cursor } : {}),
          raw: false,
        },
      },
      signal,
    )
    this.platformFailed(data, data.success !== false && (data.code === undefined || count(data.code) === 0))
    // raw=false flattens every result box into data.items; an empty page (data.no_more) is an answer, not a failure.
    const results = list(data.items)
    if (!results) throw new ProviderError('bad_response', this.name, 'answered without data.items (WeChat search)')
    const next = { cursor: token(data.cursor), offset: count(data.offset) }
    return { results, more: count(data.continue_flag) === 1 && next.cursor !== undefined, next }
  }

  /** Follower counts of the creators with the most posts that search left unknown (see the module comment). */
  async creators(items: EvidenceItem[], query: EvidenceQuery, signal: AbortSignal): Promise<number> {
    if (query.platform === 'wechat') return 0
    const now = this.now()
    const posts = new Map<string, number>()
    for (const i of items) if (i.authorId && i.authorFollowers === null) posts.set(i.authorId, (posts.get(i.authorId) ?? 0) + 1)
    const key = (id: string) => `${query.platform}|${id}`
    const wanted = [...posts.entries()]
      .filter(([id]) => !((this.followers.get(key(id))?.until ?? 0) > now))
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, CREATOR_LOOKUPS)
      .map(([id]) => id)
    let requests = 0
    const queue = [...wanted]
    await Promise.all(
      Array.from({ length: Math.min(LOOKUP_CONCURRENCY, queue.length) }, async () => {
        for (let id = queue.shift(); id !== undefined && !signal.aborted; id = queue.shift()) {
          requests++
          const count = await this.lookUp(query.platform, id, signal).catch(() => undefined)
          // A failed lookup is tried again next time; an answer (a number, or unknown) is kept.
          if (count !== undefined) this.followers.set(key(id), { count, until: now + FOLLOWERS_TTL_MS })
        }
      }),
    )
    for (const i of items) {
      if (i.authorFollowers !== null || !i.authorId) continue
      const known = this.followers.get(key(i.authorId))
      if (known && known.count !== null) i.authorFollowers = known.count
    }
    return requests
  }

  /** One creator's follower count; null when the profile does not say (a private account). */
  private async lookUp(platform: Platform, id: string, signal: AbortSignal): Promise<number | null> {
    if (platform === 'xiaohongshu') {
      const data = await this.call('/api/v1/xiaohongshu/app_v2/get_user_info', { query: { user_id: id } }, signal)
      const user = obj(data.data)
      const fans = count(user.fans) ?? count(list(user.interactions)?.find((x) => x.type === 'fans')?.count)
      return fans ?? null
    }
    const data = await this.call('/api/v1/douyin/app/v3/handler_user_profile', { query: { sec_user_id: id } }, signal)
    const user = obj(data.user)
    return user.secret === 1 || user.secret === true ? null : count(user.follower_count) || count(user.mplatform_followers_count) || null
  }

  item(raw: unknown, query: EvidenceQuery, now: number): EvidenceItem | 'undated' | null {
    const result = obj(raw)
    const { titleChars, textChars } = PROVIDER_LIMITS
    const base = { platform: query.platform, retrieval: 'native' as const, authorCity: null, provider: this.name }
    const dated = (v: unknown) => parseVendorDate(v, { now, zone: CST })
    if (query.platform === 'xiaohongshu') {
      const note = obj(result.note ?? result)
      const id = str(note.id) ?? str(note.note_id)
      const title = plain(note.title, titleChars) ?? ''
      const text = plain(note.desc, textChars) ?? title
      if (!id || !text) return null
      const publishedAt = dated(note.timestamp)
      if (!publishedAt) return 'undated'
      const user = obj(note.user)
      return {
        ...base,
        id: `xhs:${id}`,
        url: `https://www.xiaohongshu.com/explore/${id}`,
        sourceKind: 'note',
        author: str(user.nickname) ?? null,
        authorId: str(user.userid) ?? str(user.user_id) ?? null,
        authorFollowers: count(user.fans) ?? null,
        publishedAt,
        title,
        text,
        language: languageOf(undefined, title, text),
        engagement: engagementOf(count(note.liked_count), count(note.comments_count), count(note.shared_count)),
      }
    }
    if (query.platform === 'douyin') {
      const video = obj(result.aweme_info ?? result)
      const id = str(video.aweme_id)
      const text = plain(video.desc, textChars)
      if (!id || !text) return null
      const publishedAt = dated(video.create_time)
      if (!publishedAt) return 'undated'
      const author = obj(video.author)
      const stats = obj(video.statistics)
      const followers = count(author.follower_count)
      return {
        ...base,
        id: `douyin:${id}`,
        url: str(video.share_url) ?? `https://www.douyin.com/video/${id}`,
        sourceKind: 'video',
        author: str(author.nickname) ?? null,
        authorId: str(author.sec_uid) ?? str(author.uid) ?? null,
        // Search answers 0 for creators whose count it does not carry: unknown, not zero.
        authorFollowers: followers ? followers : null,
        publishedAt,
        title: '',
        text,
        language: languageOf(undefined, '', text),
        engagement: engagementOf(
          count(stats.digg_count),
          count(stats.comment_count),
          count(stats.share_count),
          count(stats.play_count) || undefined,
        ),
      }
    }
    // A 64-bit id written as a JSON number has lost digits: only a string id is an id; else the link.
    const id = typeof result.docID === 'string' ? str(result.docID) : undefined
    const url = str(result.doc_url) ?? null
    const title = plain(result.title, titleChars) ?? ''
    const text = plain(result.desc, textChars) ?? title
    if (!(id ?? url) || !text) return null
    const publishedAt = dated(result.timestamp) ?? dated(result.date) ?? dated(obj(result.source).dateTime)
    if (!publishedAt) return 'undated'
    return {
      ...base,
      id: `wechat:${id ?? url}`,
      url,
      sourceKind: 'article',
      author: str(obj(result.source).title) ?? str(obj(result.jumpInfo).nickName) ?? null,
      authorId: str(obj(result.jumpInfo).userName) ?? null,
      authorFollowers: null,
      publishedAt,
      title,
      text,
      language: languageOf(undefined, title, text),
      engagement: null,
    }
  }
}
