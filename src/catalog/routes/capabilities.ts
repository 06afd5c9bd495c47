import { type TProperties, Type as t } from '@sinclair/typebox'
import { CONFIDENCE, type MomentumValue } from '../evidence-rules'
import { Resolved, SampleFlag } from './china-data'
import { Query } from './params'
import type { RouteSpec } from '../types'

/** Wrapper sessions keep gathered legs this long after their last use. */
export const SESSION_LIFETIME_MINUTES = 30
export const SESSION_TTL_SECONDS = SESSION_LIFETIME_MINUTES * 60

/**
 * Visibility score: a weighted mean of the components that answered, each on 0-100 — the weekly brand
 * visibility score, sentiment as (net score + 100) / 2 and trend momentum (MOMENTUM_POINTS). Weights of
 * missing legs are left out. A stable call whose volume change is within count noise scores as
 * insufficient evidence: its direction is unknown, not flat.
 */
export const VISIBILITY_WEIGHTS = { weekly: 0.4, sentiment: 0.3, momentum: 0.3 } as const
export const MOMENTUM_POINTS = { rising: 100, stable: 60, insufficient_evidence: 40, falling: 25 } as const satisfies Record<
  MomentumValue,
  number
>
/**
 * Visibility decision by score band: amplify at or above `amplify`, fix_gaps at or above `fixGaps`, else
 * rebuild. Amplify also needs the legs to back it, else it is fix_gaps: sentiment answered with a net
 * score >= 0, and momentum rising or stable outside count noise. Confidence is the lower of the trends
 * and sentiment confidences times the weight share of the legs that answered.
 */
export const VISIBILITY_BANDS = { amplify: 65, fixGaps: 45 } as const

/**
 * KOL shortlist decision: proceed with at least `proceedClean` creators without engagement flags, the top one at
 * fit >= `proceedFit`, and the brand's sentiment read with a net score >= 0; otherwise proceed_with_checks.
 * Confidence = base + perCreator x shortlisted creators (up to maxCreators) + withBrand when the brand's
 * sentiment answered, at most 1; at most `capWithoutBrand` when it did not (the brand side is unchecked).
 */
export const KOL_SHORTLIST = {
  proceedClean: 3,
  proceedFit: 0.6,
  confidence: { base: 0.4, perCreator: 0.05, maxCreators: 10, withBrand: 0.1, capWithoutBrand: 0.6 },
} as const

/**
 * Destination demand confidence: the weight of the legs that answered. A city reads the flights summary
 * and trend; a country reads the flights aggregate over its destinations, which stands for both.
 */
export const DEMAND_LEG_WEIGHTS = { flights_summary: 0.5, flights_trend: 0.25, flights_aggregate: 0.75, spend_trends: 0.25 } as const

const visibilityRule =
  `Score (0-100): weighted mean of the components that answered — weekly standing, 100 x (brands ranked - visibility rank) / (brands ranked - 1) (${VISIBILITY_WEIGHTS.weekly}), sentiment as (net + 100) / 2 (${VISIBILITY_WEIGHTS.sentiment}), ` +
  `momentum (${VISIBILITY_WEIGHTS.momentum}: ${Object.entries(MOMENTUM_POINTS)
    .map(([m, p]) => `${m} ${p}`)
    .join(', ')}; a stable call whose volume change is within count noise counts as insufficient_evidence). ` +
  `Action: amplify at >= ${VISIBILITY_BANDS.amplify}, fix_gaps at >= ${VISIBILITY_BANDS.fixGaps}, else rebuild; never amplify when net sentiment is below 0, ` +
  `when the sentiment leg did not answer, or when momentum is not rising or stable outside noise (then fix_gaps). ` +
  `Confidence: the lower of the trends and sentiment confidences x the weight share of the legs that answered.`

const base = { family: 'capabilities', kind: 'orchestrated', methods: ['GET', 'POST'] } as const
const Name = (description: string, example: string) => t.String({ minLength: 1, maxLength: 80, description, examples: [example] })
const Session = t.Optional(
  t.String({
    pattern: '^ses_[0-9a-f]{24}$',
    examples: ['ses_4f1c2a9b7d3e8f6a1b2c3d4e'], // an unknown id starts a new session: harmless in an example call
    description: `\`session.id\` of an earlier wrapper answer: the legs it already gathered are reused, not computed again (kept ${SESSION_LIFETIME_MINUTES} min after the last use; an unknown or expired id starts a new session).`,
  }),
)
const Strings = (description: string) => t.Array(t.String(), { description })

const LegSummary = t.Object({
  name: t.String(),
  route: t.String({ description: 'the underlying route' }),
  price_usd: t.String({ description: 'its price when bought on its own' }),
  required: t.Boolean({ description: 'a required leg that fails fails the wrapper (nothing is charged)' }),
  status: t.Union([t.Literal('ran'), t.Literal('reused'), t.Literal('skipped'), t.Literal('failed')], {
    description: '`reused`: taken from the session; `skipped`/`failed`: see reason',
  }),
  reason: t.Optional(t.String()),
  cache_status: t.Optional(t.Union([t.Literal('hit'), t.Literal('miss')])),
  evidence_mode: t.Optional(t.String({ description: 'evidence posture of an intelligence leg (mixed, proxy)' })),
})

/** What every wrapper answer carries besides its own output names. */
const Common: TProperties = {
  sample: SampleFlag,
  recommendation: t.Object({ action: t.String(), reason: t.String() }, { description: 'what to do, in one word, and why' }),
  confidence: t.Number({ minimum: 0, maximum: 1, description: 'how much of the evidence the answer needed was there (see README)' }),
  cost: t.Object(
    {
      price_usd: t.String(),
      legs_bought_separately_usd: t.String({ description: 'the legs that ran or were reused, bought one by one' }),
      difference_usd: t.String({
        description:
          'price_usd - legs_bought_separately_usd, signed: positive, the wrapper costs more than its legs bought separately; negative, it saves',
      }),
      legs_used: t.Integer(),
    },
    { description: 'the price of this answer against its legs' },
  ),
  source_summary: t.Array(LegSummary, { description: 'every leg: ran, reused, skipped or failed, and why' }),
  session: t.Object(
    {
      id: t.String({ description: 'pass back as `session` to reuse these legs' }),
      resumed: t.Boolean(),
      requested: t.Union([t.String(), t.Null()]),
      reused_legs: t.Integer(),
      expires_at: t.String(),
      lifetime_seconds: t.Integer(),
    },
    { description: 'session continuity' },
  ),
}

const VisibilityData = t.Object({
  brand_name: t.String({ description: 'as given' }),
  resolved: Resolved,
  summary: t.String(),
  score: t.Integer({
    minimum: 0,
    maximum: 100,
    description: `weighted mean of weekly visibility standing (${VISIBILITY_WEIGHTS.weekly}), sentiment (${VISIBILITY_WEIGHTS.sentiment}) and momentum (${VISIBILITY_WEIGHTS.momentum}) over the legs that answered`,
  }),
  strengths: Strings('what works, each tied to a figure'),
  gaps: Strings('what does not, each tied to a figure'),
  priority_actions: Strings('ordered'),
  sources: t.Array(t.Object({ leg: t.String(), route: t.String(), evidence_mode: t.String(), data_quality: t.Unknown() }), {
    description: 'the evidence behind the answer and its provenance',
  }),
  ...Common,
})

const DemandData = t.Object({
  destination: t.String({ description: 'the city, or the country when a country was asked for' }),
  country: t.String(),
  scope: t.Union([t.Literal('city'), t.Literal('country')], {
    description: "`country`: the answer covers the country's destinations in the flights data as one cluster",
  }),
  destinations: Strings("the destinations the flight figures cover: the city, or the country's destinations (busiest first)"),
  source_month: t.String(),
  summary: t.String(),
  demand_direction: t.Union([t.Literal('up'), t.Literal('down'), t.Literal('flat')], {
    description: 'scheduled-flight passenger trend (latest three months against a year before), else the passengers year on year',
  }),
  notable_signals: Strings('figures behind the direction'),
  opportunity_areas: Strings('where the figures point to upside'),
  risks: Strings('where they point to downside'),
  priority_actions: Strings('ordered'),
  ...Common,
})

const KolData = t.Object({
  brand_name: t.String({ description: 'as given' }),
  category: t.String({ description: 'as given' }),
  resolved: t.Object({
    brand: t.Union([Resolved, t.Null()], { description: 'null when the brand sentiment leg did not answer' }),
    category: Resolved,
  }),
  summary: t.String(),
  creators: t.Array(
    t.Object({
      handle: t.String(),
      platform: t.String(),
      city: t.String(),
      tier: t.String(),
      followers: t.Integer(),
      fit_score: t.Number(),
      engagement_rate_pct: t.Number(),
      engagement_vs_tier_median: t.Number(),
      flags: t.Array(t.String(), {
        description: 'engagement anomalies (spikes, low comment ratio, engagement rate far above the tier median)',
      }),
      estimated_cost_cny: t.Object({ low: t.Number(), high: t.Number(), band: t.String() }),
      recommendation: t.String(),
    }),
  ),
  selection_rationale: Strings('how the shortlist was chosen'),
  risks: Strings('what to check before booking'),
  next_steps: Strings('ordered'),
  ...Common,
})

export const capabilityRoutes: RouteSpec[] = [
  {
    ...base,
    id: 'capabilities.visibility',
    path: '/v1/visibility/snapshot',
    priceUsd: '0.63',
    typicalWaitSeconds: 45,
    usesEvidence: true,
    summary: 'Brand visibility snapshot',
    description: `Runs trends and sentiment for the brand and, when it is among the weekly signal brands, its weekly snapshot, concurrently; answers summary, score, strengths, gaps, priority actions and sources. ${visibilityRule} GET with query parameters or POST with the same fields as JSON.`,
    query: Query({ brand_name: Name('Brand name, as buyers write it.', 'Aurora Skin'), session: Session }),
    data: VisibilityData,
  },
  {
    ...base,
    id: 'capabilities.destination_demand',
    path: '/v1/destination-demand/snapshot',
    priceUsd: '0.20',
    typicalWaitSeconds: 15,
    summary: 'Destination demand snapshot',
    description:
      'For a city, runs the flights summary and trend; for a country, the flights aggregate over its destinations in the flights data, as one cluster. With either, when the country is a market of the spend data, its spend trends, concurrently; answers summary, demand direction, notable signals, opportunity areas, risks and priority actions. ' +
      'Names resolve across languages and codes (东京, TYO, NRT, Tokyo; 日本, JP, Japan); a name that is both a city and a country (Singapore) is the city. ' +
      `Confidence: the weight of the legs that answered (${Object.entries(DEMAND_LEG_WEIGHTS)
        .map(([leg, w]) => `${leg} ${w}`)
        .join(', ')}), x ${CONFIDENCE.sampleShare} on the generated sample datasets.`,
    query: Query({
      destination: Name('Destination city or country: English or Chinese name, city, airport or country code.', 'Tokyo'),
      session: Session,
    }),
    data: DemandData,
  },
  {
    ...base,
    id: 'capabilities.kol_shortlist',
    path: '/v1/kol/shortlist',
    priceUsd: '0.45',
    typicalWaitSeconds: 35,
    usesEvidence: true,
    summary: 'KOL shortlist for a brand',
    description:
      "Runs the KOL shortlist for the category with the brand's sentiment and, when the category is a weekly signal category, its weekly creator leaders; answers summary, creators, selection rationale, risks and next steps. " +
      `Action: proceed with ${KOL_SHORTLIST.proceedClean}+ creators without engagement flags, the top at fit >= ${KOL_SHORTLIST.proceedFit}, and the brand's sentiment read with a net score >= 0; otherwise proceed_with_checks. ` +
      `Confidence: ${KOL_SHORTLIST.confidence.base} + ${KOL_SHORTLIST.confidence.perCreator} per shortlisted creator (up to ${KOL_SHORTLIST.confidence.maxCreators}) + ${KOL_SHORTLIST.confidence.withBrand} with the brand's sentiment; at most ${KOL_SHORTLIST.confidence.capWithoutBrand} when the brand's sentiment could not be read; x ${CONFIDENCE.sampleShare} on the generated sample corpus.`,
    query: Query({
      brand_name: Name('Brand name.', 'Aurora Skin'),
      category: Name('Category or keyword (beauty, outdoor, travel, …).', 'beauty'),
      session: Session,
    }),
    data: KolData,
  },
]
