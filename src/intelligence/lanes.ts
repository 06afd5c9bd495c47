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
import { STRONG_NATIVE_EVIDENCE, THIN_EVIDENCE } from '../catalog/evidence-rules'
import { PLATFORM_TOKENS } from '../catalog/platforms'
import { ApiError, notFound } from '../http/errors'
import { ProviderError, type EvidenceItem, type EvidenceProvider, type EvidenceQuery, type Platform } from './evidence'
import { withDeadline } from './providers/call'
import type { Matcher } from './relevance'
import { eachSliced } from './turns'
import type { EvidenceSources } from './sources'

export type LanePolicy = 'native_first' | 'proxy_read'

export const LANE_POLICY: Readonly<Record<Platform, LanePolicy>> = { xiaohongshu: 'proxy_read', douyin: 'native_first', wechat: 'native_first' }

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
  status: 'ok' | 'empty' | 'failed' | 'timeout'
  /** Relevant items kept. */
  items: number
  /** Items the provider returned that were not about what was asked (dropped). */
  off_topic?: number
  error?: string
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
}

export interface EvidenceRequest {
  /** The keyword as the buyer wrote it (for messages). */
  keyword: string
  match: Matcher
  /** What live providers are asked for: the entity's Chinese name when it has one (all three platforms are Chinese). */
  query: string
  from: Date
  to: Date
  limit: number
}

export function meets(items: readonly EvidenceItem[], bar: { items: number; authors: number }): boolean {
  return items.length >= bar.items && new Set(items.map((i) => i.author ?? i.id)).size >= bar.authors
}

/** One lane step: every provider of the step in parallel; failures become reports, not exceptions. Only relevant items are kept. */
async function step(providers: readonly EvidenceProvider[], q: EvidenceQuery, parent?: AbortSignal): Promise<{ items: EvidenceItem[]; calls: ProviderReport[] }> {
  const results = await Promise.all(
    providers.map(async (p): Promise<{ items: EvidenceItem[]; call: ProviderReport }> => {
      const base = { provider: p.name, role: p.role, platform: q.platform } as const
      try {
        const found = await withDeadline(p.name, p.timeoutMs, (signal) => p.search(q, signal), parent)
        const items = await relevant(found, q.match)
        return { items, call: { ...base, status: items.length ? 'ok' : 'empty', items: items.length, ...(found.length > items.length ? { off_topic: found.length - items.length } : {}) } }
      } catch (e) {
        const error = e instanceof ProviderError ? e : new ProviderError('unavailable', p.name, String(e))
        return { items: [], call: { ...base, status: error.kind === 'timeout' ? 'timeout' : 'failed', items: 0, error: error.message } }
      }
    }),
  )
  return { items: results.flatMap((r) => r.items), calls: results.map((r) => r.call) }
}

/** Runs one platform's lane. */
export async function gatherLane(sources: EvidenceSources, platform: Platform, r: EvidenceRequest, parent?: AbortSignal): Promise<Gathered> {
  const policy = LANE_POLICY[platform]
  const query = (s: 'native' | 'web'): EvidenceQuery => ({
    platform, step: s, keyword: r.keyword, match: r.match, q: s === 'native' ? r.query : WEB_QUERY[platform](r.query), from: r.from, to: r.to, limit: r.limit,
  })
  const native = await step(sources.native.filter((p) => p.serves(platform)), query('native'), parent)
  const sufficient = meets(native.items, policy === 'native_first' ? THIN_EVIDENCE : STRONG_NATIVE_EVIDENCE)
  const web = sufficient || sources.web.length === 0 ? { items: [], calls: [] } : await step(sources.web, query('web'), parent)
  const items = dedupe([...native.items, ...web.items])
  return {
    items,
    lanes: [{
      platform, policy,
      native_items: items.filter((i) => i.retrieval === 'native').length,
      proxy_items: items.filter((i) => i.retrieval === 'proxy').length,
      native_sufficient: sufficient,
      broadened: web.calls.length > 0,
    }],
    calls: [...native.calls, ...web.calls],
  }
}

/**
 * Evidence for one platform, or all three lanes merged when `platform` is `all`. With no item at all,
 * a provider failure is an error (504 when every failure was a timeout, else 502); with no failure
 * either, there is simply no evidence: a 404 (run after payment, so the gate releases it: free).
 */
export async function gather(sources: EvidenceSources, platform: Platform | 'all', r: EvidenceRequest, parent?: AbortSignal): Promise<Gathered> {
  const lanes = await Promise.all((platform === 'all' ? PLATFORM_TOKENS : [platform]).map((p) => gatherLane(sources, p, r, parent)))
  const merged = { items: dedupe(lanes.flatMap((l) => l.items)), lanes: lanes.flatMap((l) => l.lanes), calls: lanes.flatMap((l) => l.calls) }
  if (merged.items.length === 0) throw noEvidence(merged.calls, r.keyword)
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

function dedupe(items: EvidenceItem[]): EvidenceItem[] {
  const seen = new Map<string, EvidenceItem>()
  for (const i of items) if (!seen.has(i.url ?? i.id)) seen.set(i.url ?? i.id, i)
  return [...seen.values()].sort((a, b) => a.publishedAt.getTime() - b.publishedAt.getTime() || a.id.localeCompare(b.id))
}

export function noEvidence(calls: readonly ProviderReport[], keyword: string, parameter = 'keyword'): ApiError {
  const failures = calls.filter((c) => c.status === 'failed' || c.status === 'timeout')
  if (failures.length === 0) {
    const e = notFound('evidence for', keyword, parameter)
    return new ApiError('not_found', `No evidence found for "${keyword}" in the requested window; nothing was charged.`, e.details)
  }
  const providers = failures.map((f) => ({ provider: f.provider, status: f.status, error: f.error }))
  return failures.every((f) => f.status === 'timeout')
    ? new ApiError('provider_timeout', 'The evidence providers did not answer in time; nothing was charged. Retry later with the same proof.', { providers })
    : new ApiError('provider_unavailable', 'The evidence providers could not answer; nothing was charged. Retry later with the same proof.', { providers })
}
