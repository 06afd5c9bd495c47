/**
 * Retrieval lanes. Platforms are not equally indexable, so each has a policy:
 *
 * - douyin, wechat (`native_first`): the first-party discovery provider first; broadened to web evidence
 *   only when the native set is too thin (THIN_EVIDENCE) — which includes the native provider failing.
 * - xiaohongshu (`proxy_read`): a proxy read of open-web coverage (reports, analysis, platform-adjacent
 *   pages), unless a native provider returns strong evidence (STRONG_NATIVE_EVIDENCE); weaker native
 *   items are kept beside the proxy evidence.
 *
 * Queries are shaped per platform for web providers: social-content terms for xiaohongshu, video for
 * douyin, article terms for wechat.
 */
import { PLATFORM_TOKENS, STRONG_NATIVE_EVIDENCE, THIN_EVIDENCE } from '../catalog'
import { ApiError, notFound, type ProviderSpend, redactDeep } from '../core'
import {
  countOf,
  creatorsOn,
  ProviderError,
  ProviderNotCalled,
  publisherOf,
  type Dropped,
  type EvidenceItem,
  type EvidenceProvider,
  type EvidenceQuery,
  type Platform,
  type WindowCoverage,
} from './evidence'
import { withDeadline } from './providers/vendor-call'
import { distinctPosts } from './names/post-identity'
import type { Matcher } from './analysis/relevance'
import type { ProviderHealth } from './providers/provider-health'
import { eachSliced } from './turns'
import type { EvidenceSources } from './sources'

export type LanePolicy = 'native_first' | 'proxy_read'

export const LANE_POLICY: Readonly<Record<Platform, LanePolicy>> = {
  xiaohongshu: 'proxy_read',
  douyin: 'native_first',
  wechat: 'native_first',
}

/** The keyword as sent to web providers for each platform. */
export const WEB_QUERY: Readonly<Record<Platform, (keyword: string) => string>> = {
  xiaohongshu: (k) => `${k} 小红书 笔记`,
  douyin: (k) => `${k} 抖音 视频`,
  wechat: (k) => `${k} 公众号 文章`,
}

export interface ProviderReport {
  provider: string
  role: 'native' | 'web' | 'summary'
  platform: Platform | null
  status: 'ok' | 'empty' | 'failed' | 'timeout' | 'rate_limited'
  /** Relevant items kept. */
  items: number
  /** HTTP requests (pages) the call made; absent for the embedded corpus. */
  requests?: number
  /** Items the provider returned that were not about what was asked (dropped). */
  off_topic?: number
  /** Results dropped before relevance: undated, outside the window, repeats, or with nothing to read. */
  dropped?: Dropped & { unreadable?: number }
  /** The provider read an evenly drawn sample of its candidates: `items` and `off_topic` are estimated from it. */
  sampled?: { candidates: number; read: number }
  /** How far back the call's results reach, per window asked for (live providers). */
  coverage?: { from: string; to: string; covered_from: string | null; capped: boolean }[]
  /** A later page failed; the earlier pages are kept. */
  partial?: string
  error?: string
  /** rate_limited: when the provider said to retry. */
  retry_after_seconds?: number
}

/** The relevant items of one successful provider call, with how far its results cover the window(s). */
export interface CallEvidence {
  provider: string
  items: EvidenceItem[]
  coverage: WindowCoverage[]
}

export interface LaneReport {
  platform: Platform
  policy: LanePolicy
  native_items: number
  proxy_items: number
  /** Whether the native evidence met the bar of the policy (thin threshold, or strong for a proxy read). */
  native_sufficient: boolean
  /** Whether web evidence was added. */
  broadened: boolean
}

export interface Gathered {
  items: EvidenceItem[]
  lanes: LaneReport[]
  calls: ProviderReport[]
  /** Per successful call: its relevant items and coverage (momentum counts only calls that cover its windows). */
  sets: CallEvidence[]
  /** The same item found by more than one call (lanes share the web provider), counted once. */
  duplicates: number
}

export interface EvidenceRequest {
  /** The keyword as the buyer typed it (for messages); the resolved subject is the answer's own. */
  typed: string
  match: Matcher
  /** What live providers are asked for: the entity's Chinese name when it has one (all three platforms are Chinese). */
  query: string
  from: Date
  to: Date
  limit: number
  /** Where the window splits into the windows the answer compares (trends: prior and recent). */
  split?: Date
  /** Where every provider request is added as it completes, failed ones too: what the answer cost the seller. */
  spend?: ProviderSpend[]
  /** A KOL request: only creators count, so only native providers that name them are asked (never the web). */
  creators?: boolean
}

export function meets(items: readonly EvidenceItem[], bar: { items: number; authors: number }): boolean {
  return countOf(items) >= bar.items && new Set(items.map(publisherOf)).size >= bar.authors
}

const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z')

/** What a failed call is reported as. */
const failedStatus = (e: ProviderError): ProviderReport['status'] =>
  e.kind === 'timeout' ? 'timeout' : e.kind === 'rate_limited' ? 'rate_limited' : 'failed'

/** The price of `requests` requests of a provider, when its price is configured. */
const priced = (p: EvidenceProvider, requests: number): bigint | null =>
  p.pricePerRequestNanoUsd === undefined ? null : p.pricePerRequestNanoUsd * BigInt(requests)

interface StepResult {
  items: EvidenceItem[]
  calls: ProviderReport[]
  sets: CallEvidence[]
}

/** One lane step: every provider of the step in parallel; failures become reports, not exceptions. Only relevant items are kept. */
async function step(
  providers: readonly EvidenceProvider[],
  query: EvidenceQuery,
  spend: ProviderSpend[] | undefined,
  health: ProviderHealth | undefined,
  parent?: AbortSignal,
): Promise<StepResult> {
  const spent = (p: EvidenceProvider, requests: number) => {
    if (requests > 0) spend?.push({ provider: p.name, role: p.role, requests, costNanoUsd: priced(p, requests) })
  }
  const results = await Promise.all(
    providers.map(async (provider): Promise<{ items: EvidenceItem[]; call: ProviderReport; set?: CallEvidence }> => {
      const base = { provider: provider.name, role: provider.role, platform: query.platform } as const
      const started = performance.now()
      const took = () => (performance.now() - started) / 1000
      try {
        const found = await withDeadline(provider.name, provider.timeoutMs, (signal) => provider.search(query, signal), parent)
        const seconds = took()
        spent(provider, found.requests)
        // A vendor that quotes the request (a search page echoing its URL) puts our key into the text, which is
        // segmented, lower-cased and quoted from here on: it is taken out before anything reads it.
        const items = await relevant(provider.local ? found.items : found.items.map(redactDeep), query.match)
        // Counts as the items stand for them: a sampled call's are estimates (its `sampled` says of what).
        const kept = Math.round(countOf(items))
        const offTopic = Math.round(countOf(found.items)) - kept
        const dropped = Object.values(found.dropped).some((n) => n > 0) ? { dropped: found.dropped } : {}
        const live = found.requests > 0
        const call: ProviderReport = {
          ...base,
          status: items.length ? 'ok' : 'empty',
          items: kept,
          ...(live ? { requests: found.requests } : {}),
          ...(found.sampled ? { sampled: found.sampled } : {}),
          ...(offTopic > 0 ? { off_topic: offTopic } : {}),
          ...dropped,
          ...(live
            ? {
                coverage: found.coverage.map((entry) => ({
                  from: iso(entry.from),
                  to: iso(entry.to),
                  covered_from: entry.coveredFrom && iso(entry.coveredFrom),
                  capped: entry.capped,
                })),
              }
            : {}),
          ...(found.partial ? { partial: found.partial } : {}),
        }
        health?.note(provider.name, call.status, found.partial, seconds)
        return { items, call, set: { provider: provider.name, items, coverage: found.coverage } }
      } catch (caught) {
        const error = caught instanceof ProviderError ? caught : new ProviderError('unavailable', provider.name, String(caught))
        // A failed call was still a request the provider may bill for (the embedded corpus bills nothing).
        if (!provider.local && !(error instanceof ProviderNotCalled)) spent(provider, 1)
        const call: ProviderReport = {
          ...base,
          status: failedStatus(error),
          items: 0,
          error: error.message,
          ...(error.retryAfterSeconds !== undefined ? { retry_after_seconds: error.retryAfterSeconds } : {}),
        }
        health?.note(provider.name, call.status, error.message, took())
        return { items: [], call }
      }
    }),
  )
  return {
    items: results.flatMap((r) => r.items),
    calls: results.map((r) => r.call),
    sets: results.flatMap((r) => (r.set ? [r.set] : [])),
  }
}

/** Runs one platform's lane. */
export async function gatherLane(
  sources: EvidenceSources,
  platform: Platform,
  request: EvidenceRequest,
  parent?: AbortSignal,
): Promise<Gathered> {
  const policy = LANE_POLICY[platform]
  const query = (role: 'native' | 'web'): EvidenceQuery => ({
    platform,
    step: role,
    keyword: request.typed,
    match: request.match,
    q: role === 'native' ? request.query : WEB_QUERY[platform](request.query),
    from: request.from,
    to: request.to,
    limit: request.limit,
    ...(request.split ? { split: request.split } : {}),
    ...(request.creators ? { creators: true } : {}),
  })
  const natives = sources.native.filter((p) => (request.creators ? creatorsOn(p, platform) : p.serves(platform)))
  const native = await step(natives, query('native'), request.spend, sources.health, parent)
  const sufficient = meets(native.items, policy === 'native_first' ? THIN_EVIDENCE : STRONG_NATIVE_EVIDENCE)
  // Web pages name no creators: a KOL request never pays for them.
  const web: StepResult =
    sufficient || request.creators || sources.web.length === 0
      ? { items: [], calls: [], sets: [] }
      : await step(sources.web, query('web'), request.spend, sources.health, parent)
  const { items, duplicates } = dedupe([...native.items, ...web.items])
  return {
    items,
    sets: [...native.sets, ...web.sets],
    duplicates,
    lanes: [
      {
        platform,
        policy,
        native_items: Math.round(countOf(items.filter((i) => i.retrieval === 'native'))),
        proxy_items: Math.round(countOf(items.filter((i) => i.retrieval === 'proxy'))),
        native_sufficient: sufficient,
        broadened: web.calls.length > 0,
      },
    ],
    calls: [...native.calls, ...web.calls],
  }
}

/**
 * Evidence for one platform, or all three lanes merged when `platform` is `all`. With no item at all,
 * a provider failure is an error (504 when every failure was a timeout, else 502); with no failure
 * either, there is simply no evidence: a 404 (run after payment, so the gate releases it: free).
 */
export async function gather(
  sources: EvidenceSources,
  platform: Platform | 'all',
  request: EvidenceRequest,
  parent?: AbortSignal,
): Promise<Gathered> {
  const lanes = await Promise.all((platform === 'all' ? PLATFORM_TOKENS : [platform]).map((p) => gatherLane(sources, p, request, parent)))
  // Every call's items at once, not the lanes' posts: which links are one post depends on all of them (post-identity.ts).
  const sets = lanes.flatMap((l) => l.sets)
  const { items, duplicates } = dedupe(sets.flatMap((s) => s.items))
  const merged: Gathered = {
    items,
    lanes: lanes.flatMap((l) => l.lanes),
    calls: lanes.flatMap((l) => l.calls),
    sets,
    duplicates,
  }
  if (merged.items.length === 0) throw noEvidence(merged.calls, request.typed)
  return merged
}

/** The items that are about what was asked, each with its relevance (in slices: thousands of items take a while). */
async function relevant(items: readonly EvidenceItem[], match: Matcher): Promise<EvidenceItem[]> {
  const out: EvidenceItem[] = []
  await eachSliced(items, (i) => {
    const relevance = match.relevance(i)
    if (relevance > 0) out.push(i.relevance === relevance ? i : { ...i, relevance })
  })
  return out
}

/**
 * Items once each (one post under several links or URL forms is one, shown by a native result or a link naming
 * its id first: post-identity.ts), in publication order, and how many repeats were dropped, counted as the
 * items stand for them (a sampled item's weight), like the other counts of `data_quality.dropped`.
 */
function dedupe(items: EvidenceItem[]): { items: EvidenceItem[]; duplicates: number } {
  const { kept } = distinctPosts(items)
  return {
    items: kept.sort((a, b) => a.publishedAt.getTime() - b.publishedAt.getTime() || a.id.localeCompare(b.id)),
    duplicates: Math.round(countOf(items) - countOf(kept)),
  }
}

/** Totals of what the calls dropped, for `data_quality.dropped`. */
export function droppedTotals(gathered: Pick<Gathered, 'calls' | 'duplicates'>) {
  const totals = { undated: 0, out_of_window: 0, off_topic: 0, duplicate: gathered.duplicates, unreadable: 0 }
  for (const call of gathered.calls) {
    totals.off_topic += call.off_topic ?? 0
    totals.undated += call.dropped?.undated ?? 0
    totals.out_of_window += call.dropped?.out_of_window ?? 0
    totals.duplicate += call.dropped?.duplicate ?? 0
    totals.unreadable += call.dropped?.unreadable ?? 0
  }
  return totals
}

/**
 * The error of an answer without evidence: a 404 when every provider answered (empty), 504 when every
 * failure was a timeout, 503 when every failure was a rate limit (with the longest Retry-After), else 502.
 */
export function noEvidence(calls: readonly ProviderReport[], keyword: string, parameter = 'keyword'): ApiError {
  const failures = calls.filter((c) => c.status === 'failed' || c.status === 'timeout' || c.status === 'rate_limited')
  let error: ApiError
  if (failures.length === 0) {
    const notFoundError = notFound('evidence for', keyword, parameter)
    error = new ApiError(
      'not_found',
      `No evidence found for "${keyword}" in the requested window; nothing was charged.`,
      notFoundError.details,
    )
  } else {
    const providers = failures.map((failure) => ({
      provider: failure.provider,
      status: failure.status,
      error: failure.error,
      ...(failure.retry_after_seconds !== undefined ? { retry_after_seconds: failure.retry_after_seconds } : {}),
    }))
    if (failures.every((f) => f.status === 'timeout')) {
      error = new ApiError(
        'provider_timeout',
        'The evidence providers did not answer in time; nothing was charged. Retry later with the same proof.',
        { providers },
      )
    } else if (failures.every((f) => f.status === 'rate_limited')) {
      const wait = Math.max(PROVIDER_RETRY_SECONDS, ...failures.map((f) => f.retry_after_seconds ?? 0))
      error = new ApiError(
        'provider_rate_limited',
        `The evidence providers are rate-limiting this service; nothing was charged. Retry after ${wait} seconds with the same proof.`,
        { providers },
        { retryAfterSeconds: wait },
      )
    } else {
      error = new ApiError(
        'provider_unavailable',
        'The evidence providers could not answer; nothing was charged. Retry later with the same proof.',
        { providers },
      )
    }
  }
  return error
}

/** Seconds a buyer is told to wait when the providers rate-limit without saying for how long. */
const PROVIDER_RETRY_SECONDS = 30
