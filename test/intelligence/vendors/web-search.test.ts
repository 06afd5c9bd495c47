/**
 * The web-search adapters (SearXNG, Bocha) against local servers that answer as each vendor documents
 * (fixtures and shapes in this folder, sources in README.md): the request they make, how they read
 * results and dates, paging, and the quirks: an engine that ignores the time range, undated and
 * time-zone-less dates, JSON not enabled (HTML 403), every engine failing, rate limits, empty balance.
 */
import { describe, expect, test } from 'bun:test'
import type { EvidenceQuery } from '../../../src/intelligence/evidence'
import { BochaAdapter, bochaFreshness } from '../../../src/intelligence/providers/bocha'
import { PagedProvider } from '../../../src/intelligence/providers/paging'
import { SearxngAdapter } from '../../../src/intelligence/providers/searxng'
import { failure, fileServers, json } from '../../../support/loopback'
import { bochaPage, bochaValue, searxngPage, searxngResult, shapeOf, type Doc } from '../../../support/vendor-shapes'
import { campingQuery, signal } from '../../../support/evidence-query'

const DAY = 86_400_000
/** The fixtures' moment: 2026-11-25T02:00:00Z. */
const NOW = 1_795_572_000_000
const fixture = async (name: string) => (await Bun.file(`${import.meta.dir}/fixtures/${name}.json`).json()) as Record<string, any>

const serve = fileServers()

const query = (days = 30, split = true): EvidenceQuery =>
  campingQuery({ platform: 'xiaohongshu', step: 'web', q: '露营 小红书 笔记', days, now: NOW, ...(split ? {} : { split: false }) })
const searxng = (url: string, maxPages = 3) =>
  new PagedProvider(new SearxngAdapter({ url, timeoutMs: 5000, maxPages }, () => NOW), () => NOW)
const bocha = (url: string, maxPages = 3) =>
  new PagedProvider(new BochaAdapter({ url, key: 'sk-bocha', timeoutMs: 5000, maxPages }, () => NOW), () => NOW)

describe('SearXNG: GET /search?format=json', () => {
  test('asks for JSON and Chinese, never a time range (it silences engines without time-range support), page by page; reads results, undated ones counted', async () => {
    const body = await fixture('searxng-search')
    const s = serve((_req, url) => json(url.searchParams.get('pageno') === '1' ? body : searxngPage('露营', [])))
    // The instance's address as a seller writes it, with a trailing slash: /search is appended.
    const got = await searxng(`${s.url}/`).search(query(), signal())
    const sent = s.requests.map((q) => Object.fromEntries(q.url.searchParams))
    expect(s.requests[0]!.url.pathname).toBe('/search')
    // No time_range: searx/search/processors/abstract.py skips every engine without time-range support when one is set.
    expect(sent[0]).toEqual({
      q: '露营 小红书 笔记',
      format: 'json',
      categories: 'general',
      language: 'zh-CN',
      pageno: '1',
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
  /** `n` pages dated `from` days ago onwards, a day apart. */
  const docs = (n: number, from: number, prefix = 'b'): Doc[] =>
    Array.from({ length: n }, (_, i) => ({
      id: `${prefix}${from + i}`,
      title: '露营',
      text: `露营 ${from + i}`,
      at: NOW - (from + i) * DAY - 3_600_000,
    }))

  test('asks the whole span once, with the narrowest named range holding it, 50 a page, summaries and the key; reads dates as Bocha documents them', async () => {
    const body = await fixture('bocha-web-search')
    const s = serve((_req, _url, raw) => json(JSON.parse(raw).page === 1 ? body : bochaPage(JSON.parse(raw).query, [], 8230, 50)))
    const r = await bocha(`${s.url}/`).search(query(), signal())
    expect(s.requests.map((q) => q.url.pathname)).toEqual(['/v1/web-search', '/v1/web-search'])
    // 60 days back from now: more than a month can mean, so a year. A named range does not tell the compared windows apart: one span.
    expect(s.requests.map((q) => JSON.parse(q.body))).toEqual([
      { query: '露营 小红书 笔记', freshness: 'oneYear', summary: true, count: 50, page: 1 },
      { query: '露营 小红书 笔记', freshness: 'oneYear', summary: true, count: 50, page: 2 },
    ])
    expect(s.requests[0]!.headers.get('authorization')).toBe('Bearer sk-bocha')
    const first = r.items.find((i) => i.url === 'https://www.36kr.com/p/illustrative-1')!
    expect(first).toMatchObject({ site: '36氪', title: '露营热潮下的消费新趋势', publishedAt: new Date('2026-11-20T00:18:30Z') })
    expect(first.text).toContain('小红书上的露营笔记数量一年翻了一倍')
    // No datePublished: dateLastCrawled, whose Z is Beijing time.
    expect(r.items.find((i) => i.url === 'https://news.sohu.com/a/illustrative-2')!.publishedAt).toEqual(new Date('2026-11-18T13:00:00Z'))
  })

  test('named ranges: the narrowest that reaches back to the window start (a month is at least 28 days; never oneDay)', () => {
    const back = (days: number) => bochaFreshness({ from: new Date(NOW - days * DAY), to: new Date(NOW) }, NOW)
    expect([1, 7, 8, 28, 29, 365, 366].map(back)).toEqual(['oneWeek', 'oneWeek', 'oneMonth', 'oneMonth', 'oneYear', 'oneYear', 'noLimit'])
  })

  test('an explicit date range finds nothing (as Bocha warns), a named range does: results outside the window are dropped, an older one proves the reach', async () => {
    // As the reference describes it: a date range often comes back empty; a named range answers, by relevance, beyond the window too.
    const s = serve((_req, _url, raw) => {
      const b = JSON.parse(raw)
      if (b.freshness.includes('..') || b.page > 1) return json(bochaPage(b.query, [], 0))
      return json(bochaPage(b.query, [...docs(5, 1), ...docs(3, 40, 'old')], 8))
    })
    const r = await bocha(s.url).search(query(10, false), signal())
    expect(JSON.parse(s.requests[0]!.body).freshness).toBe('oneMonth')
    expect(r.items.map((i) => i.id)).toHaveLength(5)
    expect(r.dropped.out_of_window).toBe(3)
    expect(r.coverage.map((c) => [c.coveredFrom?.toISOString(), c.capped])).toEqual([[new Date(NOW - 20 * DAY).toISOString(), false]])
  })

  test('a short page is not the end (count is a maximum), and coverage reaches only as far back as the dates seen', async () => {
    // Pages of 12 and 9 although 50 were asked, then nothing: the evidence reaches back 20 days of the 60 asked.
    const s = serve((_req, _url, raw) => {
      const b = JSON.parse(raw)
      const page = [docs(12, 0), docs(9, 12), []][b.page - 1] ?? []
      return json(bochaPage(b.query, page, 8230, (b.page - 1) * 50))
    })
    const r = await bocha(s.url).search(query(30, false), signal())
    expect(s.requests.map((q) => JSON.parse(q.body).page)).toEqual([1, 2, 3])
    expect(r.items).toHaveLength(21)
    const [c] = r.coverage
    expect(r.coverage).toHaveLength(1)
    expect(c!.coveredFrom!.getTime()).toBe(NOW - 20 * DAY - 3_600_000)
    expect(c!.capped).toBe(false)
    // The estimate reached: a short page is the last one, and still covers only its own dates.
    const one = serve((_req, _url, raw) => json(bochaPage(JSON.parse(raw).query, docs(12, 0), 12)))
    const r1 = await bocha(one.url).search(query(30, false), signal())
    expect([one.requests.length, r1.coverage[0]!.coveredFrom!.getTime(), r1.coverage[0]!.capped]).toEqual([
      1,
      NOW - 11 * DAY - 3_600_000,
      false,
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
