/** `data` of the trends routes: momentum, confidence, themes, related keywords, angles, evidence. */
import { LIVE_RESULTS_PER_CALL, MOMENTUM } from '../../catalog'
import { confidence } from '../analysis/confidence'
import { countOf, type Platform } from '../evidence'
import { nearNameCheck, nearNames, type Asked } from '../names/asked'
import { droppedTotals, gather, type Gathered } from '../lanes'
import type { ProviderSpend } from '../../core'
import { verdictOf, weeklyReading, type Verdict, type WeeklyReading, type WeeklySeries } from '../analysis/weekly'
import { changeWithinNoise, momentumOf, windowsOf, type MomentumResult } from '../analysis/momentum'
import { byStrength, evidenceSummary, isoDay, modeField, ref } from './report'
import type { Computed } from './evidence-answer'
import type { EvidenceSources } from '../sources'
import { themesOf } from '../analysis/themes'

export interface TrendRequest {
  /** What the answer calls the subject: the resolved entity's name (the same in every language asked). */
  subject: string
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
  request: Pick<TrendRequest, 'subject' | 'platform' | 'days'>,
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
    return `No direction can be called for "${request.subject}" ${where}: ${result.reason ?? 'too little evidence'} (${tail}).${beside}`
  const pct = result.volume_change_pct
  const volume = pct === null ? '' : `${pct > 0 ? '+' : ''}${pct}% volume`
  const volumeZ = result.volume_z ?? 0
  // The windows, stated (a buyer compares them with the weekly data), with the plain change beside them.
  const windows = `${result.recent.from} to ${result.recent.to} vs ${result.prior.from} to ${result.prior.to}`
  // A stable call with a reason: the change is in passing mentions (momentum()).
  const change = result.reason
    ? ` (${windows}${volume ? `; ${volume}` : ''}); ${result.reason}`
    : changeWithinNoise(result)
      ? ` (${windows}); ${volume} is within count noise (z ${volumeZ} ${volumeZ < 0 ? `> -${MOMENTUM.minZ}` : `< ${MOMENTUM.minZ}`})`
      : offsetByEngagement(result)
        ? ` (${windows}); ${volume}, but engagement moved the other way (score ${result.score} within ±${MOMENTUM.threshold})`
        : ` (${windows}${volume ? `; ${volume}` : ''})`
  // Counted from part of the evidence: the rest came from results that do not reach the prior window.
  const part = result.uncounted
    ? `, counted from the ${result.recent.items + result.prior.items} of ${items} items whose sources reach back to ${result.prior.from}`
    : ''
  // Passing mentions count part of a post: the counts compared, beside the items (more than rounding apart).
  const { recent, prior } = result
  const weighted =
    Math.abs(recent.weighted_items - recent.items) > 0.5 || Math.abs(prior.weighted_items - prior.items) > 0.5
      ? `, ${recent.weighted_items} vs ${prior.weighted_items} weighted by relevance`
      : ''
  return `"${request.subject}" is ${result.momentum} ${where}: ${recent.items} items in the last ${request.days} days vs ${prior.items} in the ${request.days} before${weighted}${change}${part}; ${tail}.${beside}`
}

/**
 * The headline when the weekly ranking decided: its direction first, then why it is the stronger reading,
 * then what the evidence read for the answer shows on its own (its own headline, as it would have been).
 */
function decided(request: Pick<TrendRequest, 'subject' | 'platform'>, verdict: Verdict, weekly: WeeklyReading | null, own: string): string {
  if (verdict.source !== 'weekly_ranking' || !weekly || !verdict.counted) return own
  const what = weekly.source === 'signal_topics' ? 'weekly topic ranking' : 'weekly brand ranking'
  const { weekly: posts, evidence: items } = verdict.counted
  return (
    `"${request.subject}" is ${verdict.momentum} on ${PLATFORM_LABEL.en[request.platform]} by its ${what}: ` +
    `${weekly.recent.per_week.toLocaleString('en')} ${weekly.measure} a week vs ${weekly.prior.per_week.toLocaleString('en')} (${weekly.change_pct > 0 ? '+' : ''}${weekly.change_pct}%) over the whole weeks of the same windows, ` +
    `${posts.toLocaleString('en')} ${weekly.measure} counted against the ${items} evidence items read here, the stronger reading. ` +
    `The evidence alone: ${own}`
  )
}

/** The asked entity's evidence over a span (with `split`, two windows); a near-miss keyword with too little of it is a free 404. */
export async function gatherAsked(
  src: EvidenceSources,
  request: { asked: Asked; platform: Platform | 'all' },
  span: { from: Date; to: Date; split?: Date },
  spend: ProviderSpend[] | undefined,
): Promise<Gathered> {
  const { asked } = request
  const typed = { typed: asked.input, match: asked.match, query: asked.query }
  const gathered = await nearNames(
    asked,
    gather(src, request.platform, { ...typed, ...span, limit: LIVE_RESULTS_PER_CALL, ...(spend ? { spend } : {}) }),
  )
  nearNameCheck(asked, Math.round(countOf(gathered.items)))
  return gathered
}

export async function trendReport(src: EvidenceSources, request: TrendRequest, spend?: ProviderSpend[]): Promise<Computed> {
  const asOf = src.asOf()
  const { prior, recent } = windowsOf(asOf, request.days)
  const asked = request.asked
  const gathered = await gatherAsked(src, request, { from: prior.from, to: asOf, split: recent.from }, spend)
  const found = Math.round(countOf(gathered.items))
  const momentumResult = momentumOf(gathered, asOf, request.days)
  // Coverage: the share of the two windows' days covered, times the share of the items the counts rest on.
  const counted =
    momentumResult.counted + momentumResult.uncounted > 0 ? momentumResult.counted / (momentumResult.counted + momentumResult.uncounted) : 0
  const confidenceResult = confidence(
    gathered.items,
    asOf,
    request.days,
    ((momentumResult.recent.covered_days + momentumResult.prior.covered_days) / (2 * request.days)) *
      (momentumResult.momentum === 'insufficient_evidence' ? 1 : counted),
    src.quality().sample,
  )
  // The weekly figure is context: a failed read of it leaves it out, not the answer.
  const series = request.weekly ? await request.weekly.catch(() => null) : null
  const weekly = series ? weeklyReading(series, asOf, request.days, momentumResult) : null
  const verdict = verdictOf(momentumResult, weekly)
  const themes = await themesOf(src, request.subject, request.platform, gathered.items, asked.ownTerms, spend)
  const mode = modeField(gathered.items)
  return {
    data: {
      keyword: asked.input,
      resolved: asked.resolved,
      platform: request.platform,
      timeframe: request.timeframe,
      window: { from: isoDay(prior.from), to: isoDay(new Date(asOf.getTime() - 1)), as_of: asOf.toISOString() },
      summary: {
        momentum: verdict.momentum,
        momentum_source: verdict.source,
        confidence: confidenceResult.value,
        themes: themes.themes,
        headline: decided(
          request,
          verdict,
          weekly,
          headline(request, momentumResult, confidenceResult.value, found, mode.evidence_mode, weekly, found > gathered.items.length),
        ),
      },
      weekly_ranking: weekly,
      momentum_detail: {
        score: momentumResult.score,
        volume_z: momentumResult.volume_z,
        recent: momentumResult.recent,
        prior: momentumResult.prior,
        volume_change_pct: momentumResult.volume_change_pct,
        engagement_change_pct: momentumResult.engagement_change_pct,
        reason: momentumResult.reason,
        counted_items: momentumResult.counted,
        uncounted_items: momentumResult.uncounted,
      },
      confidence_detail: {
        volume: confidenceResult.volume,
        diversity: confidenceResult.diversity,
        recency: confidenceResult.recency,
        native_share: confidenceResult.native_share,
        relevance: confidenceResult.relevance,
        coverage: confidenceResult.coverage,
        sample: confidenceResult.sample,
      },
      related_keywords: themes.related_keywords,
      content_angles: themes.content_angles,
      themes_source: themes.themes_source,
      evidence: evidenceSummary(gathered.items, gathered.lanes),
      top_evidence: [...gathered.items].sort(byStrength).slice(0, TOP_EVIDENCE).map(ref),
      ...mode,
    },
    calls: [...gathered.calls, ...(themes.call ? [themes.call] : [])],
    dropped: droppedTotals(gathered),
  }
}
