import { STATIC_ENTITIES } from '../intelligence/entities'
import type { RouteInput } from '../http/handler'
import type { Leg, LegOutcome } from './legs'

/** The weekly signals category a free-text category names: slug, English or Chinese name, synonym (美妆, skincare). */
export const signalCategoryOf = (category: string): string | undefined => STATIC_ENTITIES.category(category)

export function kolLegs({ query }: RouteInput): { legs: Leg[]; key: string } {
  const brand = String(query.brand_name).trim()
  const category = String(query.category).trim()
  const weeklyCategory = signalCategoryOf(category)
  const legs: Leg[] = [
    { name: 'kols', routeId: 'china.kols', required: true, input: { query: { category }, params: {} } },
    { name: 'brand_sentiment', routeId: 'china.sentiment', required: false, input: { query: { entity: brand }, params: {} } },
    {
      name: 'weekly_creator_ranking',
      routeId: 'signals.creators.rankings',
      required: false,
      input: weeklyCategory ? { query: { category: weeklyCategory, limit: 5 }, params: {} } : undefined,
      skip: `"${category}" is not one of the weekly signal categories, so weekly creator context is not included`,
    },
  ]
  return { legs, key: `${brand.toLowerCase()}|${category.toLowerCase()}` }
}

interface Creator {
  handle: string
  platform: string
  city: string
  followers: number
  tier: string
  fit_score: number
  engagement: { engagement_rate_pct: number; vs_tier_median: number; quality_score: number; flags: string[] }
  estimated_cost: { band: string; cny_low: number; cny_high: number }
  recommendation: string
}

export function kolAnswer(brand: string, category: string, legs: Record<string, LegOutcome>) {
  const kols = legs.kols!.data
  const sentiment = legs.brand_sentiment?.data
  const weekly = legs.weekly_creator_ranking?.data
  const shortlist = kols.shortlist as Creator[]
  const creators = shortlist.map((c) => ({
    handle: c.handle,
    platform: c.platform,
    city: c.city,
    tier: c.tier,
    followers: c.followers,
    fit_score: c.fit_score,
    engagement_rate_pct: c.engagement.engagement_rate_pct,
    engagement_vs_tier_median: c.engagement.vs_tier_median,
    flags: c.engagement.flags,
    estimated_cost_cny: { low: c.estimated_cost.cny_low, high: c.estimated_cost.cny_high, band: c.estimated_cost.band },
    recommendation: c.recommendation,
  }))
  const flagged = creators.filter((c) => c.flags.length > 0)
  const clean = creators.filter((c) => c.flags.length === 0)
  const risks: string[] = []
  if (flagged.length) risks.push(`${flagged.length} shortlisted creator(s) show engagement anomalies (${[...new Set(flagged.flatMap((c) => c.flags))].join(', ')}): verify audiences before booking.`)
  if (shortlist.length < 5) risks.push(`Only ${shortlist.length} creators matched; widen the category or platforms.`)
  if (sentiment && sentiment.summary.label === 'negative') risks.push(`${brand} is discussed negatively (net ${sentiment.summary.net_score}): creators will meet that narrative in comments.`)
  if (!sentiment) risks.push(`Brand sentiment for ${brand} could not be read for this call (see sources).`)

  const rationale = [
    `${kols.candidates_considered} creators posting about "${kols.category}" in the look-back window were scored for fit (relevance, engagement quality, activity); ${creators.length} shortlisted.`,
    clean[0] ? `Top clean pick: ${clean[0].handle} (${clean[0].platform}, ${clean[0].tier}), fit ${clean[0].fit_score}, engagement ${clean[0].engagement_vs_tier_median}x the tier median.` : 'No shortlisted creator is free of engagement flags.',
  ]
  if (sentiment) rationale.push(`Brand context: ${brand} sentiment is ${sentiment.summary.label} (net ${sentiment.summary.net_score}).`)
  if (weekly) rationale.push(`Weekly ${weekly.category_name} creator leaders (${weekly.week_start} to ${weekly.week_end}): ${weekly.rows.map((r: { creator_handle: string }) => r.creator_handle).join(', ')}.`)

  const nextSteps = [
    clean.length ? `Contact the top ${Math.min(3, clean.length)} clean creators: ${clean.slice(0, 3).map((c) => c.handle).join(', ')}.` : 'Ask for audience reports before contacting any shortlisted creator.',
    'Brief them on the themes the brand wants to own; agree deliverables and disclosure (sponsored label).',
    'Track engagement of the first posts against the estimates above before booking more.',
  ]
  const top = clean[0]?.fit_score ?? creators[0]?.fit_score ?? 0
  const confidence = Math.round(Math.min(1, 0.4 + 0.05 * Math.min(creators.length, 10) + (sentiment ? 0.1 : 0)) * 100) / 100
  return {
    brand_name: brand,
    category,
    summary: `${creators.length} creators shortlisted for ${brand} in "${category}"; ${clean.length} without engagement flags; estimated CNY ${creators.length ? `${Math.min(...creators.map((c) => c.estimated_cost_cny.low)).toLocaleString('en-US')}-${Math.max(...creators.map((c) => c.estimated_cost_cny.high)).toLocaleString('en-US')}` : '0'} per post.`,
    creators,
    selection_rationale: rationale,
    risks,
    next_steps: nextSteps,
    recommendation: { action: clean.length >= 3 && top >= 0.6 ? 'proceed' : 'proceed_with_checks', reason: `${clean.length} clean creators, top fit ${top}.` },
    confidence,
  }
}
