/**
 * Helpers of the China intelligence tests: an in-process service (sample corpus, or live providers on
 * loopback), a paying client, and real HTTP provider servers started on 127.0.0.1, port 0.
 */
import { afterAll, expect } from 'bun:test'
import { ProviderError } from '../../src/intelligence/evidence'
/**
 * The relevance rule restated in SQL for the topic camping (露营): the whole word "camping" (or a plural)
 * or 露营, outside the automotive topic "car camping" (车载露营), whose longer name hides them.
 */
export const ABOUT_CAMPING = `(regexp_matches(replace(lower(title || ' ' || text), 'car camping', ''), '(^|[^a-z0-9_])campings?([^a-z0-9_]|$)')
  OR strpos(replace(title || ' ' || text, '车载露营', ''), '露营') > 0)`

/** The ProviderError a provider call fails with (the test fails if it does not). */
export async function failure(p: Promise<unknown>): Promise<ProviderError> {
  try {
    await p
  } catch (e) {
    expect(e).toBeInstanceOf(ProviderError)
    return e as ProviderError
  }
  throw new Error('expected a ProviderError')
}

export {
  Client as Api,
  Parquet as Corpus,
  expectClientError,
  expectDocumentedData,
  expectPaidEnvelope,
  route,
  strictSchema,
  type Answer,
  type Query,
} from '../market-data/support'

/** A real HTTP server on loopback; the handler decides each answer. */
export interface Loopback {
  url: string
  /** Every request it received, in order. */
  requests: { url: URL; headers: Headers; body: string }[]
  stop(): void
}

export function loopback(handler: (req: Request, url: URL, body: string) => Response | Promise<Response>): Loopback {
  const requests: Loopback['requests'] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url)
      const body = await req.text()
      requests.push({ url, headers: req.headers, body })
      return handler(req, url, body)
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, requests, stop: () => server.stop(true) }
}

/** `loopback` for one test file: every server it starts is stopped once the file's tests are done. */
export function fileServers(): typeof loopback {
  const started: Loopback[] = []
  afterAll(() => started.forEach((s) => s.stop()))
  return (handler) => {
    const s = loopback(handler)
    started.push(s)
    return s
  }
}

/** A promise the test resolves: lets a server be slow exactly as long as the test wants. */
export function gate() {
  let open!: () => void
  const opened = new Promise<void>((r) => (open = r))
  return { opened, open }
}

const DAY_MS = 86_400_000

export interface SeriesOptions {
  /** Text of every item (must contain the keyword). */
  text: (i: number) => string
  /** Items published `daysAgo` days before now (0 = the last 24 hours). */
  perDay: (daysAgo: number) => number
  days: number
  authors?: number
  followers?: (author: number) => number
  likes?: (i: number) => number
  idPrefix?: string
  now?: number
}

/** Search results in the documented protocol, spread over the last `days` days. */
export function series(o: SeriesOptions): Record<string, unknown>[] {
  const now = o.now ?? Date.now()
  const out: Record<string, unknown>[] = []
  let i = 0
  for (let d = 0; d < o.days; d++) {
    for (let k = 0; k < o.perDay(d); k++, i++) {
      const author = i % (o.authors ?? 10)
      out.push({
        id: `${o.idPrefix ?? 'item'}-${i}`,
        url: `https://example.org/${o.idPrefix ?? 'item'}/${i}`,
        title: '',
        text: o.text(i),
        published_at: new Date(now - d * DAY_MS - (k + 1) * 60_000).toISOString(),
        author: `creator_${author}`,
        author_followers: o.followers?.(author) ?? 20_000 + author * 1000,
        likes: o.likes?.(i) ?? 100 + (i % 7) * 10,
        comments: 8,
        shares: 4,
        views: 3000,
      })
    }
  }
  return out
}

/**
 * The results of the generic protocol's answer to `url`: those dated within its `from`..`to` days, as the
 * protocol asks of a provider (the service asks for each compared window on its own).
 */
export function inWindow(results: Record<string, unknown>[], url: URL): Record<string, unknown>[] {
  const from = url.searchParams.get('from')
  const to = url.searchParams.get('to')
  if (!from || !to) return results
  const [start, end] = [Date.parse(`${from}T00:00:00Z`), Date.parse(`${to}T00:00:00Z`) + 86_400_000]
  return results.filter((r) => {
    const t = Date.parse(String(r.published_at))
    return !(t >= start) || t < end // undated results pass through, as a provider would return them
  })
}

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
