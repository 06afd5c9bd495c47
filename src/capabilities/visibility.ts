import { MOMENTUM_POINTS, type MomentumValue, VISIBILITY_BANDS, VISIBILITY_WEIGHTS } from '../catalog'
import { changeWithinNoise } from '../intelligence'
import type { RouteInput } from '../core'
import type { SignalServices } from '../signals'
import type { Leg, LegOutcome } from './legs'

/** The weekly brand slug a brand name maps to, if any: by slug, English or Chinese name (the entity resolver). */
export function brandSlugOf(signals: SignalServices, brandName: string): string | undefined {
  const resolved = signals.snapshot().entities.resolve(brandName)
  return resolved.kind === 'entity' && resolved.entity.kind === 'brand' ? resolved.entity.id.slice('brand:'.length) : undefined
}

export function visibilityLegs(signals: SignalServices, { query }: RouteInput): { legs: Leg[]; key: string } {
  const brand = String(query.brand_name).trim()
  const slug = brandSlugOf(signals, brand)
  const legs: Leg[] = [
    { name: 'trends', routeId: 'china.trends', required: true, input: { query: { keyword: brand }, params: {} } },
    { name: 'sentiment', routeId: 'china.sentiment', required: false, input: { query: { entity: brand }, params: {} } },
    {
      name: 'weekly_brand_snapshot',
      routeId: 'signals.brands.snapshot',
      required: false,
      input: slug ? { query: {}, params: { brand_slug: slug } } : undefined,
      skip: `"${brand}" is not among the brands of the weekly signals, so weekly visibility context is not included`,
    },
  ]
  return { legs, key: slug ?? brand.toLowerCase() }
}

const signed = (n: number) => `${n > 0 ? '+' : ''}${n}`

/**
 * Score band, then the guards that keep amplify honest (VISIBILITY_BANDS): without a sentiment read, on
 * net-negative sentiment or without momentum that holds up, the best the evidence supports is fix_gaps.
 */
export function visibilityAction(score: number, holdsBack: string[]): { action: 'amplify' | 'fix_gaps' | 'rebuild'; reason: string } {
  if (score < VISIBILITY_BANDS.fixGaps) return { action: 'rebuild', reason: `Score ${score}: weak on most components.` }
  if (score < VISIBILITY_BANDS.amplify) return { action: 'fix_gaps', reason: `Score ${score}: address the gaps before scaling.` }
  if (holdsBack.length) return { action: 'fix_gaps', reason: `Score ${score}, but ${holdsBack.join('; ')}: address that before scaling.` }
  return { action: 'amplify', reason: `Score ${score}: strong enough to scale what works.` }
}

/** `input` is the brand as the buyer wrote it; the answer names what it resolved to, so 极光肌 and Aurora Skin read alike. */
/**
 * The weekly component: the brand's standing among the category's brands by visibility, 100 for the
 * leader and 0 for the last. (The snapshot's visibility_score is reach against the leader's, which puts
 * a mid-table brand near 0.)
 */
export const weeklyStanding = (rank: number, ranked: number) => (ranked <= 1 ? 100 : (100 * (ranked - rank)) / (ranked - 1))

export function visibilityAnswer(input: string, legs: Record<string, LegOutcome>) {
  const trends = legs.trends!.data
  const brand: string = trends.resolved?.name ?? input
  const sentiment = legs.sentiment?.data
  const weekly = legs.weekly_brand_snapshot?.data
  const momentum: MomentumValue = trends.summary.momentum
  const detail = trends.momentum_detail
  const noise = changeWithinNoise({ momentum, volume_change_pct: detail.volume_change_pct, volume_z: detail.volume_z })
  const net: number | undefined = sentiment?.summary.net_score

  // A stable call that hides a noise-level swing is an unknown direction, not steadiness.
  const parts: [number, number][] = [[VISIBILITY_WEIGHTS.momentum, MOMENTUM_POINTS[noise ? 'insufficient_evidence' : momentum]]]
  if (sentiment) parts.push([VISIBILITY_WEIGHTS.sentiment, (net! + 100) / 2])
  if (weekly) parts.push([VISIBILITY_WEIGHTS.weekly, weeklyStanding(weekly.rank_positions.brand_visibility, weekly.brands_ranked)])
  const answered = parts.reduce((s, [w]) => s + w, 0)
  const score = Math.round(parts.reduce((s, [w, v]) => s + w * v, 0) / answered)

  const strengths: string[] = []
  const gaps: string[] = []
  if (momentum === 'rising') strengths.push(`Conversation is rising: ${trends.summary.headline}`)
  else if (momentum === 'falling') gaps.push(`Conversation is falling: ${trends.summary.headline}`)
  else gaps.push(`No clear momentum: ${trends.summary.headline}`)
  if (sentiment) {
    if (net! < 0)
      gaps.push(
        `Sentiment is ${sentiment.summary.label === 'negative' ? 'negative' : `net-negative (${sentiment.summary.label})`}: net ${net} — more of the conversation complains than praises.`,
      )
    for (const f of sentiment.frames as { label: string; tone: string; net_score: number; share: number }[]) {
      const line = `${f.label}: ${Math.round(f.share * 100)}% of the conversation, net ${signed(f.net_score)}`
      if (f.net_score >= 20) strengths.push(line)
      else if (f.net_score <= -10) gaps.push(line)
    }
  } else gaps.push('Sentiment could not be read for this call (see sources).')
  if (weekly) {
    const ranks = weekly.rank_positions as Record<string, number>
    const line = `Weekly ${weekly.category} ranking: #${ranks.brand_visibility} for visibility, #${ranks.brand_seeding} for seeding (${weekly.snapshot_week}).`
    ;((ranks.brand_visibility ?? 99) <= 3 ? strengths : gaps).push(line)
  }
  if (trends.evidence_mode === 'proxy')
    gaps.push(
      "Evidence is a proxy read (open-web coverage), not the platforms' own posts: confirm with native listening before large spend.",
    )

  const actions: string[] = (trends.content_angles as { angle: string }[]).slice(0, 2).map((a) => a.angle)
  if (momentum === 'falling') actions.unshift('Re-seed the conversation: brief creators on the themes that still engage.')
  if (weekly && (weekly.rank_positions.brand_seeding ?? 99) > (weekly.rank_positions.brand_visibility ?? 0))
    actions.push('Broaden seeding: more creators, smaller posts — seeding breadth trails visibility.')

  const holdsBack: string[] = []
  if (!sentiment) holdsBack.push('sentiment could not be read')
  else if (net! < 0) holdsBack.push(`net sentiment is ${net}`)
  if (noise) holdsBack.push('the volume change is within count noise')
  else if (momentum === 'falling') holdsBack.push('momentum is falling')
  else if (momentum === 'insufficient_evidence') holdsBack.push('there is too little evidence to call momentum')
  const recommendation = visibilityAction(score, holdsBack)

  // No more certain than the weaker evidence leg, and only as complete as the share of the score that answered.
  const evidence = Math.min(trends.summary.confidence, sentiment?.summary.confidence ?? trends.summary.confidence)
  const confidence = Math.round(evidence * answered * 100) / 100
  return {
    brand_name: input,
    resolved: trends.resolved,
    summary: `${brand}: visibility score ${score}/100 — momentum ${momentum}${noise ? ' (change within noise)' : ''}${sentiment ? `, sentiment ${sentiment.summary.label} (net ${net})` : ''}${weekly ? `, weekly visibility #${weekly.rank_positions.brand_visibility} in ${weekly.category}` : ''}.`,
    score,
    strengths,
    gaps,
    priority_actions: actions,
    sources: Object.values(legs)
      .filter((l) => l.data)
      .map((l) => ({ leg: l.name, route: l.route, evidence_mode: l.evidence_mode ?? 'native', data_quality: l.data.data_quality })),
    recommendation,
    confidence,
  }
}
