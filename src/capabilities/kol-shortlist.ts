import { CONFIDENCE, KOL_SHORTLIST } from '../catalog'
import { ApiError, type RouteInput } from '../core'
import { type EntityIndex, read } from '../intelligence'
import { onSample, type Leg, type LegOutcome } from './legs'

/**
 * The weekly signals category a category parameter names, read as the KOL leg reads it (slug, names,
 * synonyms, shopper words, intent words, a clear slip): the weekly leg asks for the category the KOL leg
 * answers. A near miss is the KOL leg's own free 404, so it names no category here.
 */
export function signalCategoryOf(entities: EntityIndex, category: string): string | undefined {
  try {
    const resolved = read(entities, category, 'category')
    return resolved.kind === 'entity' && resolved.entity.kind === 'category' ? resolved.entity.categories[0] : undefined
  } catch (error) {
    if (error instanceof ApiError) return undefined
    throw error
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

/** What the answer reads of the brand sentiment leg's data. */
interface BrandSentiment {
  summary: { label: string; net_score: number }
}

/** What the answer reads of the weekly creator ranking leg's data. */
interface WeeklyRanking {
  category_name: string
  week_start: string
  week_end: string
  rows: { creator_handle: string }[]
}

/** A shortlisted creator as the answer lists it. */
function creatorRow(creator: Creator) {
  return {
    handle: creator.handle,
    platform: creator.platform,
    city: creator.city,
    tier: creator.tier,
    followers: creator.followers,
    fit_score: creator.fit_score,
    engagement_rate_pct: creator.engagement.engagement_rate_pct,
    engagement_vs_tier_median: creator.engagement.vs_tier_median,
    flags: creator.engagement.flags,
    estimated_cost_cny: { low: creator.estimated_cost.cny_low, high: creator.estimated_cost.cny_high, band: creator.estimated_cost.band },
    recommendation: creator.recommendation,
  }
}

type CreatorRow = ReturnType<typeof creatorRow>

/** Why to be careful: flagged engagement, a thin shortlist, a brand discussed critically or not read at all. */
function shortlistRisks(creators: readonly CreatorRow[], brand: string, sentiment: BrandSentiment | undefined): string[] {
  const flagged = creators.filter((c) => c.flags.length > 0)
  const risks: string[] = []
  if (flagged.length)
    risks.push(
      `${flagged.length} shortlisted creator(s) show engagement anomalies (${[...new Set(flagged.flatMap((c) => c.flags))].join(', ')}): verify audiences before booking.`,
    )
  if (creators.length < 5) risks.push(`Only ${creators.length} creators matched; widen the category or platforms.`)
  const net: number | undefined = sentiment?.summary.net_score
  if (net !== undefined && net < 0)
    risks.push(
      `${brand} is discussed ${sentiment!.summary.label === 'negative' ? 'negatively' : 'more critically than favourably'} (net ${net}): creators will meet that narrative in comments; brief them on it before booking.`,
    )
  if (!sentiment)
    risks.push(
      `Brand sentiment for ${brand} could not be read for this call (see sources): the shortlist is not checked against how the brand is discussed, so confidence is capped at ${KOL_SHORTLIST.confidence.capWithoutBrand}.`,
    )
  return risks
}

/** How the shortlist was chosen, its top clean pick, and the brand and weekly context when they were read. */
function selectionRationale(
  considered: number,
  category: string,
  creators: readonly CreatorRow[],
  brand: string,
  sentiment: BrandSentiment | undefined,
  weekly: WeeklyRanking | undefined,
): string[] {
  const clean = creators.filter((c) => c.flags.length === 0)
  const rationale = [
    `${considered} creators posting about "${category}" in the look-back window were scored for fit (relevance, engagement quality, activity, reach); ${creators.length} shortlisted.`,
    clean[0]
      ? `Top clean pick: ${clean[0].handle} (${clean[0].platform}, ${clean[0].tier}), fit ${clean[0].fit_score}, engagement ${clean[0].engagement_vs_tier_median}x the tier median.`
      : 'No shortlisted creator is free of engagement flags.',
  ]
  if (sentiment) rationale.push(`Brand context: ${brand} sentiment is ${sentiment.summary.label} (net ${sentiment.summary.net_score}).`)
  if (weekly)
    rationale.push(
      `Weekly ${weekly.category_name} creator leaders (${weekly.week_start} to ${weekly.week_end}): ${weekly.rows.map((r) => r.creator_handle).join(', ')}.`,
    )
  return rationale
}

/** Whom to contact first, and how to brief and track them. */
function nextSteps(clean: readonly CreatorRow[]): string[] {
  return [
    clean.length
      ? `Contact the top ${Math.min(3, clean.length)} clean creators: ${clean
          .slice(0, 3)
          .map((c) => c.handle)
          .join(', ')}.`
      : 'Ask for audience reports before contacting any shortlisted creator.',
    'Brief them on the themes the brand wants to own; agree deliverables and disclosure (sponsored label).',
    'Track engagement of the first posts against the estimates above before booking more.',
  ]
}

/** KOL_SHORTLIST.confidence: grows with the shortlist and the brand's sentiment, capped without it. */
function shortlistConfidence(creatorCount: number, brandRead: boolean, legs: Record<string, LegOutcome>): number {
  const rule = KOL_SHORTLIST.confidence
  // Generated sample creators keep CONFIDENCE.sampleShare of it: a shortlist of them is never certain.
  const sampleShare = onSample(legs) ? CONFIDENCE.sampleShare : 1
  return (
    Math.round(
      Math.min(
        brandRead ? 1 : rule.capWithoutBrand,
        rule.base + rule.perCreator * Math.min(creatorCount, rule.maxCreators) + (brandRead ? rule.withBrand : 0),
      ) *
        sampleShare *
        100,
    ) / 100
  )
}

/** What stands between the shortlist and a plain proceed: the creators and the brand side must hold up (KOL_SHORTLIST). */
function proceedChecks(cleanCount: number, topFit: number, sentiment: BrandSentiment | undefined): string[] {
  const net: number | undefined = sentiment?.summary.net_score
  return [
    ...(cleanCount < KOL_SHORTLIST.proceedClean ? [`fewer than ${KOL_SHORTLIST.proceedClean} clean creators`] : []),
    ...(topFit < KOL_SHORTLIST.proceedFit ? [`top fit under ${KOL_SHORTLIST.proceedFit}`] : []),
    ...(!sentiment ? ['brand sentiment unread'] : net! < 0 ? [`brand sentiment net ${net}`] : []),
  ]
}

/** The estimated cost per post across the shortlist, as `low-high` (or 0 when empty). */
function costRange(creators: readonly CreatorRow[]): string {
  return creators.length
    ? `${Math.min(...creators.map((c) => c.estimated_cost_cny.low)).toLocaleString('en-US')}-${Math.max(...creators.map((c) => c.estimated_cost_cny.high)).toLocaleString('en-US')}`
    : '0'
}

/** `brandInput` and `categoryInput` as the buyer wrote them; the text names what they resolved to (美妆 and beauty read alike). */
export function kolAnswer(brandInput: string, categoryInput: string, legs: Record<string, LegOutcome>) {
  const kols = legs.kols!.data
  const sentiment = legs.brand_sentiment?.data
  const brand: string = sentiment?.resolved?.name ?? brandInput
  const category: string = kols.resolved?.name ?? categoryInput
  const weekly = legs.weekly_creator_ranking?.data
  const creators = (kols.shortlist as Creator[]).map((c) => creatorRow(c))
  const clean = creators.filter((c) => c.flags.length === 0)
  const top = clean[0]?.fit_score ?? creators[0]?.fit_score ?? 0
  const checks = proceedChecks(clean.length, top, sentiment)
  return {
    brand_name: brandInput,
    category: categoryInput,
    resolved: { brand: sentiment?.resolved ?? null, category: kols.resolved },
    summary: `${creators.length} creators shortlisted for ${brand} in "${category}"; ${clean.length} without engagement flags; estimated CNY ${costRange(creators)} per post.`,
    creators,
    selection_rationale: selectionRationale(kols.candidates_considered, category, creators, brand, sentiment, weekly),
    risks: shortlistRisks(creators, brand, sentiment),
    next_steps: nextSteps(clean),
    recommendation: {
      action: checks.length ? 'proceed_with_checks' : 'proceed',
      reason: `${clean.length} clean creators, top fit ${top}${checks.length ? `; check first: ${checks.join(', ')}` : ''}.`,
    },
    confidence: shortlistConfidence(creators.length, Boolean(sentiment), legs),
  }
}
