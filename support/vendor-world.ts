/**
 * One local server that answers as SearXNG, Bocha and TikHub do (the shapes of vendor-shapes.ts), from a
 * scenario's documents: what a seller's live providers would return for the same world. Each vendor
 * searches the way it is documented to (and as the issue found them to): SearXNG's engines index recent
 * pages only and ignore the time range, ranked by relevance; Bocha filters by the named range asked (or a date range),
 * ranked by relevance, 50 a page; TikHub lists each platform's newest posts first, 20 a page, within
 * its coarse time filters, and looks creators up by id. Every request is recorded.
 */
import type { Platform } from '../src/intelligence/evidence'
import { json, loopback, type Loopback } from './loopback'
import { bochaPage, douyinProfile, douyinSearch, searxngPage, wechatSearch, xhsSearch, xhsUserInfo, type Doc } from './vendor-shapes'

const DAY = 86_400_000

export interface WorldDocs {
  native: Record<Platform, Doc[]>
  web: Doc[]
}

export interface WorldOptions {
  /** SearXNG: how far back its engines' index reaches (they ignore time_range). Default 7 days. */
  searxngRecentDays?: number
  /** SearXNG: results a page. Default 12. */
  searxngPageSize?: number
  /** TikHub: results a page. Default 20. */
  tikhubPageSize?: number
  /** Douyin search carries follower counts (a real capture shows 0 for most creators: the default). */
  douyinSearchFollowers?: boolean
}

/** The search words of a query: the shaping words the lanes add are no search terms of the world. */
const SHAPING = new Set(['小红书', '笔记', '抖音', '视频', '公众号', '文章'])
export const termsOf = (q: string) =>
  q
    .split(/\s+/)
    .filter((t) => t && !SHAPING.has(t))
    .map((t) => t.toLowerCase())
const lowered = new WeakMap<Doc, string>()
const matches = (terms: string[], d: Doc) => {
  let text = lowered.get(d)
  if (text === undefined) lowered.set(d, (text = `${d.title ?? ''} ${d.text}`.toLowerCase()))
  return terms.some((t) => text.includes(t))
}
/** A document's time; a relative date ("2天前") is recent for the vendor's filters. */
const time = (d: Doc) => (typeof d.at === 'number' ? d.at : typeof d.at === 'string' ? Date.now() : null)
const newestFirst = (a: Doc, b: Doc) => (time(b) ?? 0) - (time(a) ?? 0) || a.id.localeCompare(b.id)
/** A stable "relevance" order: by a hash of the id, the same for every page of one query. */
const relevance = (a: Doc, b: Doc) => Bun.hash(a.id).toString().localeCompare(Bun.hash(b.id).toString())
/** Beijing midnight of a YYYY-MM-DD day, in ms. */
const cstDay = (day: string) => Date.parse(`${day}T00:00:00+08:00`)

export interface VendorWorld extends Loopback {
  /** Requests per vendor route so far. */
  count(prefix: string): number
}

export function vendorWorld(docs: WorldDocs | (() => WorldDocs), options: WorldOptions = {}, now: () => number = Date.now): VendorWorld {
  const world = () => (typeof docs === 'function' ? docs() : docs)
  const server = loopback((req, url, body) => {
    const worldDocs = world()
    const nowMs = now()
    if (url.pathname.endsWith('/search') && url.searchParams.get('format') === 'json') {
      const terms = termsOf(url.searchParams.get('q') ?? '')
      const page = Number(url.searchParams.get('pageno') ?? '1')
      const size = options.searxngPageSize ?? 12
      const indexed = worldDocs.web
        .filter((d) => matches(terms, d) && (time(d) === null || time(d)! >= nowMs - (options.searxngRecentDays ?? 7) * DAY))
        .sort(relevance)
      return json(searxngPage(url.searchParams.get('q') ?? '', indexed.slice((page - 1) * size, page * size), (page - 1) * size + 1))
    }
    if (url.pathname.endsWith('/v1/web-search') && req.method === 'POST') {
      const input = JSON.parse(body) as { query: string; freshness: string; count: number; page?: number }
      // Named ranges count back from now (a month as 30 days); an explicit range is Beijing days, both ends inclusive.
      const named = ({ oneDay: 1, oneWeek: 7, oneMonth: 30, oneYear: 365, noLimit: Infinity } as Record<string, number>)[input.freshness]
      const [from, to] = input.freshness.split('..') as [string, string]
      const [start, end] = named !== undefined ? [nowMs - named * DAY, Infinity] : [cstDay(from), cstDay(to ?? from) + DAY]
      const hits = worldDocs.web
        .filter((d) => matches(termsOf(input.query), d) && time(d) !== null && time(d)! >= start && time(d)! < end)
        .sort(relevance)
      const page = input.page ?? 1
      return json(bochaPage(input.query, hits.slice((page - 1) * input.count, page * input.count), hits.length, (page - 1) * input.count))
    }
    const size = options.tikhubPageSize ?? 20
    const within = (days: number) => (d: Doc) => time(d) !== null && (days === 0 || time(d)! >= nowMs - days * DAY)
    if (url.pathname.endsWith('/api/v1/xiaohongshu/app_v2/search_notes')) {
      const days = { 一天内: 1, 一周内: 7, 半年内: 180, 不限: 0 }[url.searchParams.get('time_filter') ?? '不限'] ?? 0
      const hits = worldDocs.native.xiaohongshu
        .filter((d) => matches(termsOf(url.searchParams.get('keyword') ?? ''), d))
        .filter(within(days))
        .sort(newestFirst)
      const page = Number(url.searchParams.get('page') ?? '1')
      return json(xhsSearch(Object.fromEntries(url.searchParams), hits.slice((page - 1) * size, page * size), page * size < hits.length))
    }
    if (url.pathname.endsWith('/api/v1/douyin/search/fetch_video_search_v1')) {
      const input = JSON.parse(body) as { keyword: string; cursor: number; publish_time: string }
      const hits = worldDocs.native.douyin
        .filter((d) => matches(termsOf(input.keyword), d))
        .filter(within(Number(input.publish_time)))
        .sort(newestFirst)
      const page = hits.slice(input.cursor, input.cursor + size).map((d) => (options.douyinSearchFollowers ? d : { ...d, followers: 0 }))
      return json(douyinSearch(input, page, input.cursor + size, input.cursor + size < hits.length))
    }
    // Creator profiles: the followers of the creator's documents.
    const creator = (id: string | null, docs: Doc[]) => docs.find((d) => d.authorId === id)
    if (url.pathname.endsWith('/api/v1/xiaohongshu/app_v2/get_user_info')) {
      const doc = creator(url.searchParams.get('user_id'), worldDocs.native.xiaohongshu)
      return doc
        ? json(xhsUserInfo(doc.authorId!, doc.author ?? '', doc.followers ?? 0))
        : json({ detail: { code: 404, message: 'user not found' } }, 404)
    }
    if (url.pathname.endsWith('/api/v1/douyin/app/v3/handler_user_profile')) {
      const doc = creator(url.searchParams.get('sec_user_id'), worldDocs.native.douyin)
      return doc
        ? json(douyinProfile(doc.authorId!, doc.author ?? '', doc.followers ?? 0))
        : json({ detail: { code: 404, message: 'user not found' } }, 404)
    }
    if (url.pathname.endsWith('/api/v1/wechat_search/v2/fetch_search')) {
      const input = JSON.parse(body) as { keyword: string; offset: number; cursor?: string; publish_time: string }
      const days = { day: 1, week: 7, half_year: 180, all: 0 }[input.publish_time] ?? 0
      const hits = worldDocs.native.wechat
        .filter((d) => matches(termsOf(input.keyword), d))
        .filter(within(days))
        .sort(newestFirst)
      // Pages by the cursor the answer before returned, as the spec says (`offset` alone does not page).
      const at = input.cursor ? Number(input.cursor.slice(1)) : 0
      return json(wechatSearch(input, hits.slice(at, at + size), `c${at + size}`, at + size < hits.length))
    }
    return new Response('not found', { status: 404 })
  })
  return { ...server, count: (prefix) => server.requests.filter((r) => r.url.pathname.includes(prefix)).length }
}

/**
 * A small world about 露营 (camping) over the last 120 days, as the three platforms and the web hold it:
 * Douyin videos doubling in the last 30 days, a steady stream of Xiaohongshu notes, WeChat articles
 * every few days, and web pages, some undated and some dated only relatively, plus posts about other
 * things. Creators have ids and follower counts.
 */
export function campingWorld(now: number): WorldDocs {
  const at = (daysAgo: number, k: number) => now - daysAgo * DAY - (k + 1) * 3_600_000
  const creators = Array.from({ length: 12 }, (_, i) => ({
    id: `cr${i}`,
    name: `露营达人${i}`,
    followers: [2_000, 15_000, 80_000, 250_000, 1_200_000, 6_000_000][i % 6]!,
  }))
  const tones = ['周末露营，强烈推荐', '露营装备踩雷了，太贵', '露营攻略分享 #精致露营', '第一次露营，体验超棒']
  const native: Record<Platform, Doc[]> = { xiaohongshu: [], douyin: [], wechat: [] }
  for (let d = 0; d < 120; d++) {
    for (let k = 0; k < 2; k++) {
      const creator = creators[(d + k) % creators.length]!
      native.xiaohongshu.push({
        id: `x${d}-${k}`,
        title: `露营笔记 ${d}`,
        text: `${tones[(d + k) % 4]} ${d}`,
        at: at(d, k),
        author: creator.name,
        authorId: creator.id,
        followers: creator.followers,
        likes: 200 + d,
        comments: 20,
        shares: 5,
      })
    }
    for (let k = 0; k < (d < 30 ? 4 : 2); k++) {
      const creator = creators[(d * 3 + k) % creators.length]!
      native.douyin.push({
        id: `v${d}-${k}`,
        text: `${tones[(d + k) % 4]} 露营vlog ${d}`,
        at: at(d, k),
        author: creator.name,
        authorId: creator.id,
        followers: creator.followers,
        likes: 800 + d,
        comments: 40,
        shares: 12,
        views: 9000,
      })
    }
    if (d % 3 === 0)
      native.wechat.push({
        id: `w${d}`,
        title: `露营指南第${d}期`,
        text: `秋冬露营怎么选营地 ${d}`,
        at: at(d, 0),
        author: '户外生活研究所',
        authorId: 'gh_outdoor',
      })
    // Car camping (车载露营, a topic of the cars category): the vendor finds 露营 in it; it is no evidence about camping.
    native.douyin.push({
      id: `o${d}`,
      text: `车载露营改装分享 ${d}`,
      at: at(d, 3),
      author: '改装车间',
      authorId: 'garage',
      followers: 30_000,
      likes: 90,
      comments: 3,
      shares: 1,
    })
  }
  const web: Doc[] = []
  for (let d = 0; d < 120; d++)
    web.push({ id: `p${d}`, title: `露营市场观察 ${d}`, text: `露营消费趋势报告 ${d}`, at: at(d, 0), site: `site${d % 7}.example.cn` })
  // Undated pages; and an article dated only "2天前", as WeChat search shows dates.
  for (let i = 0; i < 4; i++)
    web.push({ id: `undated${i}`, title: `露营攻略合集 ${i}`, text: '露营必备清单', at: null, site: 'guides.example.cn' })
  native.wechat.push({ id: 'wrel', title: '露营新玩法', text: '露营咖啡成了新宠', at: '2天前', author: '城市周末', authorId: 'gh_weekend' })
  return { native, web }
}
