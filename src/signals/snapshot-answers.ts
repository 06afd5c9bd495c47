import { PLATFORMS, RANK_TYPES, type SIGNAL_CATEGORIES, signalCategory } from '../catalog'
import { cachedRows } from '../data'
import { ranking } from './rankings'
import type { SignalServices } from './signal-services'
import type { SignalsSnapshot } from './index-signals'
import { addDays, type WeekChoice } from './weeks'

const TOP = 5
const platformName = (p: string) => (p in PLATFORMS ? p[0]!.toUpperCase() + p.slice(1) : p)
const pctText = (n: number) => `${n > 0 ? '+' : ''}${n}%`

/** The brand snapshot: its position under every brand rank type, metrics, platform split and a plain summary. */
export async function brandSnapshot(
  services: SignalServices,
  snap: SignalsSnapshot,
  slug: string,
  name: string,
  category: string,
  week: WeekChoice,
) {
  const types = Object.keys(RANK_TYPES.brands)
  const rankings = await Promise.all(types.map((t) => ranking(services, snap, 'brands', category, t, week.start)))
  const rank_positions: Record<string, number> = {}
  types.forEach((t, i) => {
    const row = rankings[i]!.rows.find((r) => r.brand_slug === slug)
    if (row) rank_positions[t] = row.rank
  })
  const visibility = rankings[0]!.rows.find((r) => r.brand_slug === slug)! as Record<string, unknown> & { rank: number; score: number }
  const platforms = await cachedRows<{ platform: string; mentions: number; reach: number }>(
    services,
    snap.brands,
    `brand-platforms|${slug}|${category}|${week.start}`,
    `SELECT platform, mentions, reach FROM ${snap.brands.relation} WHERE brand_slug = $1 AND category = $2 AND week_start = $3 ORDER BY reach DESC, platform`,
    [slug, category, week.start],
  )
  const others = await cachedRows<{ category: string }>(
    services,
    snap.brands,
    `brand-categories|${slug}|${week.start}`,
    `SELECT DISTINCT category FROM ${snap.brands.relation} WHERE brand_slug = $1 AND week_start = $2 ORDER BY category`,
    [slug, week.start],
  )
  const totalReach = platforms.reduce((sum, p) => sum + p.reach, 0)
  const metrics = {
    mentions: visibility.mentions as number,
    reach: visibility.reach as number,
    engagement: visibility.engagement as number,
    seeding_creators: visibility.seeding_creators as number,
    sponsored_share: visibility.sponsored_share as number,
    mentions_change_pct: visibility.mentions_change_pct as number | null,
  }
  const categoryName = signalCategory(category)!.name
  const lead = platforms[0]
  const movement =
    visibility.movement === 'up'
      ? `, up ${visibility.rank_change} from #${visibility.previous_rank}`
      : visibility.movement === 'down'
        ? `, down from #${visibility.previous_rank}`
        : visibility.movement === 'new'
          ? ', new to the ranking this week'
          : ''
  const summary = [
    `${name} ranks #${visibility.rank} of ${rankings[0]!.total} ${categoryName} brands by visibility in the week ${week.start} to ${week.end} (score ${Math.round(visibility.score)}/100${movement}).`,
    `Seeding breadth ranks #${rank_positions.brand_seeding} with ${metrics.seeding_creators} creators posting; ${Math.round(metrics.sponsored_share * 100)}% of ${metrics.mentions} mentions were sponsored or gifted.`,
    lead && totalReach > 0 ? `${platformName(lead.platform)} carries ${Math.round((lead.reach / totalReach) * 100)}% of the reach.` : '',
    metrics.mentions_change_pct !== null ? `Mentions ${pctText(metrics.mentions_change_pct)} week over week.` : '',
  ]
    .filter(Boolean)
    .join(' ')
  return {
    brand_name: name,
    brand_slug: slug,
    category,
    visibility_score: Math.round(visibility.score),
    rank_positions,
    brands_ranked: rankings[0]!.total,
    summary,
    snapshot_week: `${week.start} to ${week.end}`,
    week_start: week.start,
    week_end: week.end,
    metrics,
    platforms: platforms.map((p) => ({ ...p, share_of_reach: totalReach > 0 ? Math.round((p.reach / totalReach) * 1000) / 1000 : 0 })),
    other_categories: others.map((o) => o.category).filter((c) => c !== category),
  }
}

type Category = (typeof SIGNAL_CATEGORIES)[number]

/** The category snapshot: the week's leaders under the default rank types, totals and highlights. */
export async function categorySnapshot(services: SignalServices, snap: SignalsSnapshot, category: Category, week: WeekChoice) {
  const [creators, risingTopics, brands] = await Promise.all([
    ranking(services, snap, 'creators', category.slug, 'influence', week.start),
    ranking(services, snap, 'topics', category.slug, 'momentum', week.start),
    ranking(services, snap, 'brands', category.slug, 'brand_visibility', week.start),
  ])
  // Momentum needs the week before; in the first published week the topics are ranked by volume.
  const topicsBy = risingTopics.total > 0 ? 'momentum' : 'volume'
  const topics = topicsBy === 'momentum' ? risingTopics : await ranking(services, snap, 'topics', category.slug, 'volume', week.start)
  const [volume, volumeBefore] = await Promise.all(
    [week.start, addDays(week.start, -7)].map((weekStart) =>
      cachedRows<{ posts: number | null }>(
        services,
        snap.topics,
        `topic-total|${category.slug}|${weekStart}`,
        `SELECT SUM(posts)::INTEGER AS posts FROM ${snap.topics.relation} WHERE category = $1 AND week_start = $2`,
        [category.slug, weekStart],
      ),
    ),
  )
  const posts = volume![0]?.posts ?? 0
  const before = volumeBefore![0]?.posts ?? null
  const postsChange = before ? Math.round(((posts - before) / before) * 1000) / 10 : null

  const highlights: string[] = []
  const leader = brands.rows[0]
  if (leader)
    highlights.push(
      `${leader.brand_name} leads ${category.name} brand visibility${leader.movement === 'up' ? `, up from #${leader.previous_rank}` : leader.movement === 'unchanged' ? ' for a second week' : ''}.`,
    )
  const climber = [...brands.rows]
    .filter((r) => (r.rank_change as number | null) !== null && (r.rank_change as number) > 0)
    .sort((a, b) => (b.rank_change as number) - (a.rank_change as number))[0]
  if (climber && climber !== leader)
    highlights.push(`Biggest climber: ${climber.brand_name}, up ${climber.rank_change} places to #${climber.rank}.`)
  const hot = topics.rows[0]
  if (hot && topicsBy === 'momentum' && (hot.posts_change_pct as number) > 0)
    highlights.push(
      `Fastest-rising topic: ${hot.topic_name} (${hot.topic_name_zh}), posts ${pctText(hot.posts_change_pct as number)} week over week.`,
    )
  const newcomers = creators.rows.filter((r) => r.movement === 'new').length
  if (newcomers > 0) highlights.push(`${newcomers} creator${newcomers > 1 ? 's' : ''} entered the ranking this week.`)
  if (postsChange !== null) highlights.push(`Topic volume ${pctText(postsChange)} against the week before.`)

  return {
    category: category.slug,
    category_name: category.name,
    category_name_zh: category.name_zh,
    snapshot_week: `${week.start} to ${week.end}`,
    week_start: week.start,
    week_end: week.end,
    totals: {
      topic_posts: posts,
      topic_posts_change_pct: postsChange,
      brand_mentions: brands.rows.reduce((sum, r) => sum + (r.mentions as number), 0),
      active_creators: creators.total,
    },
    top_creators: creators.rows
      .slice(0, TOP)
      .map((r) => ({ rank: r.rank, creator_handle: r.creator_handle, creator_name: r.creator_name, platform: r.platform, score: r.score })),
    top_topics_rank_type: topicsBy,
    top_topics: topics.rows.slice(0, TOP).map((topic) => ({
      rank: topic.rank,
      topic_slug: topic.topic_slug,
      topic_name: topic.topic_name,
      topic_name_zh: topic.topic_name_zh,
      score: topic.score,
      posts_change_pct: topic.posts_change_pct,
    })),
    top_brands: brands.rows
      .slice(0, TOP)
      .map((r) => ({ rank: r.rank, brand_slug: r.brand_slug, brand_name: r.brand_name, score: r.score, movement: r.movement })),
    highlights,
  }
}
