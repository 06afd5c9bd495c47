import { type TProperties, Type as t } from '@sinclair/typebox'
import { DataQuality } from './data-quality'
import { Enum, Limit, Query, Slug, WeekDate } from './params'
import { SIGNAL_CATEGORIES, SIGNAL_CATEGORY_SLUGS } from '../signal-categories'
import type { RouteSpec } from '../types'

/**
 * Rank types per ranking route: what each ranks by. The first is the default. Documented here once;
 * the handlers compute the metric named by `metric`, OpenAPI and the README show the descriptions.
 */
export const RANK_TYPES = {
  creators: {
    influence: 'engagement + views / 10 in the week (one interaction weighs as much as ten views)',
    engagement: 'likes, comments, saves and shares in the week',
    engagement_rate: 'engagement / views; creators with at least 1,000 views in the week',
    growth: 'follower change over the week, percent',
  },
  topics: {
    momentum: 'posts this week vs the week before, percent; topics with at least 50 posts the week before',
    volume: 'posts in the week, all platforms',
    engagement: 'engagement on those posts',
  },
  brands: {
    brand_visibility: 'estimated views of posts mentioning the brand (reach), all platforms',
    brand_seeding: 'distinct creators who posted about the brand (seeding breadth)',
    brand_engagement: 'engagement on posts mentioning the brand',
    brand_momentum: 'mentions this week vs the week before, percent; brands with at least 20 mentions the week before',
  },
} as const

export type RankEntity = keyof typeof RANK_TYPES

/** Minimum base for the percent-change rank types, so a jump from 2 to 6 posts does not top the chart. */
export const MOMENTUM_MIN_BASE = { topics: 50, brands: 20 } as const
export const ENGAGEMENT_RATE_MIN_VIEWS = 1000

/** `freshness` of every signals answer: the data team publishes each week by hand after it closes. */
export const SIGNALS_FRESHNESS = 'weekly_manual'

const base = { family: 'signals', kind: 'dataset', methods: ['GET'], typicalWaitSeconds: 1 } as const

const Week = {
  week_start: t.Optional(
    WeekDate('Monday of the week, YYYY-MM-DD. Latest published week when both week_start and week_end are omitted.', '2026-11-09'),
  ),
  week_end: t.Optional(
    WeekDate('Sunday of the week, YYYY-MM-DD; with week_start it must be the same week (week_start + 6 days).', '2026-11-15'),
  ),
}
/** A category slug, or its English or Chinese name or a synonym (美妆, skincare): the entity resolver maps it to the slug. */
const Category = t.String({
  minLength: 1,
  maxLength: 60,
  description: `Category: ${SIGNAL_CATEGORIES.map((c) => `${c.slug} (${c.name}, ${c.name_zh})`).join(', ')}. Chinese names and common synonyms (美妆, skincare, cars) are accepted; answers name the slug.`,
  examples: ['beauty'],
})

const rankTypeParam = (entity: RankEntity) => {
  const types = Object.keys(RANK_TYPES[entity]) as [string, ...string[]]
  return Enum(
    types,
    `What to rank by (default ${types[0]}): ${Object.entries(RANK_TYPES[entity])
      .map(([k, v]) => `${k} = ${v}`)
      .join('; ')}.`,
  )
}

const rankingQuery = (entity: RankEntity, what: string) =>
  Query({ category: Category, rank_type: t.Optional(rankTypeParam(entity)), ...Week, limit: t.Optional(Limit(20, 100, what)) })

const Movement = {
  previous_rank: t.Union([t.Integer(), t.Null()], {
    description: 'rank in the previous week for the same rank type; null when not ranked then',
  }),
  rank_change: t.Union([t.Integer(), t.Null()], { description: 'previous_rank - rank: positive means it climbed' }),
  movement: t.Union([t.Literal('up'), t.Literal('down'), t.Literal('unchanged'), t.Literal('new'), t.Null()], {
    description: '`new` when it was not ranked the week before; null when the previous week is not published',
  }),
}

const Ranked = {
  rank: t.Integer({ minimum: 1 }),
  value: t.Number({ description: "the rank type's metric for this row" }),
  score: t.Number({
    minimum: 0,
    maximum: 100,
    description: "the metric scaled to 0-100 against the week's leader (signed metrics: between the lowest and the highest)",
  }),
  ...Movement,
}

export const WeekInfo = {
  week_start: t.String({ description: 'Monday, YYYY-MM-DD' }),
  week_end: t.String({ description: 'Sunday, YYYY-MM-DD' }),
}

export const Freshness = t.Object(
  {
    cadence: t.Literal('weekly'),
    latest_published_week_start: t.String(),
    weeks_behind_latest: t.Integer({ minimum: 0, description: '0 when this is the latest published week' }),
    published_weeks: t.Integer(),
  },
  { description: 'How current the week is' },
)

const rankingData = (entity: RankEntity, row: TProperties) =>
  t.Object({
    category: t.String(),
    category_name: t.String(),
    rank_type: t.String(),
    rank_type_description: t.String(),
    ...WeekInfo,
    total_ranked: t.Integer({ description: `${entity} ranked in the week before the limit was applied` }),
    rows: t.Array(t.Object({ ...row, ...Ranked })),
    freshness: t.Literal(SIGNALS_FRESHNESS),
    data_quality: DataQuality,
  })

const CreatorRow = {
  creator_handle: t.String(),
  creator_name: t.String(),
  platform: t.String(),
  follower_band: t.String({ description: 'mega (1M+), macro (500k-1M), mid (100k-500k), micro (10k-100k), nano (<10k)' }),
  followers: t.Integer(),
  posts: t.Integer(),
  engagement: t.Integer(),
  views: t.Integer(),
  engagement_rate: t.Number({ description: 'engagement / views, 4 decimals' }),
  follower_growth_pct: t.Number(),
}

const TopicRow = {
  topic_slug: t.String(),
  topic_name: t.String(),
  topic_name_zh: t.String(),
  platforms: t.Array(t.String()),
  posts: t.Integer(),
  engagement: t.Integer(),
  creators: t.Integer(),
  posts_change_pct: t.Union([t.Number(), t.Null()], { description: 'posts vs the week before, percent; null without a base' }),
}

const BrandRow = {
  brand_slug: t.String(),
  brand_name: t.String(),
  platforms: t.Array(t.String()),
  mentions: t.Integer(),
  reach: t.Integer(),
  engagement: t.Integer(),
  seeding_creators: t.Integer(),
  sponsored_share: t.Number({ description: 'share of mentions marked sponsored or gifted, 0-1' }),
  mentions_change_pct: t.Union([t.Number(), t.Null()], { description: 'mentions vs the week before, percent; null without a base' }),
}

export const CreatorRankingData = rankingData('creators', CreatorRow)
export const TopicRankingData = rankingData('topics', TopicRow)
export const BrandRankingData = rankingData('brands', BrandRow)

const BrandSnapshotData = t.Object({
  brand_name: t.String(),
  brand_slug: t.String(),
  category: t.String(),
  visibility_score: t.Integer({ minimum: 0, maximum: 100, description: 'brand_visibility score of the week, rounded' }),
  rank_positions: t.Record(t.String(), t.Integer(), {
    description: 'rank type -> position in the category that week (brand_momentum only when the brand had a base)',
  }),
  brands_ranked: t.Integer({ minimum: 1, description: 'brands ranked by visibility in the category that week' }),
  summary: t.String(),
  snapshot_week: t.String({ description: '`<week_start> to <week_end>`' }),
  ...WeekInfo,
  freshness: t.Literal(SIGNALS_FRESHNESS),
  freshness_detail: Freshness,
  metrics: t.Object({
    mentions: t.Integer(),
    reach: t.Integer(),
    engagement: t.Integer(),
    seeding_creators: t.Integer(),
    sponsored_share: t.Number(),
    mentions_change_pct: t.Union([t.Number(), t.Null()]),
  }),
  platforms: t.Array(t.Object({ platform: t.String(), mentions: t.Integer(), reach: t.Integer(), share_of_reach: t.Number() })),
  other_categories: t.Array(t.String(), { description: 'other categories where the brand has rows that week' }),
  data_quality: DataQuality,
})

const CategorySnapshotData = t.Object({
  category: t.String(),
  category_name: t.String(),
  category_name_zh: t.String(),
  snapshot_week: t.String(),
  ...WeekInfo,
  freshness: t.Literal(SIGNALS_FRESHNESS),
  freshness_detail: Freshness,
  totals: t.Object({
    topic_posts: t.Integer(),
    topic_posts_change_pct: t.Union([t.Number(), t.Null()]),
    brand_mentions: t.Integer(),
    active_creators: t.Integer(),
  }),
  top_creators: t.Array(
    t.Object({ rank: t.Integer(), creator_handle: t.String(), creator_name: t.String(), platform: t.String(), score: t.Number() }),
    { description: 'by influence' },
  ),
  top_topics_rank_type: t.Union([t.Literal('momentum'), t.Literal('volume')], {
    description: 'momentum, or volume in the first published week (no week before to compare with)',
  }),
  top_topics: t.Array(
    t.Object({
      rank: t.Integer(),
      topic_slug: t.String(),
      topic_name: t.String(),
      topic_name_zh: t.String(),
      score: t.Number(),
      posts_change_pct: t.Union([t.Number(), t.Null()]),
    }),
    { description: 'by top_topics_rank_type' },
  ),
  top_brands: t.Array(
    t.Object({ rank: t.Integer(), brand_slug: t.String(), brand_name: t.String(), score: t.Number(), movement: Movement.movement }),
    { description: 'by brand_visibility' },
  ),
  highlights: t.Array(t.String(), { description: 'plain-language notes on the week' }),
  data_quality: t.Array(DataQuality, { description: 'one block per signals dataset blended' }),
})

export const signalRoutes: RouteSpec[] = [
  {
    ...base,
    id: 'signals.creators.rankings',
    path: '/v1/signals/creators/rankings',
    priceUsd: '0.18',
    summary: 'Weekly creator rankings',
    description: 'Weekly creator (KOL) rankings for a category and rank type, with movement against the previous week.',
    query: rankingQuery('creators', 'creators'),
    data: CreatorRankingData,
    table: { field: 'rows' },
  },
  {
    ...base,
    id: 'signals.topics.rankings',
    path: '/v1/signals/topics/rankings',
    priceUsd: '0.18',
    summary: 'Weekly topic rankings',
    description: 'Weekly topic rankings for a category and rank type, all platforms combined.',
    query: rankingQuery('topics', 'topics'),
    data: TopicRankingData,
    table: { field: 'rows' },
  },
  {
    ...base,
    id: 'signals.brands.rankings',
    path: '/v1/signals/brands/rankings',
    priceUsd: '0.22',
    summary: 'Weekly brand rankings, one row per brand',
    description: 'Weekly brand rankings for a category and rank type; platforms are combined so each brand appears once.',
    query: rankingQuery('brands', 'brands'),
    data: BrandRankingData,
    table: { field: 'rows' },
  },
  {
    ...base,
    id: 'signals.brands.snapshot',
    path: '/v1/signals/brands/:brand_slug/snapshot',
    priceUsd: '0.40',
    summary: 'Derived weekly brand snapshot',
    description:
      'Visibility score, contributing rank positions, platform split and freshness of a brand for a week. Without `category`, the category where the brand has most reach.',
    params: t.Object({ brand_slug: Slug('Brand slug (from the brand rankings).', 'aurora-skin') }),
    query: Query({ category: t.Optional(Category), ...Week }),
    data: BrandSnapshotData,
  },
  {
    ...base,
    id: 'signals.categories.snapshot',
    path: '/v1/signals/categories/:category_slug/snapshot',
    priceUsd: '0.40',
    summary: 'Weekly category overview',
    description: 'Top creators, topics and brands of a category blended with highlights; latest published week unless a week is requested.',
    params: t.Object({
      category_slug: t.String({
        minLength: 1,
        maxLength: 60,
        description: `Category slug (${SIGNAL_CATEGORY_SLUGS.join(', ')}), or its English or Chinese name or a synonym.`,
        examples: ['beauty'],
      }),
    }),
    query: Query({ ...Week }),
    data: CategorySnapshotData,
  },
]
