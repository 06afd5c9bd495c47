/**
 * The TikHub adapter against a local server that answers as TikHub documents (fixtures and shapes in
 * this folder, sources in README.md): what it asks for, how it reads the three platforms' results, its
 * paging, and TikHub's failures (rate limits, keys, a failed platform call inside a 200, HTML).
 */
import { describe, expect, test } from 'bun:test'
import { ask } from '../../../src/intelligence/asked'
import { STATIC_ENTITIES } from '../../../src/intelligence/entities'
import type { EvidenceQuery, Platform } from '../../../src/intelligence/evidence'
import { PagedProvider } from '../../../src/intelligence/providers/paging'
import { TikhubAdapter } from '../../../src/intelligence/providers/tikhub'
import { failure, fileServers, json } from '../support'
import { douyinAweme, douyinSearch, shapeOf, wechatArticle, xhsNote, xhsSearch, type Doc } from './shapes'

const DAY = 86_400_000
/** The fixtures' moment: TikHub's time_stamp in them (2026-11-25T02:00:00Z). */
const NOW = 1_795_572_000_000
const fixture = async (name: string) => (await Bun.file(`${import.meta.dir}/fixtures/${name}.json`).json()) as Record<string, any>

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
const query = (platform: Platform, days = 30, now = NOW): EvidenceQuery => ({
  platform,
  step: 'native',
  keyword: '露营',
  match: ask(STATIC_ENTITIES, '露营').match,
  q: '露营',
  from: new Date(now - 2 * days * DAY),
  to: new Date(now),
  split: new Date(now - days * DAY),
  limit: 50,
})
const signal = () => new AbortController().signal

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
    expect(s.requests.map((q) => JSON.parse(q.body).cursor)).toEqual([0, 10])
    expect(r.coverage[0]!.coveredFrom).toEqual(new Date(NOW - 6 * DAY))
    expect(r.items).toHaveLength(12)
    expect(r.dropped.out_of_window).toBe(8)
  })
})

describe('WeChat: POST /api/v1/wechat_search/v2/fetch_search', () => {
  test('asks for articles, latest first; strips the highlight markup; keeps a 64-bit id only as a string; reads relative dates', async () => {
    const body = await fixture('tikhub-wechat-fetch-search')
    body.data.data.continue_flag = 0
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

  test('official accounts publish no follower counts: WeChat is no source of creators to shortlist', () => {
    const p = provider('http://127.0.0.1:9')
    expect(['xiaohongshu', 'douyin', 'wechat'].map((x) => p.hasCreators(x as Platform))).toEqual([true, true, false])
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
    expect(keys(wx.data.data)).toEqual(['continue_flag', 'cursor', 'items'])
    expect(keys((xhsSearch({}, [doc], true).data as { data: unknown }).data)).toEqual(expect.arrayContaining(keys(xhs.data.data)))
  })
})
