import { KOL_SHORTLIST } from '../catalog/capabilities'
import { ApiError } from '../core/errors'
import { read } from '../intelligence/asked'
import type { EntityIndex } from '../intelligence/entities'
import type { RouteInput } from '../core/route-handler'
import { CONFIDENCE } from '../catalog/evidence-rules'
import { onSample, type Leg, type LegOutcome } from './legs'

/**
 * The weekly signals category a category parameter names, read as the KOL leg reads it (slug, names,
 * synonyms, shopper words, intent words, a clear slip): the weekly leg asks for the category the KOL leg
 * answers. A near miss is the KOL leg's own free 404, so it names no category here.
 */
export function signalCategoryOf(entities: EntityIndex, category: string): string | undefined {
  try {
    const r = read(entities, category, 'category')
    return r.kind === 'entity' && r.entity.kind === 'category' ? r.entity.categories[0] : undefined
  } catch (e) {
    if (e instanceof ApiError) return undefined
    throw e
  }
}

export function kolLegs(entities: EntityIndex, { query }: RouteInput): { legs: Leg[]; key: string } {
  const brand = String(query.brand_name).trim()
  const category = String(query.category).trim()
  const weeklyCategory = signalCategoryOf(entities, category)
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

/** `brandInput` and `categoryInput` as the buyer wrote them; the text names what they resolved to (美妆 and beauty read alike). */
export function kolAnswer(brandInput: string, categoryInput: string, legs: Record<string, LegOutcome>) {
  const kols = legs.kols!.data
  const sentiment = legs.brand_sentiment?.data
  const brand: string = sentiment?.resolved?.name ?? brandInput
  const category: string = kols.resolved?.name ?? categoryInput
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
  if (flagged.length)
    risks.push(
      `${flagged.length} shortlisted creator(s) show engagement anomalies (${[...new Set(flagged.flatMap((c) => c.flags))].join(', ')}): verify audiences before booking.`,
    )
  if (shortlist.length < 5) risks.push(`Only ${shortlist.length} creators matched; widen the category or platforms.`)
  const net: number | undefined = sentiment?.summary.net_score
  if (net !== undefined && net < 0)
    risks.push(
      `${brand} is discussed ${sentiment.summary.label === 'negative' ? 'negatively' : 'more critically than favourably'} (net ${net}): creators will meet that narrative in comments; brief them on it before booking.`,
    )
  const c = KOL_SHORTLIST.confidence
  if (!sentiment)
    risks.push(
      `Brand sentiment for ${brand} could not be read for this call (see sources): the shortlist is not checked against how the brand is discussed, so confidence is capped at ${c.capWithoutBrand}.`,
    )

  const rationale = [
    `${kols.candidates_considered} creators posting about "${category}" in the look-back window were scored for fit (relevance, engagement quality, activity, reach); ${creators.length} shortlisted.`,
    clean[0]
      ? `Top clean pick: ${clean[0].handle} (${clean[0].platform}, ${clean[0].tier}), fit ${clean[0].fit_score}, engagement ${clean[0].engagement_vs_tier_median}x the tier median.`
      : 'No shortlisted creator is free of engagement flags.',
  ]
  if (sentiment) rationale.push(`Brand context: ${brand} sentiment is ${sentiment.summary.label} (net ${sentiment.summary.net_score}).`)
  if (weekly)
    rationale.push(
      `Weekly ${weekly.category_name} creator leaders (${weekly.week_start} to ${weekly.week_end}): ${weekly.rows.map((r: { creator_handle: string }) => r.creator_handle).join(', ')}.`,
    )

  const nextSteps = [
    clean.length
      ? `Contact the top ${Math.min(3, clean.length)} clean creators: ${clean
          .slice(0, 3)
          .map((c) => c.handle)
          .join(', ')}.`
      : 'Ask for audience reports before contacting any shortlisted creator.',
    'Brief them on the themes the brand wants to own; agree deliverables and disclosure (sponsored label).',
    'Track engagement of the first posts against the estimates above before booking more.',
  ]
  const top = clean[0]?.fit_score ?? creators[0]?.fit_score ?? 0
  // Generated sample creators keep CONFIDENCE.sampleShare of it: a shortlist of them is never certain.
  const sampleShare = onSample(legs) ? CONFIDENCE.sampleShare : 1
  const confidence =
    Math.round(
      Math.min(
        sentiment ? 1 : c.capWithoutBrand,
        c.base + c.perCreator * Math.min(creators.length, c.maxCreators) + (sentiment ? c.withBrand : 0),
      ) *
        sampleShare *
        100,
    ) / 100
  // Plain proceed needs the creators and the brand side to hold up (KOL_SHORTLIST).
  const checks = [
    ...(clean.length < KOL_SHORTLIST.proceedClean ? [`fewer than ${KOL_SHORTLIST.proceedClean} clean creators`] : []),
    ...(top < KOL_SHORTLIST.proceedFit ? [`top fit under ${KOL_SHORTLIST.proceedFit}`] : []),
    ...(!sentiment ? ['brand sentiment unread'] : net! < 0 ? [`brand sentiment net ${net}`] : []),
  ]
  return {
    brand_name: brandInput,
    category: categoryInput,
    resolved: { brand: sentiment?.resolved ?? null, category: kols.resolved },
    summary: `${creators.length} creators shortlisted for ${brand} in "${category}"; ${clean.length} without engagement flags; estimated CNY ${creators.length ? `${Math.min(...creators.map((c) => c.estimated_cost_cny.low)).toLocaleString('en-US')}-${Math.max(...creators.map((c) => c.estimated_cost_cny.high)).toLocaleString('en-US')}` : '0'} per post.`,
    creators,
    selection_rationale: rationale,
    risks,
    next_steps: nextSteps,
    recommendation: {
      action: checks.length ? 'proceed_with_checks' : 'proceed',
      reason: `${clean.length} clean creators, top fit ${top}${checks.length ? `; check first: ${checks.join(', ')}` : ''}.`,
    },
    confidence,
  }
}
