/** `data` of the trends routes: momentum, confidence, themes, related keywords, angles, evidence. */
import { LIVE_RESULTS_PER_CALL, MOMENTUM } from '../catalog/evidence-rules'
import { confidence } from './confidence'
import { countOf, type Platform } from './evidence'
import { nearNameCheck, nearNames, type Asked } from './asked'
import { droppedTotals, gather } from './lanes'
import type { ProviderSpend } from '../core/provider-spend'
import { verdictOf, weeklyReading, type Verdict, type WeeklyReading, type WeeklySeries } from './weekly'
import { changeWithinNoise, momentumOf, windowsOf, type MomentumResult } from './momentum'
import { byStrength, evidenceSummary, isoDay, modeField, ref } from './report'
import type { Computed } from './evidence-answer'
import type { EvidenceSources } from './sources'
import { themesOf } from './themes'

export interface TrendRequest {
  /** What the answer calls the subject: the resolved entity's name (the same in every language asked). */
  keyword: string
  asked: Asked
  platform: Platform | 'all'
  days: number
  timeframe: string
  /** The weekly ranking of the same topic or brand, when there is one (weekly.ts). */
  weekly?: Promise<WeeklySeries | null> | null
}

export const PLATFORM_LABEL = {
  en: { xiaohongshu: 'Xiaohongshu', douyin: 'Douyin', wechat: 'WeChat', all: 'all three platforms' },
  zh: { xiaohongshu: '小红书', douyin: '抖音', wechat: '微信', all: '三个平台' },
} as const

const TOP_EVIDENCE = 5

/** A stable call next to a sizeable volume change says why: the change is within count noise (changeWithinNoise). */
/** Stable although the volume changed beyond the threshold and beyond noise: the engagement term pulled the score back. */
const offsetByEngagement = (result: MomentumResult) =>
  result.momentum === 'stable' &&
  result.volume_change_pct !== null &&
  Math.abs(Math.log1p(result.volume_change_pct / 100)) >= MOMENTUM.threshold &&
  !changeWithinNoise(result)

export function headline(
  request: Pick<TrendRequest, 'keyword' | 'platform' | 'days'>,
  result: MomentumResult & { uncounted?: number },
  conf: number,
  items: number,
  mode: string | undefined,
  weekly: WeeklyReading | null = null,
  /** The counts are estimated from a sample of the evidence (evidence.sampled). */
  estimated = false,
): string {
  const where = `on ${PLATFORM_LABEL.en[request.platform]}`
  const tail = `confidence ${conf} from ${estimated ? 'an estimated ' : ''}${items} items${mode ? `, ${mode} evidence` : ''}`
  // The weekly ranking of the same topic or brand over the same span, and why the readings differ when they do.
  const beside = weekly ? ` Weekly: ${weekly.note}.` : ''
  if (result.momentum === 'insufficient_evidence')
    return `No direction can be called for "${request.keyword}" ${where}: ${result.reason ?? 'too little evidence'} (${tail}).${beside}`
  const pct = result.volume_change_pct
  const volume = pct === null ? '' : `${pct > 0 ? '+' : ''}${pct}% volume`
  const z = result.volume_z ?? 0
  // The windows, stated (a buyer compares them with the weekly data), with the plain change beside them.
  const windows = `${result.recent.from} to ${result.recent.to} vs ${result.prior.from} to ${result.prior.to}`
  const change = changeWithinNoise(result)
    ? ` (${windows}); ${volume} is within count noise (z ${z} ${z < 0 ? `> -${MOMENTUM.minZ}` : `< ${MOMENTUM.minZ}`})`
    : offsetByEngagement(result)
      ? ` (${windows}); ${volume}, but engagement moved the other way (score ${result.score} within ±${MOMENTUM.threshold})`
      : ` (${windows}${volume ? `; ${volume}` : ''})`
  // Counted from part of the evidence: the rest came from results that do not reach the prior window.
  const part = result.uncounted
    ? `, counted from the ${result.recent.items + result.prior.items} of ${items} items whose sources reach back to ${result.prior.from}`
    : ''
  return `"${request.keyword}" is ${result.momentum} ${where}: ${result.recent.items} items in the last ${request.days} days vs ${result.prior.items} in the ${request.days} before${change}${part}; ${tail}.${beside}`
}

/**
 * The headline when the weekly ranking decided: its direction first, then why it is the stronger reading,
 * then what the evidence read for the answer shows on its own (its own headline, as it would have been).
 */
function decided(request: Pick<TrendRequest, 'keyword' | 'platform'>, verdict: Verdict, weekly: WeeklyReading | null, own: string): string {
  if (verdict.source !== 'weekly_ranking' || !weekly || !verdict.counted) return own
  const what = weekly.source === 'signal_topics' ? 'weekly topic ranking' : 'weekly brand ranking'
  const { weekly: posts, evidence: items } = verdict.counted
  return (
    `"${request.keyword}" is ${verdict.momentum} on ${PLATFORM_LABEL.en[request.platform]} by its ${what}: ` +
    `${weekly.recent.per_week.toLocaleString('en')} ${weekly.measure} a week vs ${weekly.prior.per_week.toLocaleString('en')} (${weekly.change_pct > 0 ? '+' : ''}${weekly.change_pct}%) over the whole weeks of the same windows, ` +
    `${posts.toLocaleString('en')} ${weekly.measure} counted against the ${items} evidence items read here, the stronger reading. ` +
    `The evidence alone: ${own}`
  )
}

export async function trendReport(src: EvidenceSources, request: TrendRequest, spend?: ProviderSpend[]): Promise<Computed> {
  const asOf = src.asOf()
  const { prior, recent } = windowsOf(asOf, request.days)
  const a = request.asked
  const g = await nearNames(
    a,
    gather(src, request.platform, {
      keyword: a.input,
      match: a.match,
      query: a.query,
      from: prior.from,
      to: asOf,
      split: recent.from,
      limit: LIVE_RESULTS_PER_CALL,
      ...(spend ? { spend } : {}),
    }),
  )
  const found = Math.round(countOf(g.items))
  nearNameCheck(a, found)
  const m = momentumOf(g, asOf, request.days)
  // Coverage: the share of the two windows' days covered, times the share of the items the counts rest on.
  const counted = m.counted + m.uncounted > 0 ? m.counted / (m.counted + m.uncounted) : 0
  const c = confidence(
    g.items,
    asOf,
    request.days,
    ((m.recent.covered_days + m.prior.covered_days) / (2 * request.days)) * (m.momentum === 'insufficient_evidence' ? 1 : counted),
    src.quality().sample,
  )
  // The weekly figure is context: a failed read of it leaves it out, not the answer.
  const series = request.weekly ? await request.weekly.catch(() => null) : null
  const weekly = series ? weeklyReading(series, asOf, request.days, m) : null
  const verdict = verdictOf(m, weekly)
  const t = await themesOf(src, request.keyword, request.platform, g.items, a.ownTerms, spend)
  const mode = modeField(g.items)
  return {
    data: {
      keyword: a.input,
      resolved: a.resolved,
      platform: request.platform,
      timeframe: request.timeframe,
      window: { from: isoDay(prior.from), to: isoDay(new Date(asOf.getTime() - 1)), as_of: asOf.toISOString() },
      summary: {
        momentum: verdict.momentum,
        momentum_source: verdict.source,
        confidence: c.value,
        themes: t.themes,
        headline: decided(
          request,
          verdict,
          weekly,
          headline(request, m, c.value, found, mode.evidence_mode, weekly, found > g.items.length),
        ),
      },
      weekly_ranking: weekly,
      momentum_detail: {
        score: m.score,
        volume_z: m.volume_z,
        recent: m.recent,
        prior: m.prior,
        volume_change_pct: m.volume_change_pct,
        engagement_change_pct: m.engagement_change_pct,
        reason: m.reason,
        counted_items: m.counted,
        uncounted_items: m.uncounted,
      },
      confidence_detail: {
        volume: c.volume,
        diversity: c.diversity,
        recency: c.recency,
        native_share: c.native_share,
        relevance: c.relevance,
        coverage: c.coverage,
        sample: c.sample,
      },
      related_keywords: t.related_keywords,
      content_angles: t.content_angles,
      themes_source: t.themes_source,
      evidence: evidenceSummary(g.items, g.lanes),
      top_evidence: [...g.items].sort(byStrength).slice(0, TOP_EVIDENCE).map(ref),
      ...mode,
    },
    calls: [...g.calls, ...(t.call ? [t.call] : [])],
    dropped: droppedTotals(g),
  }
}
