/**
 * Helpers of the China intelligence tests: the relevance rule in SQL, providers' answers over time, the
 * sample corpus as the providers read it, and a lane's fallback (the paying client is
 * support/paying-client.ts; servers on loopback support/loopback.ts).
 */
import { afterAll, beforeAll, expect } from 'bun:test'
import type { EntityIndex } from '../src/intelligence/names/entities'
import { evidenceMode } from '../src/intelligence/evidence'
import type { gather } from '../src/intelligence/lanes'
import { SearchHttpProvider } from '../src/intelligence/providers/search-http'
import type { CorpusIndexFile } from '../src/intelligence/corpus/corpus-index'
import { testRuntime } from './runtime'

/**
 * The relevance rule restated in SQL for the topic camping (露营): the whole word "camping" (or a plural)
 * or 露营, outside the automotive topic "car camping" (车载露营), whose longer name hides them.
 */
export const ABOUT_CAMPING = `(regexp_matches(replace(lower(title || ' ' || text), 'car camping', ''), '(^|[^a-z0-9_])campings?([^a-z0-9_]|$)')
  OR strpos(replace(title || ' ' || text, '车载露营', ''), '露营') > 0)`

const DAY_MS = 86_400_000

export interface SeriesOptions {
  /** Text of every item (must contain the keyword). */
  text: (index: number) => string
  /** Items published `daysAgo` days before now (0 = the last 24 hours). */
  perDay: (daysAgo: number) => number
  days: number
  authors?: number
  followers?: (author: number) => number
  likes?: (index: number) => number
  idPrefix?: string
  now?: number
}

/** Search results in the documented protocol, spread over the last `days` days. */
export function series(options: SeriesOptions): Record<string, unknown>[] {
  const now = options.now ?? Date.now()
  const out: Record<string, unknown>[] = []
  let index = 0
  for (let d = 0; d < options.days; d++) {
    for (let k = 0; k < options.perDay(d); k++, index++) {
      const author = index % (options.authors ?? 10)
      out.push({
        id: `${options.idPrefix ?? 'item'}-${index}`,
        url: `https://example.org/${options.idPrefix ?? 'item'}/${index}`,
        title: '',
        text: options.text(index),
        published_at: new Date(now - d * DAY_MS - (k + 1) * 60_000).toISOString(),
        author: `creator_${author}`,
        author_followers: options.followers?.(author) ?? 20_000 + author * 1000,
        likes: options.likes?.(index) ?? 100 + (index % 7) * 10,
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

/** The shipped evidence corpus as the providers read it: its index and the entity index. */
export interface SampleCorpus {
  file: CorpusIndexFile
  index: EntityIndex
}

/** Opens a runtime on the sample data before the tests of the enclosing scope (closed after them) and hands over its corpus. */
export function openSampleCorpus(assign: (corpus: SampleCorpus) => void): void {
  let runtime: Awaited<ReturnType<typeof testRuntime>> | undefined
  beforeAll(async () => {
    runtime = await testRuntime()
    assign({ file: runtime.store.current().evidence.index.file, index: runtime.intelligence.entities() })
  })
  afterAll(() => runtime?.close())
}

/** A lane whose native provider failed with `error` answered from the web provider alone, and reported the failure. */
export function expectFellBackToWeb(gathered: Awaited<ReturnType<typeof gather>>, error: string): void {
  expect(evidenceMode(gathered.items)).toBe('proxy')
  expect(gathered.calls.map((call) => [call.role, call.status])).toEqual([
    ['native', 'failed'],
    ['web', 'ok'],
  ])
  expect(gathered.calls[0]!.error).toContain(error)
}

/** The generic web-search provider at `url` (a seller's WEB_SEARCH_URL), with the call's timeout. */
export const webSearchAt = (url: string, timeoutMs = 5000) => new SearchHttpProvider({ role: 'web', url, timeoutMs })
