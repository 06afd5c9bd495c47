/**
 * The pager against scripted vendors: how far an answer covers its window, what it drops and why, when
 * it stops asking; and momentum on what it covers (never a direction from a window nobody covered).
 */
import { describe, expect, test } from 'bun:test'
import { MOMENTUM, VENDOR_PAGE_RESULTS_MAX } from '../../../src/catalog/evidence-rules'
import { ProviderError, type EvidenceItem, type EvidenceQuery } from '../../../src/intelligence/evidence'
import type { CallEvidence } from '../../../src/intelligence/lanes'
import { momentumOf } from '../../../src/intelligence/analysis/momentum'
import {
  PagedProvider,
  type SearchCapabilities,
  type VendorAdapter,
  type VendorPage,
  type Window,
} from '../../../src/intelligence/providers/paging'
import { campingQuery, signal } from '../../../support/evidence-query'
import { failure } from '../../../support/loopback'

const DAY = 86_400_000
const NOW = Date.parse('2026-11-25T00:00:00Z')

/** A query for a trend over `days`: the two windows [now - 2 days, now - days) and [now - days, now). */
const query = (days = 30, split = true): EvidenceQuery => campingQuery({ step: 'web', days, now: NOW, ...(split ? {} : { split: false }) })

type Result = { id: string; daysAgo: number | null; url?: string; text?: string }
/** A result `daysAgo` days back is published an hour before that day's end. */
const when = (daysAgo: number) => NOW - daysAgo * DAY - 3_600_000
const post = (id: string, daysAgo: number | null): Result => ({ id, daysAgo })

/** A vendor that answers pages from a list of results, newest first or as given; `calls` records every page asked. */
function vendor(o: {
  results: Result[]
  caps: SearchCapabilities
  pageSize?: number
  maxPages?: number
  /** Filters by the window asked (what `range` vendors do); otherwise answers regardless of it. */
  honoursWindow?: boolean
  /** Ignores the page number: always answers page 1. */
  ignoresPage?: boolean
  failPage?: number
  timeoutMs?: number
  clock?: { now: number; perPage: number }
}) {
  const calls: { window: Window; page: number }[] = []
  const size = o.pageSize ?? 10
  const adapter: VendorAdapter = {
    name: 'scripted',
    role: 'web',
    timeoutMs: o.timeoutMs ?? 10_000,
    maxPages: o.maxPages ?? 3,
    serves: () => true,
    capabilities: () => o.caps,
    async page(_q, w, page): Promise<VendorPage> {
      calls.push({ window: w, page })
      if (o.clock) o.clock.now += o.clock.perPage
      if (o.failPage === page) throw new ProviderError('rate_limited', 'scripted', 'answered HTTP 429', 30)
      const pool = o.honoursWindow
        ? o.results.filter((r) => r.daysAgo === null || (when(r.daysAgo) >= w.from.getTime() && when(r.daysAgo) < w.to.getTime()))
        : o.results
      const at = o.ignoresPage ? 0 : (page - 1) * size
      const results = pool.slice(at, at + size)
      return { results, more: at + size < pool.length }
    },
    item(raw: unknown): EvidenceItem | 'undated' | null {
      const r = raw as Result
      if (r.daysAgo === null) return 'undated'
      return {
        id: r.id,
        url: r.url ?? `https://x.example/${r.id}`,
        platform: 'web',
        retrieval: 'proxy',
        sourceKind: 'web_page',
        author: null,
        site: 'x.example',
        authorFollowers: null,
        authorCity: null,
        publishedAt: new Date(when(r.daysAgo)),
        title: '露营',
        text: r.text ?? `露营 notes ${r.id}`,
        language: 'zh',
        engagement: null,
        provider: 'scripted',
      }
    },
  }
  const clock = o.clock
  return { provider: new PagedProvider(adapter, clock ? () => clock.now : () => NOW), calls }
}

/** A date-range vendor: asked for each window, it answers the results inside it, by relevance. */
const rangeVendor = (options: Omit<Parameters<typeof vendor>[0], 'caps' | 'honoursWindow'>) =>
  vendor({ ...options, caps: { dateFilter: 'range', order: 'relevance' }, honoursWindow: true })

/** `n` results a day for `days` days back from now, newest first. */
const daily = (days: number, n = 1, prefix = 'p'): Result[] =>
  Array.from({ length: days * n }, (_, i) => post(`${prefix}${i}`, Math.floor(i / n)))
const coveredDaysAgo = (d: Date | null) => (d === null ? null : Math.round((NOW - d.getTime()) / DAY))

describe('how far an answer covers its window', () => {
  test('an engine that ignores the range and returns recent pages only covers the window only from its oldest result', async () => {
    // 30 results from the last 6 days, relevance order, no more after them (what SearXNG answers a 90-day question).
    const { provider } = vendor({ results: daily(6, 5), caps: { dateFilter: 'recency', order: 'relevance' } })
    const r = await provider.search(query(90, false), signal())
    expect(r.items).toHaveLength(30)
    expect(r.coverage).toHaveLength(1)
    expect(coveredDaysAgo(r.coverage[0]!.coveredFrom)).toBe(5)
    expect(r.coverage[0]!.capped).toBe(false)
  })

  test('a result dated before the window proves the vendor reaches back: the window is covered', async () => {
    const { provider } = vendor({ results: [...daily(5), post('old', 200)], caps: { dateFilter: 'none', order: 'relevance' } })
    const r = await provider.search(query(30, false), signal())
    expect(r.coverage[0]!.coveredFrom).toEqual(new Date(NOW - 60 * DAY))
    expect(r.dropped.out_of_window).toBe(1)
  })

  test('a date-range vendor asked for each window, with nothing more after its results, has listed the window', async () => {
    const { provider, calls } = rangeVendor({ results: daily(50, 2), pageSize: 50, maxPages: 2 })
    const r = await provider.search(query(30), signal())
    // The recent window's 60 results take two pages of 50.
    expect(calls.map((c) => [coveredDaysAgo(c.window.from), c.page])).toEqual([
      [60, 1],
      [30, 1],
      [30, 2],
    ])
    expect(r.coverage.map((c) => [coveredDaysAgo(c.coveredFrom), c.capped])).toEqual([
      [60, false],
      [30, false],
    ])
    expect(r.items).toHaveLength(100)
  })

  test('every result of a vendor page is kept (the page is paid for); with more left, the count is capped', async () => {
    const { provider } = rangeVendor({ results: daily(30, 4), pageSize: 90, maxPages: 1 })
    const r = await provider.search(query(30), signal())
    expect(r.items).toHaveLength(90)
    expect(r.coverage[1]!.capped).toBe(true)
  })

  test(`a page past ${VENDOR_PAGE_RESULTS_MAX} dated results is sampled evenly over time: the oldest and newest stay, the count is capped`, async () => {
    const { provider } = vendor({
      results: daily(60, 12),
      caps: { dateFilter: 'none', order: 'relevance' },
      pageSize: 720,
      maxPages: 1,
    })
    const r = await provider.search({ ...query(30), split: undefined } as EvidenceQuery, signal())
    expect(r.items).toHaveLength(VENDOR_PAGE_RESULTS_MAX)
    const days = r.items.map((i) => Math.round((NOW - i.publishedAt.getTime()) / DAY))
    expect(Math.min(...days)).toBe(Math.min(...daily(60, 12).map((p) => p.daysAgo!)))
    expect(Math.max(...days)).toBe(Math.max(...daily(60, 12).map((p) => p.daysAgo!)))
    // Evenly: each half of the period keeps about half of the sample.
    const older = days.filter((d) => d >= 30).length
    expect(Math.abs(older - VENDOR_PAGE_RESULTS_MAX / 2)).toBeLessThan(VENDOR_PAGE_RESULTS_MAX / 20)
    expect(r.coverage[0]!.capped).toBe(true)
  })

  test('an empty answer for a window proves nothing: the window is not covered', async () => {
    const { provider } = rangeVendor({ results: daily(20, 2), pageSize: 100 })
    const r = await provider.search(query(30), signal())
    expect(r.coverage.map((c) => c.coveredFrom && coveredDaysAgo(c.coveredFrom))).toEqual([null, 30])
  })

  test('newest first and cut short by the budget: covered from the oldest result read, not capped', async () => {
    const { provider, calls } = vendor({ results: daily(60, 3), caps: { dateFilter: 'none', order: 'newest' }, pageSize: 10, maxPages: 3 })
    const r = await provider.search(query(30, false), signal())
    expect(calls).toHaveLength(3)
    expect(r.items).toHaveLength(30)
    expect(coveredDaysAgo(r.coverage[0]!.coveredFrom)).toBe(9)
    expect(r.coverage[0]!.capped).toBe(false)
  })

  test('newest first: paging stops once the results reach past the window', async () => {
    const { provider, calls } = vendor({
      results: daily(100, 1),
      caps: { dateFilter: 'none', order: 'newest' },
      pageSize: 25,
      maxPages: 10,
    })
    const r = await provider.search(query(15, false), signal())
    expect(calls).toHaveLength(2)
    expect(r.coverage[0]!.coveredFrom).toEqual(new Date(NOW - 30 * DAY))
  })

  test('relevance order cut short by the budget: the count is a lower bound (capped)', async () => {
    const { provider } = rangeVendor({ results: daily(60, 3), pageSize: 10, maxPages: 2 })
    const r = await provider.search(query(30), signal())
    expect(r.coverage.map((c) => c.capped)).toEqual([true, true])
  })
})

describe('what is dropped, and when paging stops', () => {
  test('undated results, results outside the window and repeats across pages are counted, not kept', async () => {
    const results = [post('a', 1), post('u1', null), post('b', 2), post('a', 1), post('far', 400), post('u2', null), post('c', 3)]
    const { provider } = vendor({ results, caps: { dateFilter: 'none', order: 'relevance' }, pageSize: 3 })
    const r = await provider.search(query(30, false), signal())
    expect(r.items.map((i) => i.id)).toEqual(['a', 'b', 'c'])
    expect(r.dropped).toEqual({ undated: 2, out_of_window: 1, duplicate: 1, unreadable: 0 })
    expect(r.requests).toBe(3)
  })

  test('a vendor that ignores the page number answers page 1 again: paging stops there, and that is no cap', async () => {
    const { provider, calls } = vendor({
      results: daily(40),
      caps: { dateFilter: 'none', order: 'relevance' },
      ignoresPage: true,
      pageSize: 10,
      maxPages: 5,
    })
    const r = await provider.search(query(30, false), signal())
    expect(calls).toHaveLength(2)
    expect(r.items).toHaveLength(10)
    expect(r.dropped.duplicate).toBe(10)
    // Nothing new was coming: the count of what it has is all it has, not a lower bound.
    expect(r.coverage[0]!.capped).toBe(false)
    expect(coveredDaysAgo(r.coverage[0]!.coveredFrom)).toBe(9)
  })

  test('a page of the same notes under other share links brings nothing new: paging stops, the links are duplicates', async () => {
    const note = (n: number, share: string): Result => ({
      id: `n${n}-${share}`,
      daysAgo: n,
      url: `https://www.xiaohongshu.com/explore/${n.toString(16).padStart(24, '0')}?xsec_token=${share}${n}&xsec_source=${share}`,
    })
    const pages = [0, 1, 2].flatMap((p) => Array.from({ length: 10 }, (_, n) => note(n, `share${p}`)))
    const { provider, calls } = vendor({ results: pages, caps: { dateFilter: 'none', order: 'relevance' }, pageSize: 10, maxPages: 3 })
    const r = await provider.search(query(30, false), signal())
    expect(calls).toHaveLength(2)
    expect(r.items).toHaveLength(10)
    expect(r.dropped.duplicate).toBe(10)
    expect(r.coverage[0]!.capped).toBe(false)
  })

  test('which links are one post does not depend on the order the vendor returns them in', async () => {
    // Two notes with the same words on the same day, and a short link (no id) with those words: it could be either.
    const same = { daysAgo: 2, text: '露营装备清单：帐篷、睡袋和炉具' }
    const short: Result = { id: 'short', url: 'http://xhslink.com/a/AbCdEf123', ...same }
    const notes = ['6650a1b2c3d4e5f601234567', '6650a1b2c3d4e5f601234568'].map(
      (n): Result => ({ id: n, url: `https://www.xiaohongshu.com/explore/${n}?xsec_token=t${n}`, ...same }),
    )
    const counted = async (results: Result[]) => {
      const { provider } = vendor({ results, caps: { dateFilter: 'none', order: 'relevance' } })
      const r = await provider.search(query(30, false), signal())
      return { ids: r.items.map((i) => i.id).sort(), duplicate: r.dropped.duplicate }
    }
    const expected = { ids: ['6650a1b2c3d4e5f601234567', '6650a1b2c3d4e5f601234568', 'short'], duplicate: 0 }
    expect(await counted([short, ...notes])).toEqual(expected)
    expect(await counted([...notes, short])).toEqual(expected)
    // With one note, the short link is a copy of it, and the note is the one kept, whichever came first.
    expect(await counted([short, notes[0]!])).toEqual({ ids: [notes[0]!.id], duplicate: 1 })
    expect(await counted([notes[0]!, short])).toEqual({ ids: [notes[0]!.id], duplicate: 1 })
  })

  test('relevance order mixes dates: a result older than the window on page 1 does not end the paging', async () => {
    // Page 1 holds a result from 70 days back, and the 40 posts after it are inside the window: a buyer expects
    // them counted, or the window called a lower bound.
    const results = [...daily(9), post('old', 70), ...daily(40, 1, 'q')]
    const caps: SearchCapabilities = { dateFilter: 'none', order: 'relevance' }
    const all = vendor({ results, caps, pageSize: 10, maxPages: 10 })
    const r = await all.provider.search(query(30, false), signal())
    expect(all.calls).toHaveLength(5)
    expect(r.items).toHaveLength(49)
    expect(r.coverage[0]!.coveredFrom).toEqual(new Date(NOW - 60 * DAY))
    expect(r.coverage[0]!.capped).toBe(false)
    // Cut short by the budget while new posts were coming: covered back to the start, but the count is a lower bound.
    const budget = vendor({ results, caps, pageSize: 10, maxPages: 3 })
    const cut = await budget.provider.search(query(30, false), signal())
    expect(budget.calls).toHaveLength(3)
    expect(cut.items).toHaveLength(29)
    expect(cut.coverage[0]!.coveredFrom).toEqual(new Date(NOW - 60 * DAY))
    expect(cut.coverage[0]!.capped).toBe(true)
  })

  test('capped only when the page budget stops paging while new results are coming', async () => {
    const budget = vendor({ results: daily(50, 2), caps: { dateFilter: 'none', order: 'relevance' }, pageSize: 10, maxPages: 3 })
    const r = await budget.provider.search(query(30, false), signal())
    expect(budget.calls).toHaveLength(3)
    expect(r.coverage[0]!.capped).toBe(true)
    const enough = vendor({ results: daily(50, 2), caps: { dateFilter: 'none', order: 'relevance' }, pageSize: 10, maxPages: 10 })
    const all = await enough.provider.search(query(30, false), signal())
    expect(all.coverage[0]!.capped).toBe(false)
  })

  test('a later page that fails keeps the earlier pages and says so; a first page that fails fails the call', async () => {
    const later = vendor({ results: daily(40), caps: { dateFilter: 'none', order: 'newest' }, pageSize: 10, failPage: 2 })
    const r = await later.provider.search(query(30, false), signal())
    expect(r.items).toHaveLength(10)
    expect(r.partial).toContain('page 2 failed (rate_limited)')
    expect(coveredDaysAgo(r.coverage[0]!.coveredFrom)).toBe(9)
    const first = vendor({ results: daily(40), caps: { dateFilter: 'none', order: 'newest' }, failPage: 1 })
    expect((await failure(first.provider.search(query(30, false), signal()))).retryAfterSeconds).toBe(30)
  })

  test('no further page once half the call’s time is spent', async () => {
    const clock = { now: NOW, perPage: 3000 }
    const { calls } = await (async () => {
      const v = vendor({ results: daily(60, 3), caps: { dateFilter: 'none', order: 'newest' }, maxPages: 5, timeoutMs: 8000, clock })
      await v.provider.search(query(30, false), signal())
      return v
    })()
    // Pages at 3 s and 6 s; the third would start after 6 s of an 8 s budget.
    expect(calls).toHaveLength(2)
  })
})

/** A call's evidence as the lanes hand it to momentum: items with a coverage per window. */
function set(items: Result[], coverage: { from: number; to: number; coveredDaysAgo: number | null; capped?: boolean }[]): CallEvidence {
  const ev = items.map(
    (r): EvidenceItem => ({
      id: r.id,
      url: null,
      platform: 'douyin',
      retrieval: 'native',
      sourceKind: 'video',
      author: `a${r.id.length % 7}`,
      authorFollowers: 1000,
      authorCity: null,
      publishedAt: new Date(NOW - r.daysAgo! * DAY - 3_600_000),
      title: '',
      text: '露营',
      language: 'zh',
      engagement: null,
      provider: 'p',
    }),
  )
  return {
    provider: 'p',
    items: ev,
    coverage: coverage.map((c) => ({
      from: new Date(NOW - c.from * DAY),
      to: new Date(NOW - c.to * DAY),
      coveredFrom: c.coveredDaysAgo === null ? null : new Date(NOW - c.coveredDaysAgo * DAY),
      capped: c.capped ?? false,
    })),
  }
}
const gathered = (...sets: CallEvidence[]) => ({ items: sets.flatMap((s) => s.items), sets })

describe('momentum on what the providers cover', () => {
  test('30 recent items against an empty prior window the provider never reached is insufficient_evidence, with the reason; never rising', () => {
    const web = set(daily(6, 5, 'w'), [{ from: 180, to: 0, coveredDaysAgo: 6 }])
    const m = momentumOf(gathered(web), new Date(NOW), 90)
    expect(m.momentum).toBe('insufficient_evidence')
    expect(m.reason).toContain('prior window')
    expect(m.reason).toContain(`${MOMENTUM.minCoveredShare * 100}%`)
    expect(m.counted).toBe(0)
  })

  test('a provider covering both windows is counted; a recent-only web engine beside it is left out of the counts', () => {
    const native = set(
      [...daily(60, 1, 'n')],
      [
        { from: 60, to: 30, coveredDaysAgo: 60 },
        { from: 30, to: 0, coveredDaysAgo: 30 },
      ],
    )
    const web = set(daily(5, 6, 'w'), [{ from: 60, to: 0, coveredDaysAgo: 5 }])
    const m = momentumOf(gathered(native, web), new Date(NOW), 30)
    expect(m.momentum).toBe('stable')
    expect([m.recent.items, m.prior.items]).toEqual([30, 30])
    expect(m.uncounted).toBe(30)
  })

  test('a window covered for half its days is compared per covered day', () => {
    const native = set(daily(45, 2, 'n'), [{ from: 60, to: 0, coveredDaysAgo: 45 }])
    const m = momentumOf(gathered(native), new Date(NOW), 30)
    expect(m.prior.covered_days).toBe(15)
    expect(m.momentum).toBe('stable')
  })

  test('a capped window is a lower bound: a rise into a capped recent window stands, a fall out of it does not', () => {
    const rising = set(
      [...daily(30, 3, 'r'), ...Array.from({ length: 30 }, (_, i) => post(`q${i}`, 30 + i))],
      [
        { from: 60, to: 30, coveredDaysAgo: 60 },
        { from: 30, to: 0, coveredDaysAgo: 30, capped: true },
      ],
    )
    expect(momentumOf(gathered(rising), new Date(NOW), 30).momentum).toBe('rising')
    const falling = set(
      [...daily(30, 1, 'r'), ...Array.from({ length: 90 }, (_, i) => post(`q${i}`, 30 + Math.floor(i / 3)))],
      [
        { from: 60, to: 30, coveredDaysAgo: 60 },
        { from: 30, to: 0, coveredDaysAgo: 30, capped: true },
      ],
    )
    const m = momentumOf(gathered(falling), new Date(NOW), 30)
    expect(m.momentum).toBe('insufficient_evidence')
    expect(m.reason).toContain("recent window reached the provider's result cap")
    const both = set(daily(60, 2), [{ from: 60, to: 0, coveredDaysAgo: 60, capped: true }])
    expect(momentumOf(gathered(both), new Date(NOW), 30).reason).toContain("both windows reached the provider's result cap")
  })
})
