/**
 * The web-search adapters (SearXNG, Bocha) against local servers that answer as each vendor documents
 * (fixtures and shapes in this folder, sources in README.md): the request they make, how they read
 * results and dates, paging, and the quirks: an engine that ignores the time range, undated and
 * time-zone-less dates, JSON not enabled (HTML 403), every engine failing, rate limits, empty balance.
 */
import { describe, expect, test } from 'bun:test'
import { ask } from '../../../src/intelligence/asked'
import { STATIC_ENTITIES } from '../../../src/intelligence/entities'
import type { EvidenceQuery } from '../../../src/intelligence/evidence'
import { BochaAdapter } from '../../../src/intelligence/providers/bocha'
import { PagedProvider } from '../../../src/intelligence/providers/paging'
import { SearxngAdapter } from '../../../src/intelligence/providers/searxng'
import { failure, fileServers, json } from '../support'
import { bochaPage, bochaValue, searxngPage, searxngResult, shapeOf, type Doc } from './shapes'

const DAY = 86_400_000
/** The fixtures' moment: 2026-11-25T02:00:00Z. */
const NOW = 1_795_572_000_000
const fixture = async (name: string) => (await Bun.file(`${import.meta.dir}/fixtures/${name}.json`).json()) as Record<string, any>

const serve = fileServers()

const query = (days = 30, split = true): EvidenceQuery => ({
  platform: 'xiaohongshu',
  step: 'web',
  keyword: '露营',
  match: ask(STATIC_ENTITIES, '露营').match,
  q: '露营 小红书 笔记',
  from: new Date(NOW - 2 * days * DAY),
  to: new Date(NOW),
  limit: 50,
  ...(split ? { split: new Date(NOW - days * DAY) } : {}),
})
const signal = () => new AbortController().signal
const searxng = (url: string, maxPages = 3) =>
  new PagedProvider(new SearxngAdapter({ url, timeoutMs: 5000, maxPages }, () => NOW), () => NOW)
const bocha = (url: string, maxPages = 3) =>
  new PagedProvider(new BochaAdapter({ url, key: 'sk-bocha', timeoutMs: 5000, maxPages }), () => NOW)

describe('SearXNG: GET /search?format=json', () => {
  test('asks for JSON, Chinese, the time range holding the window, page by page; reads results, undated ones counted', async () => {
    const body = await fixture('searxng-search')
    const s = serve((_req, url) => json(url.searchParams.get('pageno') === '1' ? body : searxngPage('露营', [])))
    // The instance's address as a seller writes it, with a trailing slash: /search is appended.
    const got = await searxng(`${s.url}/`).search(query(), signal())
    const sent = s.requests.map((q) => Object.fromEntries(q.url.searchParams))
    expect(s.requests[0]!.url.pathname).toBe('/search')
    // A 60-day span: `month` is too short, `year` holds it.
    expect(sent[0]).toEqual({
      q: '露营 小红书 笔记',
      format: 'json',
      categories: 'general',
      language: 'zh-CN',
      pageno: '1',
      time_range: 'year',
    })
    expect(sent.map((q) => q.pageno)).toEqual(['1', '2'])
    expect(got.items.map((i) => i.url)).toEqual([
      'https://www.sohu.com/a/illustrative-camping-1',
      'https://www.thepaper.cn/newsDetail_forward_illustrative',
    ])
    const [first, second] = got.items
    // A date without a zone is read as UTC; one with an offset as written.
    expect(first!.publishedAt).toEqual(new Date('2026-11-22T00:00:00Z'))
    expect(second!.publishedAt).toEqual(new Date('2026-11-20T09:30:00.153Z'))
    expect(first).toMatchObject({
      platform: 'web',
      retrieval: 'proxy',
      sourceKind: 'web_page',
      author: null,
      site: 'www.sohu.com',
      engagement: null,
      title: '2026露营装备清单：新手照着买',
    })
    expect(got.dropped.undated).toBe(1)
  })

  test('an instance that ignores the time range and answers recent pages only: covered only from its oldest result', async () => {
    // 12 results a page over the last 4 days, three pages: what many engines answer whatever the range.
    const docs: Doc[] = Array.from({ length: 36 }, (_, i) => ({
      id: `r${i}`,
      title: `露营 ${i}`,
      text: `露营笔记 ${i}`,
      at: NOW - (i % 4) * DAY - 3_600_000,
    }))
    const s = serve((_req, url) => {
      const page = Number(url.searchParams.get('pageno'))
      return json(searxngPage('露营', docs.slice((page - 1) * 12, page * 12), (page - 1) * 12 + 1))
    })
    const r = await searxng(s.url).search(query(90, false), signal())
    expect(s.requests).toHaveLength(3)
    expect(r.items).toHaveLength(36)
    expect(Math.round((NOW - r.coverage[0]!.coveredFrom!.getTime()) / DAY)).toBe(3)
    expect(r.coverage[0]!.capped).toBe(true)
  })

  test('JSON not enabled: the instance’s 403 page is reported with the setting to change', async () => {
    const page = await Bun.file(`${import.meta.dir}/fixtures/searxng-format-disabled-403.html`).text()
    const s = serve(() => new Response(page, { status: 403, headers: { 'content-type': 'text/html; charset=utf-8' } }))
    const e = await failure(searxng(s.url).search(query(), signal()))
    expect(e.kind).toBe('unavailable')
    expect(e.message).toContain('add `json` to search.formats')
  })

  test('the HTML result page (format ignored by a proxy in front) is bad_response', async () => {
    const s = serve(
      () =>
        new Response('<!DOCTYPE html><html><body><div id="results">露营</div></body></html>', { headers: { 'content-type': 'text/html' } }),
    )
    const e = await failure(searxng(s.url).search(query(), signal()))
    expect([e.kind, e.message.includes('answered HTML, not JSON')]).toEqual(['bad_response', true])
  })

  test('200 with no results and every engine unresponsive is a failure naming them, not “no evidence”', async () => {
    const body = await fixture('searxng-all-engines-failed')
    const s = serve(() => json(body))
    const e = await failure(searxng(s.url).search(query(), signal()))
    expect(e.message).toContain('every engine failed (baidu: CAPTCHA, bing: timeout, google: too many requests)')
  })

  test('the limiter’s 429 is rate_limited', async () => {
    const s = serve(
      () => new Response('IP is on BLOCKLIST - too many requests', { status: 429, headers: { 'content-type': 'text/plain' } }),
    )
    expect((await failure(searxng(s.url).search(query(), signal()))).kind).toBe('rate_limited')
  })
})

describe('Bocha: POST /v1/web-search', () => {
  test('asks each window as a date range in China time, 50 a page, with summaries and the key; reads dates as Bocha documents them', async () => {
    const body = await fixture('bocha-web-search')
    const s = serve(() => json(body))
    const r = await bocha(`${s.url}/`).search(query(), signal())
    expect(s.requests.map((q) => q.url.pathname)).toEqual(['/v1/web-search', '/v1/web-search'])
    const bodies = s.requests.map((q) => JSON.parse(q.body))
    // Windows [now - 60d, now - 30d) and [now - 30d, now) as Beijing dates, both ends inclusive (the day they share is split again by the exact times).
    expect(bodies).toEqual([
      { query: '露营 小红书 笔记', freshness: '2026-09-26..2026-10-26', summary: true, count: 50, page: 1 },
      { query: '露营 小红书 笔记', freshness: '2026-10-26..2026-11-25', summary: true, count: 50, page: 1 },
    ])
    expect(s.requests[0]!.headers.get('authorization')).toBe('Bearer sk-bocha')
    const first = r.items.find((i) => i.url === 'https://www.36kr.com/p/illustrative-1')!
    expect(first).toMatchObject({ site: '36氪', title: '露营热潮下的消费新趋势', publishedAt: new Date('2026-11-20T00:18:30Z') })
    expect(first.text).toContain('小红书上的露营笔记数量一年翻了一倍')
    // No datePublished: dateLastCrawled, whose Z is Beijing time.
    expect(r.items.find((i) => i.url === 'https://news.sohu.com/a/illustrative-2')!.publishedAt).toEqual(new Date('2026-11-18T13:00:00Z'))
  })

  test('pages while a page is full and the estimate says more; a short page with results lists the window', async () => {
    const docs = (n: number, from: number): Doc[] =>
      Array.from({ length: n }, (_, i) => ({
        id: `b${from + i}`,
        title: '露营',
        text: `露营 ${from + i}`,
        at: NOW - ((from + i) % 25) * DAY - 3_600_000,
      }))
    const s = serve((_req, _url, raw) => {
      const b = JSON.parse(raw)
      const prior = b.freshness.startsWith('2026-09')
      if (prior) return json(bochaPage(b.query, docs(12, 1000), 12))
      return json(bochaPage(b.query, docs(b.page === 1 ? 50 : 20, (b.page - 1) * 50), 70, (b.page - 1) * 50))
    })
    const r = await bocha(s.url).search(query(), signal())
    expect(s.requests.map((q) => JSON.parse(q.body).page)).toEqual([1, 1, 2])
    expect(r.coverage.map((c) => [c.coveredFrom?.toISOString(), c.capped])).toEqual([
      [new Date(NOW - 60 * DAY).toISOString(), false],
      [new Date(NOW - 30 * DAY).toISOString(), false],
    ])
  })

  test('an empty balance (403) and the rate limit (429) as Bocha answers them', async () => {
    const broke = await fixture('bocha-insufficient-balance')
    const s403 = serve(() => json(broke, 403))
    const e = await failure(bocha(s403.url).search(query(), signal()))
    expect(e.kind).toBe('unavailable')
    expect(e.message).toContain('You do not have enough money')
    const limited = await fixture('bocha-rate-limited')
    const s429 = serve(() => json(limited, 429))
    expect((await failure(bocha(s429.url).search(query(), signal()))).kind).toBe('rate_limited')
  })
})

describe('the shapes the scenario servers write are the documented ones', () => {
  test('SearXNG results and Bocha pages have the structure of the fixtures', async () => {
    const doc: Doc = { id: 'x', title: 't', text: '露营', at: NOW, site: 'www.sohu.com' }
    const sx = await fixture('searxng-search')
    const bo = await fixture('bocha-web-search')
    const keys = (v: unknown) => Object.keys(shapeOf(v) as object)
    for (const k of [
      'url',
      'title',
      'content',
      'engine',
      'parsed_url',
      'template',
      'engines',
      'positions',
      'score',
      'category',
      'publishedDate',
    ]) {
      expect(keys(searxngResult(doc, 1))).toContain(k)
      expect(keys(sx.results[0])).toContain(k)
    }
    expect(keys(searxngPage('q', [doc]))).toEqual(expect.arrayContaining(keys(sx)))
    expect(shapeOf(bochaValue(doc, 0))).toEqual(
      shapeOf({ ...bo.data.webPages.value[0], id: 'https://api.bochaai.com/v1/#WebPages.0', language: null }),
    )
    expect(keys(bochaPage('q', [doc], 1).data.webPages)).toEqual(keys(bo.data.webPages))
  })
})
