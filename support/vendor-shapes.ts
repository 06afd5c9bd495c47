/**
 * Vendor answers built from scenario documents, in each vendor's documented shape (the fixtures in
 * ./fixtures are the reference: `shape-of` tests check that what these builders write has the same
 * structure). Local servers answer with them, so the adapters are tested against what the vendors send,
 * not against our own protocol. Sources of every shape: ./README.md.
 */

/** One post, note, video, article or page of a scenario. `at`: ms since epoch, a raw date text as the vendor would write it, or null (undated). */
export interface Doc {
  id: string
  title?: string
  text: string
  at: number | string | null
  author?: string
  authorId?: string
  followers?: number
  likes?: number
  comments?: number
  shares?: number
  views?: number
  url?: string
  site?: string
}

const seconds = (ms: number) => Math.floor(ms / 1000)
/** ISO 8601 without a zone (how SearXNG serialises Python's naive datetimes). */
const naiveIso = (ms: number) => new Date(ms).toISOString().slice(0, 19)
/** ISO 8601 with the China offset (how Bocha writes datePublished). */
const cstIso = (ms: number) => `${new Date(ms + 8 * 3_600_000).toISOString().slice(0, 19)}+08:00`

// ---- SearXNG (GET /search?format=json) ----

export function searxngResult(doc: Doc, position: number) {
  const url = doc.url ?? `https://${doc.site ?? 'news.example.cn'}/a/${doc.id}`
  const parsed = new URL(url)
  return {
    url,
    title: doc.title ?? '',
    content: doc.text,
    engine: 'bing',
    parsed_url: [parsed.protocol.slice(0, -1), parsed.host, parsed.pathname, '', '', ''],
    template: 'default.html',
    engines: ['bing'],
    positions: [position],
    score: 1 / position,
    category: 'general',
    publishedDate: typeof doc.at === 'number' ? naiveIso(doc.at) : doc.at,
  }
}

export function searxngPage(query: string, docs: Doc[], firstPosition = 1) {
  return {
    query,
    number_of_results: 0,
    results: docs.map((d, i) => searxngResult(d, firstPosition + i)),
    answers: [],
    corrections: [],
    infoboxes: [],
    suggestions: [],
    unresponsive_engines: [],
  }
}

// ---- Bocha (POST /v1/web-search) ----

export function bochaValue(doc: Doc, index: number) {
  const url = doc.url ?? `https://${doc.site ?? 'www.36kr.com'}/p/${doc.id}`
  return {
    id: `https://api.bochaai.com/v1/#WebPages.${index}`,
    name: doc.title ?? '',
    url,
    displayUrl: url,
    snippet: doc.text.slice(0, 120),
    summary: doc.text,
    siteName: doc.site ?? '36氪',
    siteIcon: 'https://th.bochaai.com/favicon?domain_url=illustrative',
    datePublished: typeof doc.at === 'number' ? cstIso(doc.at) : doc.at,
    dateLastCrawled: typeof doc.at === 'number' ? new Date(doc.at).toISOString().replace('.000Z', 'Z') : '2026-11-24T00:00:00Z',
    cachedPageUrl: null,
    language: null,
    isFamilyFriendly: null,
    isNavigational: null,
  }
}

export function bochaPage(query: string, docs: Doc[], total: number, firstIndex = 0) {
  return {
    code: 200,
    log_id: 'c66aac031b5b35f0',
    msg: null,
    data: {
      _type: 'SearchResponse',
      queryContext: { originalQuery: query },
      webPages: {
        webSearchUrl: `https://bochaai.com/search?q=${encodeURIComponent(query)}`,
        totalEstimatedMatches: total,
        value: docs.map((d, i) => bochaValue(d, firstIndex + i)),
        someResultsRemoved: false,
      },
      images: null,
      videos: null,
    },
  }
}

// ---- TikHub ----

export function tikhubEnvelope(router: string, params: Record<string, unknown>, data: unknown) {
  const requestId = crypto.randomUUID()
  return {
    code: 200,
    request_id: requestId,
    message: 'Request successful. This request will incur a charge.',
    message_zh: '请求成功，本次请求将被计费。',
    support: 'Discord: https://discord.gg/aMEAS8Xsvz',
    time: '2026-11-24 18:00:00',
    time_stamp: seconds(Date.now()),
    time_zone: 'America/Los_Angeles',
    docs: null,
    cache_message: null,
    cache_message_zh: null,
    cache_url: `https://cache.tikhub.io/api/v1/cache/public/${requestId}?sign=0`,
    router,
    params,
    data,
  }
}

const epoch = (at: Doc['at']) => (typeof at === 'number' ? seconds(at) : at === null ? undefined : at)

export function xhsNote(doc: Doc) {
  return {
    model_type: 'note',
    note: {
      id: doc.id,
      xsec_token: 'ABillustrative=',
      type: 'normal',
      title: doc.title ?? '',
      desc: doc.text,
      liked_count: doc.likes ?? 0,
      comments_count: doc.comments ?? 0,
      collected_count: 0,
      shared_count: doc.shares ?? 0,
      ...(doc.at === null ? {} : { timestamp: epoch(doc.at) }),
      user: {
        userid: doc.authorId ?? `u-${doc.author}`,
        nickname: doc.author ?? '',
        images: 'https://sns-avatar-qc.xhscdn.com/avatar/illustrative.jpg',
      },
    },
  }
}

export const xhsSearch = (
  params: Record<string, unknown>,
  notes: Doc[],
  more: boolean,
  ids = { search_id: 'sid-1', search_session_id: 'sess-1' },
) =>
  tikhubEnvelope('/api/v1/xiaohongshu/app_v2/search_notes', params, {
    code: 0,
    success: true,
    msg: '成功',
    data: { ...ids, items: notes.map(xhsNote), ...(more ? {} : { has_more: false }) },
  })

export function douyinAweme(doc: Doc) {
  return {
    type: 1,
    aweme_info: {
      aweme_id: doc.id,
      desc: doc.text,
      ...(doc.at === null ? {} : { create_time: epoch(doc.at) }),
      author: {
        uid: `uid-${doc.authorId ?? doc.author}`,
        sec_uid: doc.authorId ?? `MS4wLjABAAAA${doc.author}`,
        nickname: doc.author ?? '',
        follower_count: doc.followers ?? 0,
        is_verified: false,
        region: 'CN',
      },
      statistics: {
        digg_count: doc.likes ?? 0,
        comment_count: doc.comments ?? 0,
        share_count: doc.shares ?? 0,
        play_count: doc.views ?? 0,
      },
      share_url: `https://www.iesdouyin.com/share/video/${doc.id}/`,
    },
  }
}

/** The search answer as captured (README): the next page's search id is `extra.logid` (= `log_pb.impr_id`), beside `backtrace`. */
export const douyinSearch = (params: Record<string, unknown>, videos: Doc[], cursor: number, more: boolean) => {
  const logid = `20261124180000${String(cursor).padStart(6, '0')}ILLUSTRATIVE`
  return tikhubEnvelope('/api/v1/douyin/search/fetch_video_search_v1', params, {
    status_code: 0,
    data: videos.map(douyinAweme),
    qc: '',
    cursor,
    has_more: more ? 1 : 0,
    ad_info: {},
    extra: { now: Date.now(), logid, fatal_item_ids: [], search_request_id: '', start_ms: Date.now(), scenes: null },
    log_pb: { impr_id: logid, search_source: 'normal_search', stab_extra: { traffic_identification: 'normal' } },
    guide_search_words: [],
    backtrace: `bt-${cursor}`,
  })
}

export function wechatArticle(doc: Doc) {
  return {
    docID: doc.id,
    title: doc.title ?? '',
    desc: doc.text,
    doc_url: doc.url ?? `https://mp.weixin.qq.com/s/${doc.id}`,
    // `date` and `timestamp` are epoch seconds; the relative wording ("3天前") is `source.dateTime`.
    ...(typeof doc.at === 'number' ? { date: epoch(doc.at), timestamp: epoch(doc.at) } : {}),
    source: { title: doc.author ?? '', dateTime: typeof doc.at === 'string' ? doc.at : '' },
    mpScene: 7,
    src_type: 49,
    jumpInfo: { userName: doc.authorId ?? `gh_${doc.id}`, nickName: doc.author ?? '' },
  }
}

/**
 * `raw: false`, as captured (README): the items flattened at `data.items`, paged by `cursor`; `offset` is the
 * server's own (here: where the next page starts), informational only per the spec.
 */
export const wechatSearch = (params: Record<string, unknown>, articles: Doc[], cursor: string, more: boolean) =>
  tikhubEnvelope('/api/v1/wechat_search/v2/fetch_search', params, {
    keyword: params.keyword,
    business_type: 2,
    continue_flag: more ? 1 : 0,
    offset: Number(params.offset ?? 0) + articles.length,
    cursor,
    categories: null,
    no_more: articles.length ? null : '没有更多的搜索结果',
    total: null,
    count: articles.length,
    items: articles.map(wechatArticle),
    debug_id: 'illustrative',
    debug_info: 'illustrative',
  })

/** `GET /api/v1/xiaohongshu/app_v2/get_user_info?user_id=` (fans both as a field and in `interactions`). */
export const xhsUserInfo = (userId: string, nickname: string, fans: number) =>
  tikhubEnvelope(
    '/api/v1/xiaohongshu/app_v2/get_user_info',
    { user_id: userId },
    {
      code: 0,
      success: true,
      msg: '成功',
      data: {
        userid: userId,
        nickname,
        red_id: '123456789',
        desc: '',
        fans,
        follows: 88,
        liked: 56_000,
        collected: 21_000,
        ndiscovery: 140,
        note_num_stat: { posted: 140, liked: 56_000, collected: 21_000 },
        interactions: [
          { type: 'follows', name: '关注', count: 88 },
          { type: 'fans', name: '粉丝', count: fans },
          { type: 'interaction', name: '获赞与收藏', count: 77_000 },
        ],
        ip_location: '上海',
      },
    },
  )

/** `GET /api/v1/douyin/app/v3/handler_user_profile?sec_user_id=`; a private account shows 0 everywhere. */
export const douyinProfile = (secUid: string, nickname: string, followers: number, secret = false) =>
  tikhubEnvelope(
    '/api/v1/douyin/app/v3/handler_user_profile',
    { sec_user_id: secUid },
    {
      status_code: 0,
      status_msg: null,
      extra: { now: Date.now() },
      user: {
        uid: '1234567890',
        sec_uid: secUid,
        unique_id: 'demo_id',
        short_id: '0',
        nickname,
        follower_count: secret ? 0 : followers,
        mplatform_followers_count: secret ? 0 : followers,
        following_count: 50,
        aweme_count: 300,
        total_favorited: 3_400_000,
        signature: '',
        secret: secret ? 1 : 0,
      },
    },
  )

// ---- OpenAI-compatible chat completions ----

export const chatCompletion = (content: string, usage = { prompt_tokens: 3120, completion_tokens: 412 }) => ({
  id: 'chatcmpl-illustrative',
  object: 'chat.completion',
  created: seconds(Date.now()),
  model: 'deepseek-chat',
  choices: [{ index: 0, message: { role: 'assistant', content }, logprobs: null, finish_reason: 'stop' }],
  usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
})

/** The structure of a JSON value: objects by their keys, arrays by their first element, leaves by type. */
export function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length ? [shapeOf(value[0])] : []
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, shapeOf((value as Record<string, unknown>)[k])]),
    )
  return value === null ? 'null' : typeof value
}
