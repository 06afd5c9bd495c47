/**
 * The TikHub adapter against a local server that answers as TikHub documents (fixtures and shapes in
 * this folder, answers captured from the real API in fixtures/tikhub/, sources in README.md): what it asks
 * for, checked against the excerpt of TikHub's OpenAPI spec in contracts/, how it reads the three
 * platforms' results, its paging, and TikHub's failures (rate limits, keys, a failed platform call inside
 * a 200, HTML).
 */
import { describe, expect, test } from 'bun:test'
import type { EvidenceQuery, Platform } from '../../../src/intelligence/evidence'
import { PagedProvider } from '../../../src/intelligence/providers/paging'
import { TikhubAdapter } from '../../../src/intelligence/providers/tikhub'
import { failure, fileServers, json } from '../../../support/loopback'
import {
  douyinAweme,
  douyinProfile,
  douyinSearch,
  shapeOf,
  wechatArticle,
  wechatSearch,
  xhsNote,
  xhsSearch,
  xhsUserInfo,
  type Doc,
} from '../../../support/vendor-shapes'
import { campingQuery, signal } from '../../../support/evidence-query'

const DAY = 86_400_000
/** The fixtures' moment: TikHub's time_stamp in them (2026-11-25T02:00:00Z). */
const NOW = 1_795_572_000_000
const fixture = async (name: string) => (await Bun.file(`${import.meta.dir}/fixtures/${name}.json`).json()) as Record<string, any>
/** Real answers of the API (README names their sources). */
const captured = (name: string) => fixture(`tikhub/${name}.captured`)

const serve = fileServers()

const provider = (url: string, o: { platforms?: Platform[]; maxPages?: number; now?: number } = {}) => {
  const now = o.now ?? NOW
  return new PagedProvider(
    new TikhubAdapter(
      { url, key: 'th-secret', timeoutMs: 5000, maxPages: o.maxPages ?? 3, platforms: o.platforms ?? ['xiaohongshu', 'douyin', 'wechat'] },
      () => now,
    ),
    () => now,
  )
}
const query = (platform: Platform, days = 30, now = NOW): EvidenceQuery => campingQuery({ platform, days, now })

describe('every request as the published spec has it (contracts/tikhub-openapi-excerpt.json)', () => {
  type Schema = Record<string, any>
  const contract = () => Bun.file(`${import.meta.dir}/contracts/tikhub-openapi-excerpt.json`).json() as Promise<Schema>

  /** Whether a value is of the schema's type and among the values it allows (its enum, or those its prose states). */
  const fits = (value: unknown, s: Schema): boolean => {
    const typed = (t?: string) =>
      t === 'integer' ? Number.isInteger(value) : t === 'null' ? value === null : t ? typeof value === t : true
    const allowed: unknown[] | undefined = s.enum ?? s['x-allowed-values']
    return (s.anyOf ? s.anyOf.some((a: Schema) => typed(a.type)) : typed(s.type)) && (!allowed || allowed.includes(value))
  }

  test('the values the excerpt lists beside the prose are in that prose', async () => {
    const spec = await contract()
    const listed: [unknown, string][] = []
    for (const op of Object.values(spec.paths).flatMap((p) => Object.values(p as Schema)) as Schema[])
      for (const prm of op.parameters ?? [])
        for (const v of prm.schema['x-allowed-values'] ?? []) listed.push([v, `${prm.description} ${op.description}`])
    for (const schema of Object.values(spec.components.schemas) as Schema[])
      for (const prop of Object.values(schema.properties ?? {}) as Schema[])
        for (const v of prop['x-allowed-values'] ?? []) listed.push([v, prop.description])
    expect(listed.length).toBeGreaterThan(20)
    for (const [v, prose] of listed) expect(prose).toContain(String(v))
  })

  test('paths, methods, parameter names, types and values of every request the adapter makes, searches and lookups', async () => {
    const spec = await contract()
    const doc = (id: string, followers?: number): Doc => ({
      id,
      text: `露营 ${id}`,
      at: NOW - DAY,
      author: 'a',
      authorId: `u-${id}`,
      followers,
    })
    const s = serve((_req, url, raw) => {
      const b = raw ? JSON.parse(raw) : {}
      const q = Object.fromEntries(url.searchParams)
      const page = Number(q.page ?? 1)
      if (url.pathname.endsWith('/search_notes')) return json(xhsSearch(q, [doc(`x${page}`)], page < 2))
      if (url.pathname.endsWith('/fetch_video_search_v1'))
        return json(douyinSearch(b, [doc(`d${b.cursor}`, 0)], b.cursor + 1, b.cursor < 1))
      if (url.pathname.endsWith('/fetch_search')) return json(wechatSearch(b, [doc(b.cursor ? 'w2' : 'w1')], 'c1', !b.cursor))
      if (url.pathname.endsWith('/get_user_info')) return json(xhsUserInfo(q.user_id!, 'a', 10))
      return json(douyinProfile(q.sec_user_id!, 'a', 10))
    })
    const p = provider(s.url)
    for (const platform of ['xiaohongshu', 'douyin', 'wechat'] as const)
      await p.search({ ...query(platform), split: undefined, creators: true }, signal())
    const misfits: string[] = []
    for (const r of s.requests) {
      const method = r.body ? 'post' : 'get'
      const op: Schema | undefined = spec.paths[r.url.pathname]?.[method]
      if (!op) {
        misfits.push(`${method} ${r.url.pathname}: not in the spec`)
        continue
      }
      if (!r.headers.get('authorization')?.startsWith('Bearer ')) misfits.push(`${r.url.pathname}: no bearer key`)
      // GET: query parameters (strings on the wire); POST: a JSON body of the operation's schema.
      const sent: [string, unknown][] = r.body ? Object.entries(JSON.parse(r.body)) : [...r.url.searchParams]
      const bodySchema: Schema | undefined = r.body
        ? spec.components.schemas[op.requestBody.content['application/json'].schema.$ref.split('/').pop()]
        : undefined
      const declared: Record<string, Schema> = bodySchema
        ? bodySchema.properties
        : Object.fromEntries(op.parameters.filter((x: Schema) => x.in === 'query').map((x: Schema) => [x.name, x.schema]))
      const required: string[] = bodySchema
        ? (bodySchema.required ?? [])
        : op.parameters.filter((x: Schema) => x.required).map((x: Schema) => x.name)
      for (const name of required) if (!sent.some(([k]) => k === name)) misfits.push(`${r.url.pathname}: ${name} missing`)
      for (const [name, value] of sent) {
        const schema = declared[name]
        const typed = !r.body && schema?.type === 'integer' && /^\d+$/.test(String(value)) ? Number(value) : value
        if (!schema) misfits.push(`${r.url.pathname}: ${name} is no parameter of it`)
        else if (!fits(typed, schema)) misfits.push(`${r.url.pathname}: ${name}=${JSON.stringify(value).slice(0, 40)} is not allowed`)
      }
    }
    expect(misfits).toEqual([])
    // Two pages of each search (the second with its paging parameters), and both lookups.
    expect(new Set(s.requests.map((r) => r.url.pathname))).toEqual(new Set(Object.keys(spec.paths)))
    expect(s.requests.filter((r) => /search_id=|"search_id":"2|"cursor":"c1"/.test(r.url.search + r.body))).toHaveLength(3)
  })
})

describe('Xiaohongshu: GET /api/v1/xiaohongshu/app_v2/search_notes', () => {
  test('asks newest first with the narrowest time filter and the key; reads notes, skips other result kinds, counts an undated note', async () => {
    const body = await fixture('tikhub-xiaohongshu-search-notes')
    // No "more" flag is documented for this search: the next page is asked for, and an empty one ends it.
    const s = serve((_req, url) =>
      url.searchParams.get('page') === '1' ? json(body) : json(xhsSearch(Object.fromEntries(url.searchParams), [], true)),
    )
    const r = await provider(s.url).search(query('xiaohongshu'), signal())
    const sent = s.requests[0]!
    expect(sent.url.pathname).toBe('/api/v1/xiaohongshu/app_v2/search_notes')
    expect(Object.fromEntries(sent.url.searchParams)).toEqual({
      keyword: '露营',
      page: '1',
      sort_type: 'time_descending',
      time_filter: '半年内',
    })
    expect(sent.headers.get('authorization')).toBe('Bearer th-secret')
    const [newer, older] = [...r.items].sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime())
    expect(newer).toMatchObject({
      id: 'xhs:6740f1a2000000001b01a2c3',
      url: 'https://www.xiaohongshu.com/explore/6740f1a2000000001b01a2c3',
      platform: 'xiaohongshu',
      retrieval: 'native',
      sourceKind: 'note',
      author: '山野小记',
      authorId: '5a0f00000000000000000001',
      authorFollowers: null,
      title: '周末露营装备清单',
      language: 'zh',
      engagement: { likes: 1520, comments: 88, shares: 41, views: null },
      publishedAt: new Date('2026-11-24T02:00:00Z'),
    })
    // Counts as Xiaohongshu writes them: 1.2万 likes, a digit string of comments; a title-less note is its text.
    expect(older).toMatchObject({
      title: '',
      text: '露营踩雷合集：这三样真的别买',
      engagement: { likes: 12_000, comments: 356, shares: 120, views: null },
    })
    expect(r.items).toHaveLength(2)
    expect(r.dropped.undated).toBe(1)
  })

  test('the next page sends the search_id and search_session_id of the first answer', async () => {
    const notes = (from: number, n: number): Doc[] =>
      Array.from({ length: n }, (_, i) => ({
        id: `n${from + i}`,
        text: `露营笔记 ${from + i}`,
        at: NOW - ((from + i) * DAY) / 2,
        author: `a${i % 5}`,
      }))
    const s = serve((_req, url) => {
      const page = Number(url.searchParams.get('page'))
      return json(
        xhsSearch(Object.fromEntries(url.searchParams), notes((page - 1) * 20, 20), true, {
          search_id: 'sid-42',
          search_session_id: 'sess-42',
        }),
      )
    })
    await provider(s.url, { maxPages: 2 }).search({ ...query('xiaohongshu'), split: undefined }, signal())
    expect(
      s.requests.map((r) => [
        r.url.searchParams.get('page'),
        r.url.searchParams.get('search_id'),
        r.url.searchParams.get('search_session_id'),
      ]),
    ).toEqual([
      ['1', null, null],
      ['2', 'sid-42', 'sess-42'],
    ])
  })

  test('every later page keeps the ids of the first answer, as the spec says, whatever later answers carry', async () => {
    const s = serve((_req, url) => {
      const page = Number(url.searchParams.get('page'))
      const notes: Doc[] = [{ id: `p${page}`, text: `露营笔记 ${page}`, at: NOW - page * 3_600_000, author: 'a' }]
      return json(
        xhsSearch(Object.fromEntries(url.searchParams), notes, true, { search_id: `sid-${page}`, search_session_id: `sess-${page}` }),
      )
    })
    await provider(s.url, { maxPages: 3 }).search({ ...query('xiaohongshu'), split: undefined }, signal())
    expect(s.requests.map((r) => [r.url.searchParams.get('search_id'), r.url.searchParams.get('search_session_id')])).toEqual([
      [null, null],
      ['sid-1', 'sess-1'],
      ['sid-1', 'sess-1'],
    ])
  })
})

describe('Douyin: POST /api/v1/douyin/search/fetch_video_search_v1', () => {
  test('asks for the latest videos of the window’s time filter; reads creators with followers (0 is unknown) and engagement', async () => {
    const body = await fixture('tikhub-douyin-video-search-v1')
    body.data.has_more = 0
    const s = serve(() => json(body))
    const r = await provider(s.url).search(query('douyin'), signal())
    const sent = s.requests[0]!
    expect(sent.url.pathname).toBe('/api/v1/douyin/search/fetch_video_search_v1')
    expect(JSON.parse(sent.body)).toEqual({
      keyword: '露营',
      cursor: 0,
      sort_type: '2',
      publish_time: '180',
      filter_duration: '0',
      content_type: '0',
      search_id: '',
      backtrace: '',
    })
    expect(r.items.find((i) => i.id === 'douyin:7440000000000000001')).toMatchObject({
      author: '露营老张',
      authorId: 'MS4wLjABAAAAillustrative01',
      authorFollowers: 286_000,
      sourceKind: 'video',
      url: 'https://www.iesdouyin.com/share/video/7440000000000000001/',
      engagement: { likes: 23_000, comments: 1200, shares: 450, views: null },
      publishedAt: new Date(1_795_500_000_000),
    })
    expect(r.items.find((i) => i.id === 'douyin:7440000000000000002')!.authorFollowers).toBeNull()
  })

  test('pages by cursor while has_more is 1, newest first, and stops once the videos reach past the window', async () => {
    // Two videos a day for 90 days, ten a page.
    const videos: Doc[] = Array.from({ length: 180 }, (_, i) => ({
      id: `v${i}`,
      text: `露营 vlog ${i}`,
      at: NOW - Math.floor(i / 2) * DAY - 3_600_000,
      author: `c${i % 9}`,
      followers: 50_000,
    }))
    const s = serve((_req, _url, raw) => {
      const b = JSON.parse(raw)
      const at = b.cursor as number
      return json(douyinSearch(b, videos.slice(at, at + 10), at + 10, at + 10 < videos.length))
    })
    const r = await provider(s.url, { maxPages: 10 }).search({ ...query('douyin', 3), split: undefined }, signal())
    const bodies = s.requests.map((q) => JSON.parse(q.body))
    expect(bodies.map((b) => b.cursor)).toEqual([0, 10])
    // The second page continues the first answer's search: its log id and backtrace.
    expect(bodies.map((b) => [b.search_id, b.backtrace])).toEqual([
      ['', ''],
      [(douyinSearch({}, [], 10, true).data as { extra: { logid: string } }).extra.logid, 'bt-10'],
    ])
    expect(r.coverage[0]!.coveredFrom).toEqual(new Date(NOW - 6 * DAY))
    expect(r.items).toHaveLength(12)
    expect(r.dropped.out_of_window).toBe(8)
  })

  test('a captured answer: reads its video, and the next page sends its cursor, search id (extra.logid) and backtrace', async () => {
    const page1 = await captured('douyin-general-search-v1')
    const at = page1.time_stamp * 1000
    const s = serve((_req, _url, raw) => (JSON.parse(raw).cursor === 0 ? json(page1) : json(douyinSearch(JSON.parse(raw), [], 0, false))))
    const r = await provider(s.url, { now: at }).search({ ...query('douyin', 90, at), split: undefined }, signal())
    const second = JSON.parse(s.requests[1]!.body)
    expect(second).toMatchObject({ cursor: 20, search_id: '2026020517484919A801EBF16F8EC0F8C4', backtrace: page1.data.backtrace })
    expect(page1.data.log_pb.impr_id).toBe(second.search_id)
    expect(r.items[0]).toMatchObject({
      id: 'douyin:7584769166932233472',
      authorId: page1.data.data[0].aweme_info.author.sec_uid,
      // follower_count 0 in search: unknown, not zero.
      authorFollowers: null,
      engagement: { likes: 2816, comments: 1046, shares: 2298, views: null },
      publishedAt: new Date(1_765_966_706_000),
    })
  })
})

describe('WeChat: POST /api/v1/wechat_search/v2/fetch_search', () => {
  test('asks for articles, latest first; strips the highlight markup; keeps a 64-bit id only as a string; reads relative dates', async () => {
    const body = await fixture('tikhub-wechat-fetch-search')
    body.data.continue_flag = 0
    const s = serve(() => json(body))
    const r = await provider(s.url).search(query('wechat'), signal())
    expect(JSON.parse(s.requests[0]!.body)).toEqual({
      keyword: '露营',
      business_type: 'article',
      sort: 'latest',
      publish_time: 'half_year',
      offset: 0,
      raw: false,
    })
    expect(r.items.find((i) => i.id === 'wechat:9223372036854775001')).toMatchObject({
      title: '秋冬露营避坑指南',
      author: '户外生活研究所',
      authorId: 'gh_0123456789ab',
      authorFollowers: null,
      engagement: null,
      sourceKind: 'article',
      url: 'https://mp.weixin.qq.com/s/illustrative-article-1',
    })
    // An id JSON has already rounded is no id: the article's link is.
    const second = r.items.find((i) => i.url === 'https://mp.weixin.qq.com/s/illustrative-article-2')!
    expect(second.id).toBe('wechat:https://mp.weixin.qq.com/s/illustrative-article-2')
    expect(second.publishedAt).toEqual(new Date(NOW - 3 * DAY))
  })

  test('a captured answer: items at data.items; the next page sends its cursor verbatim (past 2 kB) with its offset, and ends on continue_flag 0', async () => {
    const page1 = await captured('wechat-fetch-search-account')
    const article = (await fixture('tikhub-wechat-fetch-search')).data.items[0]
    // Like TikHub, this server pages by the cursor only: an offset alone would answer the first page again.
    const s = serve((_req, _url, raw) => {
      const b = JSON.parse(raw)
      return json(
        b.cursor === page1.data.cursor ? { ...page1, data: { ...page1.data, continue_flag: 0, cursor: null, items: [article] } } : page1,
      )
    })
    const r = await provider(s.url).search({ ...query('wechat'), split: undefined }, signal())
    const bodies = s.requests.map((q) => JSON.parse(q.body))
    expect(page1.data.cursor.length).toBeGreaterThan(2048)
    expect(bodies.map((b) => [b.cursor, b.offset])).toEqual([
      [undefined, 0],
      [page1.data.cursor, 13],
    ])
    expect(r.items.map((i) => i.id)).toEqual(['wechat:9223372036854775001'])
    // The captured items are official accounts (business_type account): no link, no date.
    expect(r.dropped.undated + r.dropped.unreadable).toBe(2)
  })

  test('continue_flag 1 without a cursor asks no more; an empty page with no_more is an answer, not a failure', async () => {
    const page1 = await captured('wechat-fetch-search-account')
    const s = serve(() => json({ ...page1, data: { ...page1.data, cursor: null, count: 0, items: [], no_more: '没有更多的搜索结果' } }))
    const r = await provider(s.url).search({ ...query('wechat'), split: undefined }, signal())
    expect([s.requests.length, r.items.length]).toEqual([1, 0])
  })

  test('official accounts publish no follower counts: WeChat is no source of creators to shortlist', () => {
    const p = provider('http://127.0.0.1:9')
    expect(['xiaohongshu', 'douyin', 'wechat'].map((x) => p.hasCreators(x as Platform))).toEqual([true, true, false])
  })
})

describe('where TikHub is', () => {
  test('the base URL is the configured one (api.tikhub.dev from mainland China): every request goes there, named by its host', async () => {
    const body = await fixture('tikhub-douyin-video-search-v1')
    body.data.has_more = 0
    const s = serve(() => json(body))
    const p = provider(`${s.url}/`)
    await p.search(query('douyin'), signal())
    expect([p.name, s.requests[0]!.url.pathname]).toEqual([
      `tikhub (${new URL(s.url).host})`,
      '/api/v1/douyin/search/fetch_video_search_v1',
    ])
  })
})

describe('failures as TikHub answers them', () => {
  test('429 with Retry-After is rate_limited; 401 names the key; neither echoes it', async () => {
    const limited = await fixture('tikhub-rate-limited')
    const s429 = serve(
      () => new Response(JSON.stringify(limited), { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '7' } }),
    )
    const e = await failure(provider(s429.url).search(query('douyin'), signal()))
    expect([e.kind, e.retryAfterSeconds]).toEqual(['rate_limited', 7])
    const s401 = serve(() => json({ detail: { code: 401, message_zh: '无效的API令牌，您提交的API令牌为 th-secret。' } }, 401))
    const denied = await failure(provider(s401.url).search(query('douyin'), signal()))
    expect(denied.kind).toBe('unavailable')
    expect(denied.message).toContain('HTTP 401 (check its key and plan)')
  })

  test('a platform call that failed inside a 200 envelope, an envelope code other than 200, or an HTML page fail the call', async () => {
    const failed = serve(() =>
      json({ ...douyinSearch({}, [], 0, false), data: { status_code: 2483, status_msg: 'search busy', data: [] } }),
    )
    expect((await failure(provider(failed.url).search(query('douyin'), signal()))).message).toContain(
      'the platform answered no results (search busy)',
    )
    const code = serve(() => json({ code: 402, message: 'Insufficient balance', data: null }))
    expect((await failure(provider(code.url).search(query('douyin'), signal()))).message).toContain(
      'answered code 402: Insufficient balance',
    )
    const html = serve(() => new Response('<!doctype html><title>Cloudflare</title>', { headers: { 'content-type': 'text/html' } }))
    const e = await failure(provider(html.url).search(query('douyin'), signal()))
    expect([e.kind, e.message.includes('answered HTML')]).toEqual(['bad_response', true])
  })

  test('a later page failing keeps the first page', async () => {
    const videos: Doc[] = Array.from({ length: 10 }, (_, i) => ({
      id: `v${i}`,
      text: `露营 ${i}`,
      at: NOW - i * DAY - 3_600_000,
      author: 'c',
      followers: 1000,
    }))
    let calls = 0
    const s = serve((_req, _url, raw) =>
      ++calls === 1 ? json(douyinSearch(JSON.parse(raw), videos, 10, true)) : new Response('bad gateway', { status: 502 }),
    )
    const r = await provider(s.url).search({ ...query('douyin'), split: undefined }, signal())
    expect(r.items).toHaveLength(10)
    expect(r.partial).toContain('page 2 failed (unavailable)')
  })
})

describe('the shapes the scenario servers write are the documented ones', () => {
  test('notes, videos and articles have the structure of the fixtures', async () => {
    const doc: Doc = {
      id: 'x',
      title: 't',
      text: '露营',
      at: NOW,
      author: 'a',
      authorId: 'u',
      followers: 1,
      likes: 1,
      comments: 1,
      shares: 1,
      views: 1,
    }
    const xhs = await fixture('tikhub-xiaohongshu-search-notes')
    const dy = await fixture('tikhub-douyin-video-search-v1')
    const wx = await fixture('tikhub-wechat-fetch-search')
    const keys = (v: unknown) => Object.keys(shapeOf(v) as object)
    expect(keys(xhsNote(doc).note)).toEqual(expect.arrayContaining(keys(xhs.data.data.items[0].note)))
    expect(shapeOf(douyinAweme(doc).aweme_info.author)).toMatchObject(
      shapeOf({ uid: '', sec_uid: '', nickname: '', follower_count: 0 }) as object,
    )
    for (const k of keys(dy.data.data[0].aweme_info.statistics).filter((k) => k !== 'collect_count'))
      expect(keys(douyinAweme(doc).aweme_info.statistics)).toContain(k)
    for (const k of ['docID', 'title', 'desc', 'doc_url', 'timestamp', 'source', 'mpScene', 'src_type', 'jumpInfo'])
      expect(keys(wechatArticle(doc))).toContain(k)
    // The envelopes and the search payloads are those of the captured answers; the scenario servers write the same.
    const [dyReal, wxReal] = [await captured('douyin-general-search-v1'), await captured('wechat-fetch-search-account')]
    for (const envelope of [xhs, dy, wx, wxReal, douyinSearch({}, [doc], 1, true), wechatSearch({}, [doc], 'c', true)])
      expect(keys(envelope)).toEqual(keys(dyReal))
    expect(keys(wx.data)).toEqual(keys(wxReal.data))
    expect(keys(wechatSearch({}, [doc], 'c', true).data)).toEqual(keys(wxReal.data))
    for (const d of [dy.data, douyinSearch({}, [doc], 1, true).data]) {
      expect(keys(dyReal.data)).toEqual(expect.arrayContaining(keys(d)))
      expect(keys(d)).toEqual(expect.arrayContaining(['status_code', 'data', 'cursor', 'has_more', 'extra', 'log_pb', 'backtrace']))
      expect(shapeOf(d.extra)).toEqual(shapeOf(dyReal.data.extra))
    }
    expect(keys((xhsSearch({}, [doc], true).data as { data: unknown }).data)).toEqual(expect.arrayContaining(keys(xhs.data.data)))
  })
})
