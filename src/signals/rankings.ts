import { ENGAGEMENT_RATE_MIN_VIEWS, MOMENTUM_MIN_BASE, type RankEntity } from '../catalog'
import { cachedRows, type LoadedDataset } from '../data'
import type { SignalServices } from './signal-services'
import type { SignalsSnapshot } from './index-signals'
import { addDays } from './weeks'

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits
const changePct = (now: number, before: number | undefined, minBase: number) =>
  before === undefined || before < minBase ? null : round(((now - before) / before) * 100, 1)

interface CreatorWeek {
  creator_handle: string
  creator_name: string
  platform: string
  follower_band: string
  followers: number
  posts: number
  engagement: number
  views: number
  follower_growth_pct: number
}

interface TopicWeek {
  topic_slug: string
  topic_name: string
  topic_name_zh: string
  platforms: string[]
  posts: number
  engagement: number
  creators: number
}

interface BrandWeek {
  brand_slug: string
  brand_name: string
  platforms: string[]
  mentions: number
  reach: number
  engagement: number
  seeding_creators: number
  sponsored_posts: number
}

interface Metric<R> {
  /** Can be negative: scored between the week's lowest and highest instead of against the leader. */
  signed: boolean
  /** The metric, or null when the row does not qualify (e.g. no base to compare with). */
  value(row: R, before: R | undefined): number | null
}

interface EntitySpec<R> {
  dataset(snap: SignalsSnapshot): LoadedDataset
  /**
   * The columns of one row per entity for a category and week (platforms combined where the entity spans
   * several, then grouped by `groupBy`), and the name its cached rows are kept under.
   */
  rows: { cachedAs: string; columns: string; groupBy?: string }
  id(row: R): string
  metrics: Record<string, Metric<R>>
  present(row: R, before: R | undefined): Record<string, unknown>
}

const creators: EntitySpec<CreatorWeek> = {
  dataset: (snap) => snap.creators,
  rows: {
    cachedAs: 'creators',
    columns: 'creator_handle, creator_name, platform, follower_band, followers, posts, engagement, views, follower_growth_pct',
  },
  id: (r) => r.creator_handle,
  metrics: {
    influence: { signed: false, value: (r) => r.engagement + r.views / 10 },
    engagement: { signed: false, value: (r) => r.engagement },
    engagement_rate: { signed: false, value: (r) => (r.views >= ENGAGEMENT_RATE_MIN_VIEWS ? round(r.engagement / r.views, 4) : null) },
    growth: { signed: true, value: (r) => r.follower_growth_pct },
  },
  present: (r) => ({ ...r, engagement_rate: r.views > 0 ? round(r.engagement / r.views, 4) : 0 }),
}

const topics: EntitySpec<TopicWeek> = {
  dataset: (snap) => snap.topics,
  rows: {
    cachedAs: 'topics',
    columns: `topic_slug, any_value(topic_name) AS topic_name, any_value(topic_name_zh) AS topic_name_zh, list(platform ORDER BY platform) AS platforms,
               SUM(posts)::INTEGER AS posts, SUM(engagement)::INTEGER AS engagement, SUM(creators)::INTEGER AS creators`,
    groupBy: 'topic_slug',
  },
  id: (r) => r.topic_slug,
  metrics: {
    momentum: { signed: true, value: (r, b) => changePct(r.posts, b?.posts, MOMENTUM_MIN_BASE.topics) },
    volume: { signed: false, value: (r) => r.posts },
    engagement: { signed: false, value: (r) => r.engagement },
  },
  present: (r, b) => ({ ...r, posts_change_pct: changePct(r.posts, b?.posts, MOMENTUM_MIN_BASE.topics) }),
}

const brands: EntitySpec<BrandWeek> = {
  dataset: (snap) => snap.brands,
  // Platforms combined: the route returns one row per brand.
  rows: {
    cachedAs: 'brands',
    columns: `brand_slug, any_value(brand_name) AS brand_name, list(platform ORDER BY platform) AS platforms,
               SUM(mentions)::INTEGER AS mentions, SUM(reach)::BIGINT::DOUBLE AS reach, SUM(engagement)::INTEGER AS engagement,
               SUM(seeding_creators)::INTEGER AS seeding_creators, SUM(sponsored_posts)::INTEGER AS sponsored_posts`,
    groupBy: 'brand_slug',
  },
  id: (r) => r.brand_slug,
  metrics: {
    brand_visibility: { signed: false, value: (r) => r.reach },
    brand_seeding: { signed: false, value: (r) => r.seeding_creators },
    brand_engagement: { signed: false, value: (r) => r.engagement },
    brand_momentum: { signed: true, value: (r, b) => changePct(r.mentions, b?.mentions, MOMENTUM_MIN_BASE.brands) },
  },
  present: ({ sponsored_posts, ...r }, b) => ({
    ...r,
    sponsored_share: r.mentions > 0 ? round(sponsored_posts / r.mentions, 3) : 0,
    mentions_change_pct: changePct(r.mentions, b?.mentions, MOMENTUM_MIN_BASE.brands),
  }),
}

const SPECS: { [E in RankEntity]: EntitySpec<never> } = { creators, topics, brands } as never

export interface RankedRow {
  id: string
  rank: number
  value: number
  score: number
  fields: Record<string, unknown>
}

/** One row per entity of a category's week, read once per dataset version (the result cache). */
function weekRows<R>(services: SignalServices, spec: EntitySpec<R>, dataset: LoadedDataset, category: string, week: string): Promise<R[]> {
  const { cachedAs, columns, groupBy } = spec.rows
  const sql = `SELECT ${columns} FROM ${dataset.relation} WHERE category = $1 AND week_start = $2${groupBy ? ` GROUP BY ${groupBy}` : ''}`
  return cachedRows<R>(services, dataset, `${cachedAs}|${category}|${week}`, sql, [category, week])
}

/** Ranks a week: rows with a metric, highest first, ties by id so the order is stable. */
async function rankWeek(
  services: SignalServices,
  spec: EntitySpec<unknown>,
  dataset: LoadedDataset,
  category: string,
  rankType: string,
  week: string,
): Promise<RankedRow[]> {
  const metric = spec.metrics[rankType]!
  const [rows, before] = await Promise.all([
    weekRows(services, spec, dataset, category, week),
    weekRows(services, spec, dataset, category, addDays(week, -7)),
  ])
  const beforeById = new Map(before.map((r) => [spec.id(r), r]))
  const valued = rows
    .map((r) => ({ r, id: spec.id(r), b: beforeById.get(spec.id(r)), value: metric.value(r, beforeById.get(spec.id(r))) }))
    .filter((x): x is typeof x & { value: number } => x.value !== null)
    .sort((x, y) => y.value - x.value || (x.id < y.id ? -1 : 1))
  const values = valued.map((x) => x.value)
  const max = Math.max(...values)
  const min = Math.min(...values)
  const score = (v: number) =>
    round(metric.signed ? (max === min ? 100 : ((v - min) / (max - min)) * 100) : max > 0 ? (v / max) * 100 : 0, 1)
  return valued.map((x, i) => ({ id: x.id, rank: i + 1, value: round(x.value, 4), score: score(x.value), fields: spec.present(x.r, x.b) }))
}

export interface Ranking {
  rows: (Record<string, unknown> & { rank: number; score: number })[]
  total: number
}

/**
 * The full ranking of a category's week with movement against the previous week. The previous
 * week's ranking uses the same rank type; `movement` is null when that week is not published.
 */
export async function ranking(
  services: SignalServices,
  snap: SignalsSnapshot,
  entity: RankEntity,
  category: string,
  rankType: string,
  week: string,
): Promise<Ranking> {
  const spec = SPECS[entity] as EntitySpec<unknown>
  const dataset = spec.dataset(snap)
  const previousWeek = addDays(week, -7)
  const previousPublished = dataset.periods.includes(previousWeek)
  const [current, previous] = await Promise.all([
    rankWeek(services, spec, dataset, category, rankType, week),
    previousPublished ? rankWeek(services, spec, dataset, category, rankType, previousWeek) : Promise.resolve([]),
  ])
  const previousRank = new Map(previous.map((r) => [r.id, r.rank]))
  const rows = current.map((entry) => {
    const before = previousRank.get(entry.id) ?? null
    const change = before === null ? null : before - entry.rank
    const movement = !previousPublished ? null : change === null ? 'new' : change > 0 ? 'up' : change < 0 ? 'down' : 'unchanged'
    return {
      rank: entry.rank,
      ...entry.fields,
      value: entry.value,
      score: entry.score,
      previous_rank: before,
      rank_change: change,
      movement,
    }
  })
  return { rows, total: rows.length }
}
