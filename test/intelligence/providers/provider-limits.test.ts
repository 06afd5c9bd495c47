/**
 * What a live provider answer may cost (PROVIDER_LIMITS, LIVE_RESULTS_PER_CALL), against real servers on
 * loopback: bodies over the byte limit fail as bad_response and are not read to the end, a body that
 * drips past the call's timeout is a timeout, long strings are cut before anything reads them, extra
 * results are ignored, and the lanes fall back as for any other failure.
 */
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { afterAll, describe, expect, test } from 'bun:test'
import { LIVE_RESULTS_PER_CALL, PROVIDER_LIMITS } from '../../../src/catalog/evidence-rules'
import { ask } from '../../../src/intelligence/names/asked'
import { STATIC_ENTITIES } from '../../../src/intelligence/names/entities'
import type { EvidenceQuery } from '../../../src/intelligence/evidence'
import { gather } from '../../../src/intelligence/lanes'
import { withDeadline } from '../../../src/intelligence/providers/vendor-call'
import { ChatCompletionsSummariser } from '../../../src/intelligence/providers/chat-completions'
import { liveSources } from '../../../src/intelligence/sources'
import { themesOf } from '../../../src/intelligence/analysis/themes'
import { expectFellBackToWeb, series, webSearchAt } from '../../../support/china-evidence'
import { failure, fileServers, json } from '../../../support/loopback'
import { campingQuery, signal } from '../../../support/evidence-query'

const DAY = 86_400_000
const now = Date.now()
const { searchResponseBytes, summaryResponseBytes, titleChars, textChars, fieldChars } = PROVIDER_LIMITS
const query = (o: Partial<EvidenceQuery> = {}): EvidenceQuery =>
  campingQuery({ now, step: 'web', split: false, to: new Date(now + 1000), ...o })

const serve = fileServers()
/** The raw servers `endless` starts, closed once the file's tests are done. */
const rawServers: Server[] = []
afterAll(() => rawServers.forEach((server) => server.close()))

/**
 * A raw HTTP server whose body never ends: after the headers it writes `{"results": [` and then
 * results without end, as fast as the client reads (or one every `dripMs`). It records how many bytes
 * it wrote and when the client closed the connection.
 */
function endless(o: { contentLength?: number; dripMs?: number }) {
  let written = 0
  let onClose!: () => void
  const closed = new Promise<void>((r) => (onClose = r))
  const result = Buffer.from(
    `{"url": "https://x.example/1", "text": "露营 ${'很好 '.repeat(200)}", "published_at": "${new Date(now).toISOString()}"},`,
  )
  const chunked = o.contentLength === undefined
  const frame = (b: Buffer) => (chunked ? Buffer.concat([Buffer.from(`${b.byteLength.toString(16)}\r\n`), b, Buffer.from('\r\n')]) : b)
  const server: Server = createServer((socket) => {
    let timer: ReturnType<typeof setInterval> | undefined
    socket.on('close', () => {
      clearInterval(timer)
      onClose()
    })
    socket.on('error', () => {})
    socket.once('data', () => {
      const head = [
        'HTTP/1.1 200 OK',
        'content-type: application/json',
        chunked ? 'transfer-encoding: chunked' : `content-length: ${o.contentLength}`,
        '',
        '',
      ]
      socket.write(head.join('\r\n'))
      const send = (b: Buffer) => {
        written += b.byteLength
        return socket.write(frame(b))
      }
      send(Buffer.from('{"results": ['))
      if (o.dripMs) timer = setInterval(() => send(Buffer.from(' ')), o.dripMs)
      else {
        const pump = () => {
          while (!socket.destroyed && send(result));
        }
        socket.on('drain', pump)
        pump()
      }
    })
  })
  server.listen(0, '127.0.0.1')
  rawServers.push(server)
  const ready = new Promise<void>((r) => server.once('listening', r))
  return {
    url: async () => {
      await ready
      return `http://127.0.0.1:${(server.address() as { port: number }).port}`
    },
    written: () => written,
    closed,
  }
}

/** The most TCP may buffer on one loopback connection: the largest send plus the largest receive buffer (Linux; 64 MiB elsewhere). */
function socketBuffersMax(): number {
  const max = (file: string) => Number(readFileSync(file, 'utf8').trim().split(/\s+/).at(-1))
  try {
    return max('/proc/sys/net/ipv4/tcp_wmem') + max('/proc/sys/net/ipv4/tcp_rmem')
  } catch {
    return 64 * 1024 * 1024
  }
}

describe('the byte limit of an answer', () => {
  test('a streamed (chunked) body that never ends fails as bad_response, and the client hangs up', async () => {
    const s = endless({})
    const p = webSearchAt(await s.url(), 20_000)
    const e = await failure(p.search(query(), signal()))
    expect(e.kind).toBe('bad_response')
    expect(e.message).toContain(`more than the ${searchResponseBytes.toLocaleString('en')} bytes allowed`)
    await s.closed
    // It read about the limit, not what the server would have sent until the 20 s timeout (gigabytes
    // on loopback). What the server wrote also counts what the kernel held in the two sockets' buffers
    // when the client hung up: up to the largest send and receive buffers TCP may grow to.
    expect(s.written()).toBeGreaterThan(searchResponseBytes)
    expect(s.written()).toBeLessThan(searchResponseBytes + socketBuffersMax() + searchResponseBytes)
  })

  test('a Content-Length over the limit fails before the body is read', async () => {
    const s = endless({ contentLength: 1_000_000_000 })
    const p = webSearchAt(await s.url(), 20_000)
    const e = await failure(p.search(query(), signal()))
    expect(e.kind).toBe('bad_response')
    expect(e.message).toContain('declared 1,000,000,000 bytes')
    await s.closed
    expect(s.written()).toBeLessThan(1_000_000_000)
  })

  test('an answer just under the limit is read; one byte over is not', async () => {
    const body = (bytes: number) => {
      const head = `{"results": [{"url": "https://x.example/1", "text": "露营", "published_at": "${new Date(now).toISOString()}"}], "padding": "`
      return head + 'x'.repeat(bytes - Buffer.byteLength(head) - 2) + '"}'
    }
    for (const [bytes, ok] of [
      [searchResponseBytes, true],
      [searchResponseBytes + 1, false],
    ] as const) {
      const s = serve(() => new Response(body(bytes), { headers: { 'content-type': 'application/json' } }))
      const call = webSearchAt(s.url, 20_000).search(query(), signal())
      if (ok) expect((await call).items).toHaveLength(1)
      else expect((await failure(call)).kind).toBe('bad_response')
    }
  })

  test('a body that drips slower than the call timeout is a timeout: the deadline covers reading it', async () => {
    const s = endless({ dripMs: 50 })
    const p = webSearchAt(await s.url(), 300)
    const e = await failure(withDeadline(p.name, p.timeoutMs, (sig) => p.search(query(), sig)))
    expect(e.kind).toBe('timeout')
    await s.closed
  })

  test('a chat-completions answer over its limit is bad_response, and the extractive themes stand', async () => {
    const s = serve(() =>
      json({ choices: [{ message: { content: JSON.stringify({ themes: ['x'.repeat(summaryResponseBytes)], content_angles: [] }) } }] }),
    )
    const llm = { baseUrl: s.url, model: 'm', timeoutMs: 20_000 }
    const e = await failure(
      new ChatCompletionsSummariser(llm).summarise({ keyword: '露营', platform: 'douyin', items: [], terms: [] }, signal()),
    )
    expect(e.kind).toBe('bad_response')
    const web = serve(() => json({ results: series({ text: (i) => `露营 ${i % 2 ? '#天幕' : '#帐篷'} ${i}`, perDay: () => 2, days: 5 }) }))
    const { items } = await webSearchAt(web.url).search(query(), signal())
    const t = await themesOf(liveSources({ nativeSearch: null, webSearch: null, llm }), '露营', 'douyin', items, ['露营'])
    expect(t.themes_source).toBe('extractive')
    expect(t.themes.length).toBeGreaterThan(0)
    expect(t.call).toMatchObject({ role: 'summary', status: 'failed' })
    expect(t.call!.error).toContain(`more than the ${summaryResponseBytes.toLocaleString('en')} bytes allowed`)
  })
})

describe('results are cut to the limits before anything reads them', () => {
  test('titles, texts and other strings are cut to their lengths (never inside a surrogate pair)', async () => {
    const long = (n: number) => `露营${'好'.repeat(n)}`
    const s = serve(() =>
      json({
        results: [
          {
            id: 'i'.repeat(3 * fieldChars),
            url: `https://x.example/${'p'.repeat(3 * fieldChars)}`,
            title: long(10 * titleChars),
            text: long(100_000),
            author: 'a'.repeat(3 * fieldChars),
            published_at: new Date(now).toISOString(),
          },
          // An emoji (two UTF-16 units) across the cut: the cut is made before it.
          {
            id: 'emoji',
            title: '露营',
            text: `露营${'x'.repeat(textChars - 3)}😀${'x'.repeat(10)}`,
            published_at: new Date(now).toISOString(),
          },
        ],
      }),
    )
    const [big, emoji] = (await webSearchAt(s.url).search(query(), signal())).items
    expect([big!.title.length, big!.text.length, big!.id.length, big!.url!.length, big!.site!.length]).toEqual([
      titleChars,
      textChars,
      fieldChars,
      fieldChars,
      fieldChars,
    ])
    expect(big!.text).toBe(long(100_000).slice(0, textChars))
    expect(emoji!.text.length).toBe(textChars - 1)
    expect(emoji!.text.endsWith('x')).toBe(true)
  })

  test('a keyword only past the text limit is not seen: the item is off topic', async () => {
    const results = [
      { url: 'https://x.example/early', text: `露营 ${'装备 '.repeat(10)}`, published_at: new Date(now).toISOString() },
      { url: 'https://x.example/late', text: `${'天气 '.repeat(textChars)}露营`, published_at: new Date(now).toISOString() },
    ]
    const web = serve(() => json({ results }))
    const g = await gather(
      liveSources({ nativeSearch: null, webSearch: { url: web.url, timeoutMs: 5000 }, llm: null }),
      'douyin',
      request(),
    )
    expect(g.items.map((i) => i.url)).toEqual(['https://x.example/early'])
    expect(g.calls[0]).toMatchObject({ status: 'ok', items: 1, off_topic: 1 })
  })

  test(`a provider answering more than ${LIVE_RESULTS_PER_CALL} results: only the first ${LIVE_RESULTS_PER_CALL} are read`, async () => {
    const s = serve(() => json({ results: series({ text: (i) => `露营 post ${i}`, perDay: () => 3 * LIVE_RESULTS_PER_CALL, days: 1 }) }))
    const { items } = await webSearchAt(s.url).search(query(), signal())
    expect(items.map((i) => i.id)).toEqual(Array.from({ length: LIVE_RESULTS_PER_CALL }, (_, i) => `item-${i}`))
  })
})

function request() {
  const a = ask(STATIC_ENTITIES, '露营')
  return { typed: a.input, match: a.match, query: a.query, from: new Date(now - 60 * DAY), to: new Date(now + 1000), limit: 50 }
}

describe('the lanes fall back as for any failure', () => {
  test('an oversized native answer falls back to web evidence, and the failure is reported', async () => {
    const native = serve(
      () =>
        new Response(`{"results": [${'"x",'.repeat(searchResponseBytes / 4)}"x"]}`, { headers: { 'content-type': 'application/json' } }),
    )
    const web = serve(() =>
      json({ results: series({ text: (i) => `露营 web ${i}`, perDay: () => 12, days: 1, authors: 4, idPrefix: 'w' }) }),
    )
    const g = await gather(
      liveSources({
        nativeSearch: { url: native.url, timeoutMs: 5000, platforms: ['douyin'] },
        webSearch: { url: web.url, timeoutMs: 5000 },
        llm: null,
      }),
      'douyin',
      request(),
    )
    expectFellBackToWeb(g, 'bytes allowed')
    expect(g.items).toHaveLength(12)
  })

  test('when every provider answers too much, the request is a 502 naming them (nothing is charged)', async () => {
    const huge = serve(() => new Response('x'.repeat(searchResponseBytes + 1)))
    const sources = liveSources({
      nativeSearch: { url: huge.url, timeoutMs: 5000, platforms: ['douyin'] },
      webSearch: { url: huge.url, timeoutMs: 5000 },
      llm: null,
    })
    await expect(gather(sources, 'douyin', request())).rejects.toMatchObject({ status: 502, code: 'provider_unavailable' })
  })
})
