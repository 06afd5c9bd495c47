/**
 * The HTTP providers against real servers on loopback: what they send, how they read answers in the
 * documented protocol, and their typed failures (timeout, unavailable, bad_response, cancelled).
 */
import { describe, expect, test } from 'bun:test'
import type { EvidenceQuery, ProviderFailure } from '../../../src/intelligence/evidence'
import { withDeadline } from '../../../src/intelligence/providers/vendor-call'
import { ChatCompletionsSummariser } from '../../../src/intelligence/providers/chat-completions'
import { SearchHttpProvider } from '../../../src/intelligence/providers/search-http'
import { series, webSearchAt } from '../../../support/china-evidence'
import { failure, fileServers, gate, json } from '../../../support/loopback'
import { campingQuery, signal } from '../../../support/evidence-query'

const DAY = 86_400_000
const now = Date.now()
const query = (o: Partial<EvidenceQuery> = {}): EvidenceQuery => campingQuery({ now, split: false, to: new Date(now + 1000), ...o })

const serve = fileServers()

describe('search provider over HTTP', () => {
  test('sends the shaped query, the window, the limit and the key; reads the documented result fields', async () => {
    const s = serve(() =>
      json({
        results: [
          {
            id: 'v1',
            url: 'https://v.example/1',
            title: '露营装备',
            text: '周末露营，强烈推荐',
            published_at: new Date(now - DAY).toISOString(),
            author: 'creator_a',
            author_followers: 12000,
            author_city: '上海',
            likes: 10,
            comments: 2,
            shares: 1,
            views: 300,
            language: 'zh',
          },
          {
            link: 'https://v.example/2',
            snippet: 'camping gear notes',
            publishedDate: new Date(now - 2 * DAY).toISOString(),
            engagement: { likes: '5', comments: 1 },
          },
          { url: 'https://v.example/undated', text: 'no date' },
          { url: 'https://v.example/old', text: 'too old', published_at: new Date(now - 400 * DAY).toISOString() },
          { url: 'https://v.example/no-text', published_at: new Date(now).toISOString() },
        ],
      }),
    )
    const p = new SearchHttpProvider({
      role: 'native',
      url: `${s.url}/search/{platform}`,
      key: 'secret-1',
      timeoutMs: 5000,
      platforms: ['douyin'],
    })
    const { items } = await p.search(query({ q: '露营 shaped' }), signal())
    const sent = s.requests[0]!
    expect(sent.url.pathname).toBe('/search/douyin')
    expect(Object.fromEntries(sent.url.searchParams)).toMatchObject({ q: '露营 shaped', keyword: '露营', platform: 'douyin', limit: '50' })
    expect(sent.url.searchParams.get('from')).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect(sent.headers.get('authorization')).toBe('Bearer secret-1')
    expect(items.map((i) => i.id)).toEqual(['v1', 'https://v.example/2'])
    expect(items[0]).toMatchObject({
      platform: 'douyin',
      retrieval: 'native',
      sourceKind: 'video',
      author: 'creator_a',
      authorFollowers: 12000,
      authorCity: '上海',
      language: 'zh',
      engagement: { likes: 10, comments: 2, shares: 1, views: 300 },
    })
    // No author given: a native item's creator is unknown (never its web site's host).
    expect(items[1]).toMatchObject({
      text: 'camping gear notes',
      language: 'en',
      author: null,
      engagement: { likes: 5, comments: 1, shares: 0, views: null },
    })
    expect(p.name).toBe(`native-search (${new URL(s.url).host})`)
    expect(p.serves('douyin')).toBe(true)
    expect(p.serves('xiaohongshu')).toBe(false)
  })

  test('a web provider returns proxy items, and reads results under web.results or items too', async () => {
    const result = { url: 'https://news.example/a', description: '露营 report', page_age: new Date(now - DAY).toISOString() }
    for (const body of [{ web: { results: [result] } }, { items: [result] }, { data: [result] }]) {
      const s = serve(() => json(body))
      const [item] = (await webSearchAt(s.url).search(query({ step: 'web' }), signal())).items
      // A web page's publisher is its site, not a creator.
      expect(item).toMatchObject({
        platform: 'web',
        retrieval: 'proxy',
        sourceKind: 'web_page',
        engagement: null,
        text: '露营 report',
        author: null,
        site: 'news.example',
      })
      expect(s.requests[0]!.headers.get('authorization')).toBeNull()
    }
  })

  test('an empty result list is no items, not an error', async () => {
    const s = serve(() => json({ results: [] }))
    expect((await webSearchAt(s.url).search(query(), signal())).items).toEqual([])
  })

  test('HTTP 5xx is unavailable', async () => {
    const s = serve(() => new Response('upstream down', { status: 503 }))
    const p = webSearchAt(s.url)
    const e = await failure(p.search(query(), signal()))
    expect(e.kind).toBe('unavailable')
    expect(e.message).toContain('HTTP 503')
  })

  test('a body that is not JSON, or JSON without a results list, is bad_response', async () => {
    for (const body of ['{"results": [', '<html>rate limited</html>', JSON.stringify({ answer: 'no list here' })]) {
      const s = serve(() => new Response(body, { headers: { 'content-type': 'application/json' } }))
      const e = await failure(webSearchAt(s.url).search(query(), signal()))
      expect(e.kind).toBe('bad_response')
    }
  })

  test('a connection refused is unavailable', async () => {
    const s = serve(() => json({ results: [] }))
    s.stop()
    const e = await failure(webSearchAt(s.url).search(query(), signal()))
    expect(e.kind).toBe('unavailable')
  })

  test('a server that does not answer within the timeout is a timeout', async () => {
    const slow = gate()
    const s = serve(async () => {
      await slow.opened
      return json({ results: [] })
    })
    const p = webSearchAt(s.url, 200)
    try {
      const e = await failure(withDeadline(p.name, p.timeoutMs, (signal) => p.search(query(), signal)))
      expect(e.kind).toBe('timeout')
      expect(e.provider).toBe(p.name)
    } finally {
      slow.open()
    }
  })

  test('the caller can cancel a call in flight', async () => {
    const slow = gate()
    const arrived = gate()
    const s = serve(async () => {
      arrived.open()
      await slow.opened
      return json({ results: [] })
    })
    const p = webSearchAt(s.url, 30_000)
    const caller = new AbortController()
    const call = withDeadline(p.name, p.timeoutMs, (signal) => p.search(query(), signal), caller.signal)
    await arrived.opened
    caller.abort()
    try {
      expect((await failure(call)).kind).toBe('cancelled')
    } finally {
      slow.open()
    }
  })
})

describe('chat-completions summariser over HTTP', () => {
  const items = series({ text: (i) => `露营 note ${i}`, perDay: () => 1, days: 3 }).map((r) => ({
    id: r.id as string,
    url: null,
    platform: 'douyin' as const,
    retrieval: 'native' as const,
    sourceKind: 'video' as const,
    author: 'a',
    authorFollowers: 1,
    authorCity: null,
    publishedAt: new Date(r.published_at as string),
    title: '',
    text: r.text as string,
    language: 'zh' as const,
    engagement: null,
    provider: 't',
  }))
  const completion = (content: unknown) =>
    json({ choices: [{ message: { role: 'assistant', content: typeof content === 'string' ? content : JSON.stringify(content) } }] })

  test('asks for structured JSON with the model, the key and the evidence; keeps only evidence ids it was given', async () => {
    const s = serve(() =>
      completion({
        themes: ['精致露营', '亲子露营'],
        content_angles: [{ angle: 'Gear checklists', rationale: 'Most-engaged notes are lists', evidence_ids: ['item-0', 'invented-id'] }],
      }),
    )
    const llm = new ChatCompletionsSummariser({ baseUrl: `${s.url}/v1/`, key: 'sk-test', model: 'test-model', timeoutMs: 5000 })
    const out = await llm.summarise({ keyword: '露营', platform: 'douyin', items, terms: ['装备'] }, signal())
    const sent = s.requests[0]!
    expect(sent.url.pathname).toBe('/v1/chat/completions')
    expect(sent.headers.get('authorization')).toBe('Bearer sk-test')
    const body = JSON.parse(sent.body)
    expect(body.model).toBe('test-model')
    expect(body.response_format.type).toBe('json_schema')
    expect(body.response_format.json_schema.schema.required).toEqual(['themes', 'content_angles'])
    expect(body.messages[1].content).toContain('item-0')
    expect(out).toEqual({
      themes: ['精致露营', '亲子露营'],
      contentAngles: [{ angle: 'Gear checklists', rationale: 'Most-engaged notes are lists', evidenceIds: ['item-0'] }],
    })
    expect(llm.name).toBe(`chat-completions (${new URL(s.url).host}, test-model)`)
  })

  test('content that is not JSON, or JSON of the wrong shape, is bad_response; 5xx is unavailable', async () => {
    const cases: [Response, ProviderFailure][] = [
      [completion('Here are some themes: camping, gear'), 'bad_response'],
      [completion({ themes: 'camping' }), 'bad_response'],
      [json({ choices: [] }), 'bad_response'],
      [new Response('{"choices": [', { status: 200 }), 'bad_response'],
      [new Response('overloaded', { status: 529 }), 'unavailable'],
    ]
    for (const [response, kind] of cases) {
      const s = serve(() => response.clone())
      const llm = new ChatCompletionsSummariser({ baseUrl: s.url, model: 'm', timeoutMs: 5000 })
      expect((await failure(llm.summarise({ keyword: 'k', platform: 'douyin', items, terms: [] }, signal()))).kind).toBe(kind)
    }
  })
})
