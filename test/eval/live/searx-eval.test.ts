/**
 * The live-mode evaluation through the real program: a seller whose only provider is Debian's searx
 * (support/searx.ts), its engines over the sample world moved to today (./world.ts) as web pages:
 * - `notes`: Xiaohongshu notes and Douyin videos as their pages, dated, no time-range support;
 * - `articles`: WeChat articles and web pages, dated, with time-range support;
 * - `pages`: a third of the same web pages again, undated (searx's json_engine), so results repeat
 *   across engines and some carry no date;
 * each answering the 40 results that match the most words of a query (a question's other words bring
 * off-topic pages), whatever their dates, as relevance-ranked web engines do.
 *
 * Expectations (written from the world's definition before any answer was read, as for ./questions.ts):
 * things of the world are answered with evidence that names them; things outside it are a free 404; a KOL
 * route is a free 422 (web pages name no creators); a direction is never stated for a window the evidence
 * does not reach; a topic that surges in the weekly data never reads falling. The figures are printed for
 * BENCHMARKS.md: answered share, directions on uncovered windows, items kept per result fetched, requests.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { searxInstalled, startSearx, type CorpusDoc, type StartedSearx } from '../../../support/searx'
import { requireTool } from '../../../support/required-tool'
import { Client as Api } from '../../../support/paying-client'
import { mentions } from '../evaluate'
import { corpusWorld, DAY } from './world'

const ok = requireTool(
  'test/eval/live/searx-eval.test.ts',
  searxInstalled() ? null : "searx is not installed (Debian's searx package)",
  ".ci/run installs Debian's searx package; this evaluation replays the live questions through it",
)

const QUIET = ['Quiet luxury', '静奢风']
const SMART = ['Smart driving', '智能驾驶']
const TOKYO = ['Tokyo', '东京']
const CAMPING = ['Camping', '露营']
const DOWN = ['Down jacket', '羽绒服']

interface Question {
  id: string
  route: string
  query: Record<string, string>
  expect: { outcome: 'answered' | 'not_found' | 'refused'; names?: string[]; direction?: 'not_falling' }
}
const trend = (id: string, keyword: string, timeframe: string, e: Question['expect'], route = 'china.trends'): Question => ({
  id,
  route,
  query: { keyword, timeframe },
  expect: e,
})

const QUESTIONS: Question[] = [
  trend('quiet-30-zh', '静奢风', '30d', { outcome: 'answered', names: QUIET, direction: 'not_falling' }),
  trend('quiet-90-en', 'quiet luxury', '90d', { outcome: 'answered', names: QUIET }),
  trend('smart-30-zh', '智能驾驶', '30d', { outcome: 'answered', names: SMART, direction: 'not_falling' }),
  trend('smart-7-en', 'smart driving', '7d', { outcome: 'answered', names: SMART }),
  trend('tokyo-14-zh', '东京', '14d', { outcome: 'answered', names: TOKYO }),
  trend('tokyo-30-en', 'Tokyo', '30d', { outcome: 'answered', names: TOKYO }),
  trend('down-14-zh', '羽绒服', '14d', { outcome: 'answered', names: DOWN }),
  trend('camping-90-zh', '露营', '90d', { outcome: 'answered', names: CAMPING }),
  trend('smart-xhs-30', '智能驾驶', '30d', { outcome: 'answered', names: SMART }, 'china.trends.xiaohongshu'),
  trend('tokyo-wechat-30', '东京', '30d', { outcome: 'answered', names: TOKYO }, 'china.trends.wechat'),
  trend('absent-nike', '耐克', '30d', { outcome: 'not_found' }),
  trend('absent-starbucks', 'Starbucks', '7d', { outcome: 'not_found' }),
  trend('absent-quantum', '量子计算机', '30d', { outcome: 'not_found' }),
  {
    id: 'sentiment-smart',
    route: 'china.sentiment',
    query: { entity: '智能驾驶', timeframe: '30d' },
    expect: { outcome: 'answered', names: SMART },
  },
  {
    id: 'sentiment-tokyo',
    route: 'china.sentiment',
    query: { entity: 'Tokyo', timeframe: '30d' },
    expect: { outcome: 'answered', names: TOKYO },
  },
  { id: 'kols-camping', route: 'china.kols', query: { category: '露营' }, expect: { outcome: 'refused' } },
]

interface Outcome {
  q: Question
  status: number
  code: string | null
  failures: string[]
  uncovered: string | null
  requests: number
  fetched: number
  kept: number
}

/** The world's posts as the pages searx's engines index. */
function engines(world: Awaited<ReturnType<typeof corpusWorld>>) {
  // corpusWorld dates every post in epoch milliseconds.
  const page = (url: string, title: string | undefined, text: string, at: number | string | null): CorpusDoc => ({
    url,
    title: title ?? text.slice(0, 40),
    content: text,
    modified: new Date(at as number).toISOString(),
  })
  const notes = [
    ...world.native.xiaohongshu.map((d) => page(`https://www.xiaohongshu.com/explore/${d.id}`, `${d.title} - 小红书`, d.text, d.at)),
    ...world.native.douyin.map((d) => page(`https://www.douyin.com/video/${d.id}`, `${d.title} - 抖音`, d.text, d.at)),
  ]
  const web = world.web.map((d) => page(`https://${d.site ?? 'news.example.cn'}/${d.id}`, d.title, d.text, d.at))
  const articles = [
    ...world.native.wechat.map((d) => page(`https://mp.weixin.qq.com/s/${d.id}`, `${d.title} - 微信公众平台`, d.text, d.at)),
    ...web,
  ]
  return [
    { name: 'notes', docs: notes, pageSize: 40 },
    { name: 'articles', docs: articles, pageSize: 40, timeRangeSupport: true },
    { name: 'pages', docs: web.filter((_, i) => i % 3 === 0), pageSize: 40, undated: true },
  ]
}

describe.if(ok)("the live questions through Debian's searx", () => {
  let searx: StartedSearx
  let proxy: ReturnType<typeof Bun.serve>
  let api: Api
  const seen = { requests: 0, results: 0 }
  const outcomes: Outcome[] = []

  beforeAll(async () => {
    searx = await startSearx(engines(await corpusWorld(Date.now())))
    // In front of searx: what the service asked and how many results it was given.
    proxy = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      async fetch(request) {
        const url = new URL(request.url)
        const answer = await fetch(`${searx.url}${url.pathname}${url.search}`, { headers: request.headers })
        const body = await answer.text()
        seen.requests++
        if (answer.ok) seen.results += (JSON.parse(body) as { results: unknown[] }).results.length
        return new Response(body, {
          status: answer.status,
          headers: { 'content-type': answer.headers.get('content-type') ?? 'text/plain' },
        })
      },
    })
    api = await Api.start({ WEB_SEARCH_PROVIDER: 'searxng', WEB_SEARCH_URL: `http://127.0.0.1:${proxy.port}` })
    for (const q of QUESTIONS) {
      const before = { ...seen }
      const a = await api.paid(q.route, q.query)
      const d = a.body?.data
      const failures: string[] = []
      const code = a.body?.error?.code ?? null
      const want: readonly [number, string | null] = (
        { answered: [200, null], not_found: [404, 'not_found'], refused: [422, 'native_provider_required'] } as const
      )[q.expect.outcome]
      if (a.status !== want[0] || (want[1] !== null && code !== want[1]))
        failures.push(`expected ${want[0]} ${want[1] ?? ''}, got ${a.status} ${code}`)
      let uncovered: string | null = null
      if (a.status === 200 && q.route.startsWith('china.trends')) {
        const days = Number(q.query.timeframe?.slice(0, -1))
        const halfway = Date.parse(`${d.momentum_detail.prior.from}T00:00:00Z`) + (days / 2) * DAY
        const earliest = d.evidence.date_range ? Date.parse(d.evidence.date_range.earliest) : Infinity
        const m = d.summary.momentum
        if (m !== 'insufficient_evidence' && earliest > halfway) uncovered = `${m} from evidence starting ${d.evidence.date_range.earliest}`
        if (q.expect.direction === 'not_falling' && m === 'falling') failures.push('falling on a surging topic')
        const stray = d.top_evidence.find((e: { excerpt: string }) => !q.expect.names!.some((n) => mentions(e.excerpt, n)))
        if (stray) failures.push(`cites "${stray.excerpt.slice(0, 60)}"`)
      }
      outcomes.push({
        q,
        status: a.status,
        code,
        failures,
        uncovered,
        requests: seen.requests - before.requests,
        fetched: seen.results - before.results,
        kept: d?.evidence?.total_items ?? 0,
      })
    }
    const answered = outcomes.filter((o) => o.q.expect.outcome === 'answered')
    const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0)
    const computed = outcomes.filter((o) => o.status === 200 && o.requests > 0)
    console.log(
      [
        "\nlive questions through Debian's searx 1.1.0",
        `answered: ${answered.filter((o) => o.status === 200).length}/${answered.length}`,
        `directions stated on uncovered windows: ${outcomes.filter((o) => o.uncovered).length}`,
        `trend directions: ${outcomes
          .filter((o) => o.status === 200 && o.q.route.startsWith('china.trends'))
          .map((o) => `${o.q.id} ${JSON.stringify(o.kept)}`)
          .join(', ')}`,
        `items kept per result fetched: ${sum(computed.map((o) => o.kept))}/${sum(computed.map((o) => o.fetched))}`,
        `searx requests per answer: ${(sum(computed.map((o) => o.requests)) / Math.max(1, computed.length)).toFixed(1)}`,
        ...outcomes.map(
          (o) =>
            `  ${o.q.id}: ${o.status} ${o.code ?? ''} kept ${o.kept} of ${o.fetched} in ${o.requests} requests ${o.failures.join('; ')}`,
        ),
      ].join('\n'),
    )
  }, 600_000)

  afterAll(async () => {
    api?.close()
    proxy?.stop(true)
    await searx?.stop()
  })

  test('never states a direction for a window its evidence does not reach', () => {
    expect(outcomes.filter((o) => o.uncovered).map((o) => `${o.q.id}: ${o.uncovered}`)).toEqual([])
  })

  test('every question gets what a buyer expects of it (answered with on-topic evidence, a free 404 or 422, never falling on a surge)', () => {
    expect(outcomes.filter((o) => o.failures.length).map((o) => `${o.q.id}: ${o.failures.join('; ')}`)).toEqual([])
  })
})
