/**
 * Momentum from the evidence's time series: the recent window (the timeframe, ending at `asOf`) against
 * the prior window of the same length. Volume is items per covered day; engagement is damped (the sum of
 * ln(1 + likes + comments + shares) per item), so one viral post cannot flip the answer.
 */
import { MOMENTUM, type MomentumValue } from '../catalog/evidence-rules'
import { engagementOf, type EvidenceItem } from './evidence'

const DAY_MS = 86_400_000

export interface WindowStats {
  from: string
  to: string
  items: number
  /** Damped engagement: sum of ln(1 + engagement) over the window's items. */
  engagement: number
  /** Days of the window the evidence source covers (less than the timeframe when a corpus starts inside it). */
  covered_days: number
}

export interface MomentumResult {
  momentum: MomentumValue
  /** The weighted log ratio; null when the evidence is insufficient. */
  score: number | null
  /** Volume log ratio over its Poisson standard error; null when insufficient. */
  volume_z: number | null
  recent: WindowStats
  prior: WindowStats
  volume_change_pct: number | null
  engagement_change_pct: number | null
}

const round = (n: number, d: number) => Math.round(n * 10 ** d) / 10 ** d
const day = (d: Date) => d.toISOString().slice(0, 10)

export function windowsOf(asOf: Date, days: number) {
  const t = asOf.getTime()
  return {
    recent: { from: new Date(t - days * DAY_MS), to: asOf },
    prior: { from: new Date(t - 2 * days * DAY_MS), to: new Date(t - days * DAY_MS) },
  }
}

function stats(items: readonly EvidenceItem[], w: { from: Date; to: Date }, coverageFrom: Date | null): WindowStats & { hasEngagement: boolean } {
  const inside = items.filter((i) => i.publishedAt >= w.from && i.publishedAt < w.to)
  const start = coverageFrom && coverageFrom > w.from ? coverageFrom : w.from
  return {
    from: day(w.from),
    to: day(new Date(w.to.getTime() - 1)),
    items: inside.length,
    engagement: round(inside.reduce((s, i) => s + Math.log1p(engagementOf(i)), 0), 2),
    covered_days: Math.max(0, round((w.to.getTime() - start.getTime()) / DAY_MS, 2)),
    hasEngagement: inside.some((i) => i.engagement !== null),
  }
}

/** Log ratio of two window totals normalised to full windows, +1 smoothed so empty windows stay finite. */
const logRatio = (recent: number, prior: number) => Math.log((recent + 1) / (prior + 1))

/**
 * A stable call that hides a sizeable volume change (a log ratio reaching MOMENTUM.threshold) because the
 * change is within count noise (|z| < MOMENTUM.minZ): the direction is unknown, not flat.
 */
export function changeWithinNoise(m: Pick<MomentumResult, 'momentum' | 'volume_change_pct' | 'volume_z'>): boolean {
  const { momentum: value, volume_change_pct: pct, volume_z: z } = m
  return value === 'stable' && pct !== null && z !== null && Math.abs(Math.log1p(pct / 100)) >= MOMENTUM.threshold && Math.abs(z) < MOMENTUM.minZ
}

export function momentum(items: readonly EvidenceItem[], asOf: Date, days: number, coverageFrom: Date | null = null): MomentumResult {
  const w = windowsOf(asOf, days)
  const { hasEngagement: recentEngaged, ...recent } = stats(items, w.recent, coverageFrom)
  const { hasEngagement: priorEngaged, ...prior } = stats(items, w.prior, coverageFrom)
  const base = { recent, prior, volume_change_pct: null, engagement_change_pct: null }
  if (recent.items + prior.items < MOMENTUM.minItems || recent.covered_days <= 0 || prior.covered_days <= 0) {
    return { momentum: 'insufficient_evidence', score: null, volume_z: null, ...base }
  }
  // Per covered day, scaled back to a full window, so a corpus that starts inside the prior window compares fairly.
  const full = (v: number, s: WindowStats) => (v / s.covered_days) * days
  const [vr, vp] = [full(recent.items, recent), full(prior.items, prior)]
  const volume = logRatio(vr, vp)
  // Decided on the z the answer reports, so a reported z of -2 never sits beside "within noise".
  const z = round(volume / Math.sqrt(1 / (vr + 1) + 1 / (vp + 1)), 2)
  const engaged = recentEngaged || priorEngaged
  const engagement = logRatio(full(recent.engagement, recent), full(prior.engagement, prior))
  // Without engagement figures (web pages report none) the score rests on volume alone.
  const score = engaged ? MOMENTUM.volumeWeight * volume + MOMENTUM.engagementWeight * engagement : volume
  const pct = (r: number, p: number) => (p > 0 ? round((r / p - 1) * 100, 1) : null)
  return {
    momentum: score >= MOMENTUM.threshold && z >= MOMENTUM.minZ ? 'rising' : score <= -MOMENTUM.threshold && z <= -MOMENTUM.minZ ? 'falling' : 'stable',
    score: round(score, 3),
    volume_z: z,
    recent,
    prior,
    volume_change_pct: pct(full(recent.items, recent), full(prior.items, prior)),
    engagement_change_pct: engaged ? pct(full(recent.engagement, recent), full(prior.engagement, prior)) : null,
  }
}
