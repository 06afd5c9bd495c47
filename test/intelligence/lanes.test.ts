/**
 * Lane policies with live providers on loopback: douyin and wechat native first and broadened only when
 * thin (or failed), xiaohongshu a proxy read unless native evidence is strong; query shaping; and what
 * happens when every provider fails or finds nothing.
 */
import { describe, expect, test } from 'bun:test'
import type { ProviderSettings } from '../../src/intelligence/providers/provider-settings'
import { STRONG_NATIVE_EVIDENCE, THIN_EVIDENCE } from '../../src/catalog/evidence-rules'
import { ApiError } from '../../src/core/errors'
import { ask } from '../../src/intelligence/names/asked'
import { EntityIndex, STATIC_ENTITIES } from '../../src/intelligence/names/entities'
import { evidenceMode } from '../../src/intelligence/evidence'
import { gather } from '../../src/intelligence/lanes'
import { liveSources } from '../../src/intelligence/sources'
import { expectFellBackToWeb, series } from '../../support/china-evidence'
import { failure, fileServers, json, type Loopback } from '../../support/loopback'

const DAY = 86_400_000
const serve = fileServers()

/** A search server answering `count` items by `authors` authors, recording what it was asked (each server's posts its own). */
function searchServer(count: number, authors = 10, prefix = 'n', text = (i: number) => `露营 post ${prefix}${i}`): Loopback {
  return serve(() => json({ results: series({ text, perDay: (d) => (d === 0 ? count : 0), days: 1, authors, idPrefix: prefix }) }))
}
const failing = (status = 500) => serve(() => new Response('down', { status }))

function sources(o: { native?: Loopback; web?: Loopback; platforms?: ('xiaohongshu' | 'douyin' | 'wechat')[] }) {
  const p: ProviderSettings = {
    nativeSearch: o.native ? { url: o.native.url, timeoutMs: 5000, platforms: o.platforms ?? ['douyin', 'wechat'] } : null,
    webSearch: o.web ? { url: o.web.url, timeoutMs: 5000 } : null,
    llm: null,
  }
  return liveSources(p)
}
/** A lane request for a keyword, resolved like the routes do (here without dataset entities: 露营 is free text). */
function request(keyword: string, index = STATIC_ENTITIES) {
  const a = ask(index, keyword)
  return {
    typed: a.input,
    match: a.match,
    query: a.query,
    from: new Date(Date.now() - 60 * DAY),
    to: new Date(Date.now() + 1000),
    limit: 50,
  }
}
const window = () => request('露营')

describe('douyin and wechat: native first', () => {
  test('enough native evidence is the answer: the web provider is never called', async () => {
    const native = searchServer(THIN_EVIDENCE.items + 5)
    const web = searchServer(10, 3, 'w')
    const g = await gather(sources({ native, web }), 'douyin', window())
    expect(web.requests).toHaveLength(0)
    expect(evidenceMode(g.items)).toBe('native')
    expect(g.lanes[0]).toMatchObject({ platform: 'douyin', policy: 'native_first', native_sufficient: true, broadened: false })
  })

  test('thin native evidence is broadened to web evidence', async () => {
    const native = searchServer(THIN_EVIDENCE.items - 1)
    const web = searchServer(10, 3, 'w')
    const g = await gather(sources({ native, web }), 'douyin', window())
    expect(web.requests).toHaveLength(1)
    expect(evidenceMode(g.items)).toBe('mixed')
    expect(g.lanes[0]).toMatchObject({ native_items: THIN_EVIDENCE.items - 1, proxy_items: 10, native_sufficient: false, broadened: true })
  })

  test('too few distinct authors is thin too', async () => {
    const native = searchServer(THIN_EVIDENCE.items + 5, THIN_EVIDENCE.authors - 1)
    const web = searchServer(5, 3, 'w')
    expect((await gather(sources({ native, web }), 'wechat', window())).lanes[0]!.broadened).toBe(true)
  })

  test('a failing native provider falls back to web evidence and is reported', async () => {
    const web = searchServer(12, 4, 'w')
    expectFellBackToWeb(await gather(sources({ native: failing(502), web }), 'wechat', window()), 'HTTP 502')
  })

  test('web queries are shaped per platform: article terms for wechat, video for douyin', async () => {
    const web = searchServer(3, 3, 'w')
    await gather(sources({ web }), 'wechat', window())
    await gather(sources({ web }), 'douyin', window())
    expect(web.requests.map((r) => r.url.searchParams.get('q'))).toEqual(['露营 公众号 文章', '露营 抖音 视频'])
    expect(web.requests.map((r) => r.url.searchParams.get('keyword'))).toEqual(['露营', '露营'])
  })
})

describe('xiaohongshu: a proxy read unless native evidence is strong', () => {
  test('without a native provider for it, the answer is a proxy read with social-content shaping', async () => {
    const native = searchServer(50) // serves douyin and wechat only
    const web = searchServer(20, 5, 'w')
    const g = await gather(sources({ native, web }), 'xiaohongshu', window())
    expect(native.requests).toHaveLength(0)
    expect(evidenceMode(g.items)).toBe('proxy')
    expect(web.requests[0]!.url.searchParams.get('q')).toBe('露营 小红书 笔记')
    expect(g.lanes[0]).toMatchObject({ policy: 'proxy_read', native_sufficient: false, broadened: true })
  })

  test('native evidence that is not thin but not strong still gets the proxy read beside it', async () => {
    const native = searchServer(STRONG_NATIVE_EVIDENCE.items - 1, 10)
    const web = searchServer(20, 5, 'w')
    const g = await gather(sources({ native, web, platforms: ['xiaohongshu'] }), 'xiaohongshu', window())
    expect(web.requests).toHaveLength(1)
    expect(evidenceMode(g.items)).toBe('mixed')
  })

  test('strong native evidence is read natively', async () => {
    const native = searchServer(STRONG_NATIVE_EVIDENCE.items, STRONG_NATIVE_EVIDENCE.authors)
    const web = searchServer(20, 5, 'w')
    const g = await gather(sources({ native, web, platforms: ['xiaohongshu'] }), 'xiaohongshu', window())
    expect(web.requests).toHaveLength(0)
    expect(evidenceMode(g.items)).toBe('native')
    expect(g.items[0]!.sourceKind).toBe('note')
  })
})

describe('one post is one post', () => {
  test('notes the native step found and the web step found again under share links are counted once, the copies as duplicates', async () => {
    const notes = series({ text: (i) => `露营 note ${i}`, perDay: (d) => (d === 0 ? STRONG_NATIVE_EVIDENCE.items - 1 : 0), days: 1 }).map(
      (r, i) => ({ ...r, url: `https://www.xiaohongshu.com/explore/${(0x6650a1b2c3d4 + i).toString(16).padStart(24, '0')}` }),
    )
    const shared = notes.map((r, i) => ({
      ...r,
      id: `w${i}`,
      url: `${r.url}?xsec_token=AB${i}=&xsec_source=app_share&xhsshare=WeixinSession`,
    }))
    const others = series({ text: (i) => `露营 page ${i}`, perDay: (d) => (d === 0 ? 5 : 0), days: 1, idPrefix: 'page' })
    const native = serve(() => json({ results: notes }))
    const web = serve(() => json({ results: [...shared, ...others] }))
    const g = await gather(sources({ native, web, platforms: ['xiaohongshu'] }), 'xiaohongshu', window())
    expect(g.items).toHaveLength(notes.length + others.length)
    expect(g.duplicates).toBe(notes.length)
    expect(g.items.filter((i) => i.retrieval === 'native')).toHaveLength(notes.length)
  })
})

describe('relevance of what providers return', () => {
  test('items that only contain the letters of the keyword are dropped and counted as off topic', async () => {
    const web = searchServer(12, 6, 'w', (i) => (i % 2 ? `Skincare routine, week ${i}` : `Ski trip to the Alps, day ${i}`))
    const g = await gather(sources({ web }), 'douyin', request('ski'))
    expect(g.items).toHaveLength(6)
    expect(g.items.every((i) => i.text.startsWith('Ski trip'))).toBe(true)
    expect(g.calls.find((c) => c.role === 'web')).toMatchObject({ status: 'ok', items: 6, off_topic: 6 })
  })

  test('a provider answering only off-topic items is no evidence: a 404, not an answer', async () => {
    const web = searchServer(10, 5, 'w', (i) => `worth every penny, post ${i}`)
    await expect(gather(sources({ web }), 'douyin', request('EV'))).rejects.toMatchObject({ status: 404, code: 'not_found' })
  })

  test('a known entity is asked for by its Chinese name, and its English posts count too', async () => {
    const index = new EntityIndex({
      topics: [{ slug: 'camping', name: 'Camping', nameZh: '露营', category: 'outdoor-sports' }],
      brands: [],
      creators: [],
    })
    const web = searchServer(8, 4, 'w', (i) => (i % 2 ? `露营 note ${i}` : `Camping weekend ${i}`))
    const g = await gather(sources({ web }), 'wechat', request('camping', index))
    expect(web.requests[0]!.url.searchParams.get('q')).toBe('露营 公众号 文章')
    expect(web.requests[0]!.url.searchParams.get('keyword')).toBe('camping')
    expect(g.items).toHaveLength(8)
  })
})

describe('no evidence', () => {
  const error = (call: Promise<unknown>) => failure(call, ApiError)

  test('every provider answering empty is a 404 for the keyword', async () => {
    const e = await error(gather(sources({ native: searchServer(0), web: searchServer(0) }), 'douyin', window()))
    expect([e.status, e.code, e.details?.parameter]).toEqual([404, 'not_found', 'keyword'])
  })

  test('a failure with nothing else found is a 502 naming the provider', async () => {
    const e = await error(gather(sources({ native: searchServer(0), web: failing(500) }), 'douyin', window()))
    expect([e.status, e.code]).toEqual([502, 'provider_unavailable'])
    expect((e.details?.providers as { status: string }[]).map((p) => p.status)).toEqual(['failed'])
  })

  test('when every failure was a timeout it is a 504', async () => {
    const never = serve(() => new Promise<Response>(() => {}))
    const p: ProviderSettings = { nativeSearch: null, webSearch: { url: never.url, timeoutMs: 150 }, llm: null }
    const e = await error(gather(liveSources(p), 'all', window()))
    expect([e.status, e.code]).toEqual([504, 'provider_timeout'])
    expect((e.details?.providers as { status: string }[]).every((p) => p.status === 'timeout')).toBe(true)
  })
})
