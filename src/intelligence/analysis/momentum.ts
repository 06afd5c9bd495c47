/**
 * Momentum from the evidence's time series: the recent window (the timeframe, ending at `asOf`) against
 * the prior window of the same length. Volume is items per covered day, each weighted by its relevance (a
 * passing mention is part of a post: weightedCountOf); engagement is damped (the sum of ln(1 + likes +
 * comments + shares) per item, weighted alike), so one viral post cannot flip the answer. A direction must
 * also hold on the posts about the subject alone, when there are enough of them to tell one (MOMENTUM.minItems
 * in the two windows): a change carried by passing mentions is not called.
 */
import { MOMENTUM, type MomentumValue, RELEVANCE } from '../../catalog'
import { countOf, engagementOf, weightedCountOf, type EvidenceItem, type WindowCoverage } from '../evidence'
import type { CallEvidence } from '../lanes'
import { postsOf } from '../names/post-identity'

const DAY_MS = 86_400_000

export interface WindowStats {
  from: string
  to: string
  items: number
  /** The items weighted by relevance (a passing mention counts RELEVANCE.mention): the volume compared. */
  weighted_items: number
  /** Damped engagement: sum of ln(1 + engagement) over the window's items, weighted by relevance. */
  engagement: number
  /** Days of the window the evidence source covers (less than the timeframe when a corpus starts inside it). */
  covered_days: number
  /** The provider stopped at its result cap in this window: its count is a lower bound, not a volume. */
  capped: boolean
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
  /** Why there is no direction (insufficient_evidence), or why a computed one was withheld; null otherwise. */
  reason: string | null
}

/** How far the evidence covers each window: the earliest instant covered (null: none), and whether its count is capped. */
export interface Coverage {
  recent: Date | null
  prior: Date | null
  capped: { recent: boolean; prior: boolean }
}

const round = (n: number, d: number) => Math.round(n * 10 ** d) / 10 ** d
const day = (d: Date) => d.toISOString().slice(0, 10)

export function windowsOf(asOf: Date, days: number) {
  const asOfMs = asOf.getTime()
  return {
    recent: { from: new Date(asOfMs - days * DAY_MS), to: asOf },
    prior: { from: new Date(asOfMs - 2 * days * DAY_MS), to: new Date(asOfMs - days * DAY_MS) },
  }
}

function stats(
  items: readonly EvidenceItem[],
  window: { from: Date; to: Date },
  coverageFrom: Date | null,
  capped: boolean,
): { shown: WindowStats; hasEngagement: boolean; read: number; about: { items: number; engagement: number } } {
  const start = coverageFrom === null ? window.to : coverageFrom > window.from ? coverageFrom : window.from
  // Items before the covered part are not counted: the days they fall on are not covered for every source.
  const inside = items.filter((i) => i.publishedAt >= start && i.publishedAt < window.to)
  // A sampled item counts as the items it stands for (EvidenceItem.weight), times its relevance.
  const damped = (xs: readonly EvidenceItem[]) =>
    round(
      xs.reduce((s, i) => s + (i.weight ?? 1) * (i.relevance ?? 1) * Math.log1p(engagementOf(i)), 0),
      2,
    )
  const about = inside.filter((i) => (i.relevance ?? 1) >= RELEVANCE.subject)
  return {
    shown: {
      from: day(window.from),
      to: day(new Date(window.to.getTime() - 1)),
      items: Math.round(countOf(inside)),
      weighted_items: round(weightedCountOf(inside), 1),
      engagement: damped(inside),
      covered_days: Math.max(0, round((window.to.getTime() - start.getTime()) / DAY_MS, 2)),
      capped,
    },
    // The noise of a count is that of the items read (a sampled count is no surer), weighted alike.
    read: inside.reduce((n, i) => n + (i.relevance ?? 1), 0),
    about: { items: countOf(about), engagement: damped(about) },
    hasEngagement: inside.some((i) => i.engagement !== null),
  }
}

/** Log ratio of two window totals normalised to full windows, +1 smoothed so empty windows stay finite. */
const logRatio = (recent: number, prior: number) => Math.log((recent + 1) / (prior + 1))

/**
 * A stable call that hides a sizeable volume change (a log ratio reaching MOMENTUM.threshold) because the
 * change is within count noise (|z| < MOMENTUM.minZ): the direction is unknown, not flat.
 */
export function changeWithinNoise(result: Pick<MomentumResult, 'momentum' | 'volume_change_pct' | 'volume_z'>): boolean {
  const { momentum: value, volume_change_pct: pct, volume_z: z } = result
  return (
    value === 'stable' && pct !== null && z !== null && Math.abs(Math.log1p(pct / 100)) >= MOMENTUM.threshold && Math.abs(z) < MOMENTUM.minZ
  )
}

/** A day count as people write it. */
const days_ = (n: number) => `${round(n, 1)} day${n === 1 ? '' : 's'}`

/**
 * Momentum of `items`. `coverage` says how far the evidence covers each window (a source that starts
 * inside the prior window, or a provider whose results do not reach back): counts are compared per
 * covered day, and a window covered for less than MOMENTUM.minCoveredShare of its days gives no direction.
 * A capped window's count is a lower bound, so only a direction toward it can be trusted.
 */
export function momentum(
  items: readonly EvidenceItem[],
  asOf: Date,
  days: number,
  coverage: Coverage | Date | null = null,
): MomentumResult {
  const windows = windowsOf(asOf, days)
  const covered: Coverage =
    coverage === null || coverage instanceof Date
      ? { recent: coverage ?? windows.recent.from, prior: coverage ?? windows.prior.from, capped: { recent: false, prior: false } }
      : coverage
  const recentWindow = stats(items, windows.recent, covered.recent, covered.capped.recent)
  const priorWindow = stats(items, windows.prior, covered.prior, covered.capped.prior)
  const [recent, prior] = [recentWindow.shown, priorWindow.shown]
  const base = { recent, prior, volume_change_pct: null, engagement_change_pct: null }
  const insufficient = (reason: string): MomentumResult => ({
    momentum: 'insufficient_evidence',
    score: null,
    volume_z: null,
    ...base,
    reason,
  })
  const minDays = MOMENTUM.minCoveredShare * days
  if (prior.covered_days < minDays || recent.covered_days < minDays || prior.covered_days <= 0 || recent.covered_days <= 0) {
    const window = prior.covered_days < minDays || prior.covered_days <= 0 ? { name: 'prior', s: prior } : { name: 'recent', s: recent }
    return insufficient(
      `the evidence covers ${days_(window.s.covered_days)} of the ${days}-day ${window.name} window (${window.s.from} to ${window.s.to}); ` +
        `a direction needs at least ${Math.round(MOMENTUM.minCoveredShare * 100)}% of each window covered`,
    )
  }
  if (recent.items + prior.items < MOMENTUM.minItems)
    return insufficient(`${recent.items + prior.items} items in both windows; a direction needs at least ${MOMENTUM.minItems}`)
  // Per covered day, scaled back to a full window, so a corpus that starts inside the prior window compares fairly.
  const full = (v: number, s: WindowStats) => (v / s.covered_days) * days
  const [vr, vp] = [full(recent.weighted_items, recent), full(prior.weighted_items, prior)]
  const volume = logRatio(vr, vp)
  // Decided on the z the answer reports, so a reported z of -2 never sits beside "within noise". The noise
  // is that of the items read: a sampled count (items read × weight) is no surer than the items behind it.
  const [nr, np] = [
    full(Math.min(recent.weighted_items, recentWindow.read), recent),
    full(Math.min(prior.weighted_items, priorWindow.read), prior),
  ]
  const volumeZ = round(volume / Math.sqrt(1 / (nr + 1) + 1 / (np + 1)), 2)
  const engaged = recentWindow.hasEngagement || priorWindow.hasEngagement
  // Without engagement figures (web pages report none) the score rests on volume alone.
  const scoreOf = (r: { items: number; engagement: number }, p: { items: number; engagement: number }) => {
    const v = logRatio(full(r.items, recent), full(p.items, prior))
    const e = logRatio(full(r.engagement, recent), full(p.engagement, prior))
    return engaged ? MOMENTUM.volumeWeight * v + MOMENTUM.engagementWeight * e : v
  }
  const score = scoreOf(
    { items: recent.weighted_items, engagement: recent.engagement },
    { items: prior.weighted_items, engagement: prior.engagement },
  )
  const pct = (r: number, p: number) => (p > 0 ? round((r / p - 1) * 100, 1) : null)
  const called: MomentumValue =
    score >= MOMENTUM.threshold && volumeZ >= MOMENTUM.minZ
      ? 'rising'
      : score <= -MOMENTUM.threshold && volumeZ <= -MOMENTUM.minZ
        ? 'falling'
        : 'stable'
  // The same score on the posts about the subject alone: a rise (or fall) it does not show is passing mentions'.
  // Only when those posts are enough to read a direction from (MOMENTUM.minItems in the two windows, the bar
  // of any direction): a subject named mostly in passing keeps the weighted call, not a flat one by default.
  const aboutScore = scoreOf(recentWindow.about, priorWindow.about)
  const aboutEnough = recentWindow.about.items + priorWindow.about.items >= MOMENTUM.minItems
  const mentions =
    aboutEnough && ((called === 'rising' && aboutScore < MOMENTUM.threshold) || (called === 'falling' && aboutScore > -MOMENTUM.threshold))
      ? `the ${called === 'rising' ? 'rise' : 'fall'} is in passing mentions: the posts about it alone (${Math.round(recentWindow.about.items)} vs ${Math.round(priorWindow.about.items)}) score ${round(aboutScore, 3)}, within ±${MOMENTUM.threshold}`
      : null
  const value: MomentumValue = mentions ? 'stable' : called
  // A capped count could be higher: a direction away from a capped window (or any call when both are capped) is unknown.
  const withheld =
    recent.capped && prior.capped
      ? "both windows reached the provider's result cap, so their counts are lower bounds and their change cannot be measured"
      : recent.capped && value !== 'rising'
        ? `the recent window reached the provider's result cap: its count (${recent.items}) is a lower bound, so only a rise can be told`
        : prior.capped && value !== 'falling'
          ? `the prior window reached the provider's result cap: its count (${prior.items}) is a lower bound, so only a fall can be told`
          : null
  if (withheld) return insufficient(withheld)
  return {
    momentum: value,
    score: round(score, 3),
    volume_z: volumeZ,
    recent,
    prior,
    volume_change_pct: pct(full(recent.weighted_items, recent), full(prior.weighted_items, prior)),
    engagement_change_pct: engaged ? pct(full(recent.engagement, recent), full(prior.engagement, prior)) : null,
    reason: mentions,
  }
}

/** The coverage entry of `set` for a window: its own when the call was split by window, else the one span. */
function entryFor(coverage: readonly WindowCoverage[], window: { from: Date; to: Date }): WindowCoverage | undefined {
  return coverage.find((c) => c.from <= window.from && c.to >= window.to) ?? coverage.find((c) => c.from < window.to && c.to > window.from)
}

const coveredShare = (e: WindowCoverage | undefined, w: { from: Date; to: Date }) => {
  if (!e?.coveredFrom) return 0
  const start = Math.max(e.coveredFrom.getTime(), w.from.getTime())
  return Math.max(0, (w.to.getTime() - start) / (w.to.getTime() - w.from.getTime()))
}

/** The share of `window` covered by the best-covering call that found items (1 when every call covers it). */
export function coveredShareOf(sets: readonly CallEvidence[], window: { from: Date; to: Date }): number {
  const shares = sets.filter((s) => s.items.length > 0).map((s) => coveredShare(entryFor(s.coverage, window), window))
  return shares.length ? Math.max(...shares) : 1
}

/**
 * Momentum of gathered evidence: only the calls whose results cover both windows (MOMENTUM.minCoveredShare)
 * are counted, from where the least-covering of them starts; items of other calls (a web engine that
 * returns recent pages only) are left out of the counts, and `uncounted` says how many. With no call
 * covering both windows there is no direction, and the reason says how far back the results reach.
 */
export function momentumOf(
  gathered: { items: readonly EvidenceItem[]; sets: readonly CallEvidence[] },
  asOf: Date,
  days: number,
): MomentumResult & { counted: number; uncounted: number } {
  const windows = windowsOf(asOf, days)
  const withItems = gathered.sets.filter((s) => s.items.length > 0)
  const entries = withItems.map((s) => ({ s, prior: entryFor(s.coverage, windows.prior), recent: entryFor(s.coverage, windows.recent) }))
  const counting = entries.filter(
    (e) =>
      coveredShare(e.prior, windows.prior) >= MOMENTUM.minCoveredShare &&
      coveredShare(e.recent, windows.recent) >= MOMENTUM.minCoveredShare,
  )
  const latest = (es: (WindowCoverage | undefined)[]) =>
    es.reduce<Date | null>((a, e) => (e?.coveredFrom && (!a || e.coveredFrom > a) ? e.coveredFrom : a), null)
  if (counting.length === 0 && entries.length > 0) {
    // Nothing covers both windows: report how far the best call reaches, as momentum() words it.
    const reach = entries
      .map((e) => e.prior?.coveredFrom ?? e.recent?.coveredFrom ?? null)
      .reduce<Date | null>((a, d) => (d && (!a || d < a) ? d : a), null)
    const reachReading = momentum(gathered.items, asOf, days, { recent: reach, prior: reach, capped: { recent: false, prior: false } })
    return { ...reachReading, counted: 0, uncounted: Math.round(countOf(gathered.items)) }
  }
  // The answer's items that a counting call found (under any of its links: post-identity.ts), the posts told
  // apart among every call's items, as the lanes tell them apart.
  const counted = new Set(counting.flatMap((e) => e.s.items))
  const found = new Set(
    postsOf([...new Set([...gathered.sets.flatMap((s) => s.items), ...gathered.items])])
      .filter((post) => post.some((i) => counted.has(i)))
      .flat(),
  )
  const items = gathered.items.filter((i) => found.has(i))
  const coverage: Coverage = {
    recent: latest(counting.map((e) => e.recent)) ?? windows.recent.from,
    prior: latest(counting.map((e) => e.prior)) ?? windows.prior.from,
    capped: { recent: counting.some((e) => e.recent?.capped), prior: counting.some((e) => e.prior?.capped) },
  }
  const result = momentum(items, asOf, days, coverage)
  return { ...result, counted: result.recent.items + result.prior.items, uncounted: Math.round(countOf(gathered.items) - countOf(items)) }
}
