/**
 * The SearXNG adapter against the real program: Debian's `searx` 1.1.0 (the code SearXNG grew from, same
 * `/search?format=json` API), started by the suite (support/searx.ts) with engines of its own over a
 * loopback corpus. What the upstream code does is what these tests rely on:
 * - `searx/search/processors/abstract.py`: with `time_range` set, an engine without time-range support
 *   is not asked at all;
 * - `searx/webapp.py`: `publishedDate` is written for display and the machine date goes in `pubdate`;
 * - results of several engines for the same URL are merged into one.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { resolve } from 'node:path'
import type { EvidenceQuery } from '../../../src/intelligence/evidence'
import { PagedProvider } from '../../../src/intelligence/providers/paging'
import { SearxngAdapter } from '../../../src/intelligence/providers/searxng'
import { searxInstalled, startSearx, type CorpusDoc, type StartedSearx } from '../../../support/searx'
import { requireTool } from '../../../support/required-tool'
import { failure, fileServers } from '../../../support/loopback'
import { campingQuery, signal } from '../../../support/evidence-query'

const ok = requireTool(
  'test/intelligence/vendors/searx-real.test.ts',
  searxInstalled() ? null : "searx is not installed (Debian's searx package, /usr/lib/python3/dist-packages/searx)",
  ".ci/run installs Debian's searx package; this test is what proves the SearXNG adapter against the real program",
)

const ROOT = resolve(import.meta.dir, '../../..')
const DAY = 86_400_000
const now = Date.now()
const ago = (days: number) => new Date(now - days * DAY).toISOString()

/** 78 camping notes spread over 200 days (one every ~2.6 days, the newest an hour old), on xiaohongshu.com. */
const notes: CorpusDoc[] = Array.from({ length: 78 }, (_, i) => ({
  url: `https://www.xiaohongshu.com/explore/note${i}`,
  title: `露营 装备 清单 ${i}`,
  content: `周末 露营 小红书 笔记 第${i}篇`,
  modified: i === 0 ? new Date(now - 3_600_000).toISOString() : ago(i * 2.6),
}))
/** An engine that does support time ranges holds a few of the same pages (merged by URL) and articles of its own. */
const articles: CorpusDoc[] = [
  ...notes.slice(0, 6),
  ...Array.from({ length: 6 }, (_, i) => ({
    url: `https://mp.weixin.qq.com/s/camp${i}`,
    title: `露营 公众号 文章 ${i}`,
    content: `露营 营地 推荐 ${i}`,
    modified: ago(3 + i * 9),
  })),
]
/** Pages with no date, as many web engines answer. */
const pages: CorpusDoc[] = Array.from({ length: 5 }, (_, i) => ({
  url: `https://example.cn/camping/${i}`,
  title: `露营 攻略 ${i}`,
  content: `露营 小红书 攻略 ${i}`,
  modified: ago(1),
}))

const query = (days = 30): EvidenceQuery =>
  campingQuery({ platform: 'xiaohongshu', step: 'web', q: '露营 小红书 笔记', days, now, to: new Date(now + 60_000) })

describe.if(ok)("Debian's searx 1.1.0 as the web provider", () => {
  let searx: StartedSearx
  beforeAll(async () => {
    searx = await startSearx([
      { name: 'notes', docs: notes, pageSize: 100 },
      { name: 'articles', docs: articles, timeRangeSupport: true },
      { name: 'pages', docs: pages, undated: true },
    ])
  }, 60_000)
  afterAll(async () => {
    await searx?.stop()
  })

  test('the upstream quirk, from the program itself: with time_range set, an engine without time-range support is not asked', async () => {
    const ask = async (range: string) => {
      const r = await fetch(`${searx.url}/search?q=${encodeURIComponent('露营 小红书 笔记')}&format=json${range}`)
      return ((await r.json()) as { results: { engines: string[] }[] }).results
    }
    const before = searx.queries.get('notes')!.length
    const ranged = await ask('&time_range=month')
    expect(searx.queries.get('notes')!.length).toBe(before) // never asked
    expect(new Set(ranged.flatMap((r) => r.engines))).toEqual(new Set(['articles']))
    expect((await ask('')).length).toBeGreaterThan(ranged.length * 5)
  })

  test('the adapter gets the evidence the engines have: every engine asked, every dated result in the windows kept, each date read', async () => {
    const provider = new PagedProvider(new SearxngAdapter({ url: searx.url, timeoutMs: 10_000 }))
    const asked = searx.queries.get('notes')!.length
    const r = await provider.search(query(), signal())
    expect(searx.queries.get('notes')!.length).toBe(asked + 1)
    // What the buyer's 60 days hold: the notes and articles dated in them, once each (merged by URL).
    const expected = new Set([...notes, ...articles].filter((d) => Date.parse(d.modified) >= now - 60 * DAY).map((d) => d.url))
    expect(new Set(r.items.map((i) => i.url))).toEqual(expected)
    expect(r.items.length).toBe(expected.size)
    // The note an hour old: searx shows "… minute(s) ago" in publishedDate; its pubdate is read.
    const newest = r.items.find((i) => i.url === notes[0]!.url)!
    expect(Math.abs(newest.publishedAt.getTime() - Date.parse(notes[0]!.modified))).toBeLessThan(1000)
    // Older results prove the engines reach past the prior window: both windows are covered.
    expect(r.coverage.every((c) => c.coveredFrom?.getTime() === c.from.getTime())).toBe(true)
    expect(r.dropped.undated).toBe(pages.length)
    expect(r.dropped.out_of_window).toBe(notes.filter((d) => Date.parse(d.modified) < now - 60 * DAY).length)
  })

  test('providers check says which engines a time range would silence and how many results carry no date', async () => {
    const proc = Bun.spawn([process.execPath, resolve(ROOT, 'src/index.ts'), 'providers', 'check', '--keyword', '露营'], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'test', WEB_SEARCH_PROVIDER: 'searxng', WEB_SEARCH_URL: searx.url },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited])
    expect(code).toBe(0)
    expect(out).toMatch(/\d+ results without time_range, \d+ with time_range=month: its engines without time-range support are skipped/)
    expect(out).toContain(`${pages.length} of`)
    expect(out).toMatch(/have no date this service can read/)
    // Each lane's call found its evidence (not `empty`).
    expect(out).not.toMatch(/searxng \(127\.0\.0\.1:\d+\)\s+web\s+\w+\s+empty/)
  }, 60_000)

  test('doctor reports the same findings, as warnings to look at before going live', async () => {
    const proc = Bun.spawn([process.execPath, resolve(ROOT, 'src/index.ts'), 'doctor', '--json'], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'test', LEDGER_PATH: ':memory:', WEB_SEARCH_PROVIDER: 'searxng', WEB_SEARCH_URL: searx.url },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const report = JSON.parse(await new Response(proc.stdout).text()) as { findings: { check: string; status: string; detail: string }[] }
    await proc.exited
    const providers = report.findings.filter((f) => f.check === 'evidence providers')
    expect(providers.find((f) => f.status === 'ok')?.detail).toMatch(/answered \d+ items/)
    expect(providers.filter((f) => f.status === 'warn').map((f) => f.detail)).toEqual([
      expect.stringMatching(/engines without time-range support are skipped/),
      expect.stringMatching(/have no date this service can read/),
    ])
  }, 60_000)
})

/**
 * SearXNG's limiter (on in its install template, utils/templates/etc/searxng/settings.yml) as its source
 * has it (searxng/searxng at 9fea412, 2026-08-22, `searx/botdetection/`): `/search` is refused with a bare
 * 429 "Too Many Requests" unless `Accept` lists text/html (http_accept.py), `Accept-Encoding` lists gzip or
 * deflate (http_accept_encoding.py), `Accept-Language` is not empty (http_accept_language.py) and the
 * User-Agent does not start with a tool's name (http_user_agent.py: curl, wget, python-requests,
 * Go-http-client, Java, okhttp, Python, HttpClient, …).
 */
describe("SearXNG's limiter", () => {
  const instance = fileServers()

  test('the headers sent pass its bot detection, for a Chinese and an English question', async () => {
    const s = instance(() => Response.json({ results: [] }))
    const provider = new PagedProvider(new SearxngAdapter({ url: s.url, timeoutMs: 5000 }))
    await provider.search(query(), signal())
    await provider.search({ ...query(), q: 'camping xiaohongshu' }, signal())
    for (const { headers } of s.requests) {
      const accepted = headers
        .get('accept')!
        .split(',')
        .map((range) => range.trim().split(';'))
      expect(accepted.some(([type, ...params]) => type === 'text/html' && !params.some((p) => /^\s*q=0(\.0*)?$/.test(p)))).toBe(true)
      expect(
        headers
          .get('accept-encoding')!
          .split(',')
          .map((e) => e.trim())
          .some((e) => e === 'gzip' || e === 'deflate'),
      ).toBe(true)
      expect(headers.get('accept-language')!.trim()).not.toBe('')
      expect(headers.get('user-agent')!).not.toMatch(
        /^(unknown|curl|wget|python-requests|Go-http-client|Java|okhttp|Python|HttpClient|Bun)/i,
      )
    }
    expect(s.requests[0]!.headers.get('accept-language')).toStartWith('zh-CN')
  })

  test("its refusal (a bare 429, no Retry-After) is named with the fix: this service's address in pass_ip, or the limiter off", async () => {
    const s = instance(() => new Response('Too Many Requests', { status: 429 }))
    const provider = new PagedProvider(new SearxngAdapter({ url: s.url, timeoutMs: 5000 }))
    const refused = await failure(provider.search(query(), signal()))
    expect(refused.kind).toBe('rate_limited')
    expect(refused.message).toContain('pass_ip')
    expect(refused.message).toContain('server.limiter: false')
  })
})
