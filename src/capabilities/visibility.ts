import type { RouteInput } from '../http/handler'
import type { SignalServices } from '../signals/services'
import type { Leg, LegOutcome } from './legs'

/**
 * Visibility score: a weighted mean of the components that answered, each on 0-100 — the weekly
 * brand visibility score (0.4), sentiment as (net score + 100) / 2 (0.3) and trend momentum (0.3:
 * rising 100, stable 60, insufficient evidence 40, falling 25). Weights of missing legs are left out.
 */
export const VISIBILITY_WEIGHTS = { weekly: 0.4, sentiment: 0.3, momentum: 0.3 } as const
export const MOMENTUM_POINTS: Record<string, number> = { rising: 100, stable: 60, insufficient_evidence: 40, falling: 25 }

/** The weekly brand slug a brand name maps to, if any: by slug, English or Chinese name (the entity resolver). */
export function brandSlugOf(signals: SignalServices, brandName: string): string | undefined {
  const r = signals.snapshot().entities.resolve(brandName)
  return r.kind === 'entity' && r.entity.kind === 'brand' ? r.entity.id.slice('brand:'.length) : undefined
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

export function visibilityAnswer(brand: string, legs: Record<string, LegOutcome>) {
  const trends = legs.trends!.data
  const sentiment = legs.sentiment?.data
  const weekly = legs.weekly_brand_snapshot?.data
  const momentum: string = trends.summary.momentum

  const parts: [number, number][] = [[VISIBILITY_WEIGHTS.momentum, MOMENTUM_POINTS[momentum] ?? 40]]
  if (sentiment) parts.push([VISIBILITY_WEIGHTS.sentiment, (sentiment.summary.net_score + 100) / 2])
  if (weekly) parts.push([VISIBILITY_WEIGHTS.weekly, weekly.visibility_score])
  const score = Math.round(parts.reduce((s, [w, v]) => s + w * v, 0) / parts.reduce((s, [w]) => s + w, 0))

  const strengths: string[] = []
  const gaps: string[] = []
  if (momentum === 'rising') strengths.push(`Conversation is rising: ${trends.summary.headline}`)
  else if (momentum === 'falling') gaps.push(`Conversation is falling: ${trends.summary.headline}`)
  else gaps.push(`No clear momentum: ${trends.summary.headline}`)
  if (sentiment) {
    for (const f of sentiment.frames as { label: string; tone: string; net_score: number; share: number }[]) {
      const line = `${f.label}: ${Math.round(f.share * 100)}% of the conversation, net ${f.net_score > 0 ? '+' : ''}${f.net_score}`
      if (f.net_score >= 20) strengths.push(line)
      else if (f.net_score <= -10) gaps.push(line)
    }
  } else gaps.push('Sentiment could not be read for this call (see sources).')
  if (weekly) {
    const r = weekly.rank_positions as Record<string, number>
    const line = `Weekly ${weekly.category} ranking: #${r.brand_visibility} for visibility, #${r.brand_seeding} for seeding (${weekly.snapshot_week}).`
    ;((r.brand_visibility ?? 99) <= 3 ? strengths : gaps).push(line)
  }
  if (trends.evidence_mode === 'proxy') gaps.push('Evidence is a proxy read (open-web coverage), not the platforms\' own posts: confirm with native listening before large spend.')

  const actions: string[] = (trends.content_angles as { angle: string }[]).slice(0, 2).map((a) => a.angle)
  if (gaps.some((g) => g.startsWith('Conversation is falling'))) actions.unshift('Re-seed the conversation: brief creators on the themes that still engage.')
  if (weekly && (weekly.rank_positions.brand_seeding ?? 99) > (weekly.rank_positions.brand_visibility ?? 0)) actions.push('Broaden seeding: more creators, smaller posts — seeding breadth trails visibility.')

  const confidence = Math.round(Math.min(trends.summary.confidence, sentiment?.summary.confidence ?? trends.summary.confidence) * (weekly ? 1 : 0.9) * 100) / 100
  const action = score >= 65 ? 'amplify' : score >= 45 ? 'fix_gaps' : 'rebuild'
  return {
    brand_name: brand,
    summary: `${brand}: visibility score ${score}/100 — momentum ${momentum}${sentiment ? `, sentiment ${sentiment.summary.label} (net ${sentiment.summary.net_score})` : ''}${weekly ? `, weekly visibility #${weekly.rank_positions.brand_visibility} in ${weekly.category}` : ''}.`,
    score,
    strengths,
    gaps,
    priority_actions: actions,
    sources: Object.values(legs)
      .filter((l) => l.data)
      .map((l) => ({ leg: l.name, route: l.route, evidence_mode: l.evidence_mode ?? 'native', data_quality: l.data.data_quality })),
    recommendation: { action, reason: `Score ${score}: ${action === 'amplify' ? 'strong enough to scale what works' : action === 'fix_gaps' ? 'address the gaps before scaling' : 'weak on most components'}.` },
    confidence,
  }
}
