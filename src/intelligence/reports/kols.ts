/**
 * KOL and KOC shortlists. Creators are scored from their own posts in the look-back window: relevance
 * (share of their posts on the category), engagement quality (median engagement rate against the median
 * of their tier's peers, minus anomaly flags) and activity. Cost is a rule-of-thumb estimate from
 * followers (COST_PER_FOLLOWER_CNY). Every rule is in src/catalog/evidence-rules.ts.
 */
import {
  BUDGET_BANDS,
  type BudgetBand,
  COST_FLOOR_CNY,
  COST_PER_FOLLOWER_CNY,
  COST_SPREAD,
  CREATOR_TIERS,
  type CreatorTier,
  KOL,
  KOL_FLAGS,
} from '../../catalog'
import { ORIGIN_CITIES } from '../../data'
import { countOf, engagementOf, type Platform } from '../evidence'
import { median, round } from './report'
import type { CreatorPost } from '../sources'
import { eachSliced } from '../turns'

const CITY_NAMES = new Map<string, string>(
  ORIGIN_CITIES.flatMap((c) => [c.name, c.nameZh, ...c.aliases].map((n): [string, string] => [n.toLowerCase(), c.name])),
)

/** A city as written in English when it is a known mainland city (上海 -> Shanghai), else as given. */
export function cityName(value: string | null | undefined): string | null {
  const trimmed = value?.trim()
  return trimmed ? (CITY_NAMES.get(trimmed.toLowerCase()) ?? trimmed) : null
}

export const tierOf = (followers: number): CreatorTier => CREATOR_TIERS.find((t) => followers >= t.minFollowers)!.tier

export function costOf(platform: Platform, followers: number): { band: BudgetBand; cny_low: number; cny_high: number } {
  const mid = Math.max(COST_FLOOR_CNY, followers * COST_PER_FOLLOWER_CNY[platform])
  const roundTo = (n: number) => Math.round(n / 100) * 100
  return {
    band: BUDGET_BANDS.find((b) => mid < b.maxCny)!.band,
    cny_low: roundTo(mid * (1 - COST_SPREAD)),
    cny_high: roundTo(mid * (1 + COST_SPREAD)),
  }
}

export interface KolFilters {
  /** Live providers: a creator's posts are only those the search for the category found (relevance is then 1 by construction). */
  searchedOnly?: boolean
  platform: Platform | null
  /** City as cityName() spells it. */
  city: string | null
  tier: CreatorTier | null
  budget_band: BudgetBand | null
  /** Category slug the industry maps to, when it maps to one. */
  industryCategory: string | null
  /** Category slug the category parameter names, when it names one. */
  askedCategory?: string | null
}

interface Creator {
  handle: string
  platform: Platform
  followers: number
  city: string | null
  tier: CreatorTier
  posts: CreatorPost[]
  matching: CreatorPost[]
  /** The posts as they count, in whole posts as shown (countOf: a sampled corpus's posts stand for more than themselves). */
  postCount: number
  matchingCount: number
  /** Median over posts of engagement / followers. */
  rate: number
  /** Posts per content category the source files them under (none with live providers). */
  categories: ReadonlyMap<string, number>
}

export type Flag = (typeof KOL_FLAGS)[number]

/** `vs`: the creator's median engagement rate over the tier median, null without peers. */
function flagsOf(creator: Creator, vs: number | null): Flag[] {
  const flags: Flag[] = []
  const engagements = creator.posts.map(engagementOf)
  const typical = median(engagements)
  if (creator.posts.length >= 4 && typical > 0 && engagements.some((e) => e > KOL.spikeFactor * typical)) flags.push('engagement_spike')
  if (
    creator.posts.some((p) => p.engagement && p.engagement.likes >= 50 && p.engagement.comments / p.engagement.likes < KOL.minCommentRatio)
  )
    flags.push('low_comment_ratio')
  if (vs !== null && vs > KOL.outlierFactor) flags.push('engagement_rate_outlier')
  return flags
}

const FLAG_CHECKS: Record<Flag, string> = {
  engagement_spike: 'a post far above their usual engagement',
  low_comment_ratio: 'posts with likes but almost no comments',
  engagement_rate_outlier: `an engagement rate over ${KOL.outlierFactor}x their tier's median`,
}

type CreatorBase = Omit<Creator, 'matching' | 'matchingCount'>

/**
 * Creators grouped from one population of posts, once per population: the sample corpus's window is one
 * array shared by every KOL request (live providers' populations are new each time, and forgotten).
 */
const grouped = new WeakMap<readonly CreatorPost[], Promise<CreatorBase[]>>()

/** Creators (posts with a handle, a platform and a follower count) grouped from posts, with the posts that match. */
async function creatorsOf(posts: readonly CreatorPost[], matches: (post: CreatorPost) => boolean): Promise<Creator[]> {
  let bases = grouped.get(posts)
  if (!bases) {
    bases = groupCreators(posts)
    bases.catch(() => grouped.delete(posts))
    grouped.set(posts, bases)
  }
  const creators: Creator[] = []
  await eachSliced(await bases, (base) => {
    const matching = base.posts.filter(matches)
    creators.push({ ...base, matching, matchingCount: Math.round(countOf(matching)) })
  })
  return creators
}

async function groupCreators(posts: readonly CreatorPost[]): Promise<CreatorBase[]> {
  // A quarter of the sample corpus is ~40,000 posts: grouped and scored taking turns (turns.ts).
  const groups = new Map<string, CreatorPost[]>()
  await eachSliced(posts, (post) => {
    if (!post.author || post.platform === 'web' || !post.authorFollowers) return
    const key = `${post.platform}|${post.authorId ?? post.author}`
    const group = groups.get(key)
    if (group) group.push(post)
    else groups.set(key, [post])
  })
  const creators: CreatorBase[] = []
  await eachSliced([...groups.values()], (ps) => {
    const latest = ps.reduce((a, b) => (b.publishedAt > a.publishedAt ? b : a))
    const followers = latest.authorFollowers!
    const categories = new Map<string, number>()
    for (const p of ps) if (p.category) categories.set(p.category, (categories.get(p.category) ?? 0) + (p.weight ?? 1))
    creators.push({
      handle: latest.author!,
      platform: latest.platform as Platform,
      followers,
      city: cityName(latest.authorCity),
      tier: tierOf(followers),
      posts: ps,
      postCount: Math.round(countOf(ps)),
      rate: median(ps.map((p) => engagementOf(p) / followers)),
      categories,
    })
  })
  return creators
}

/** Median engagement rate of a tier: same platform when it has enough peers, else the tier across platforms. */
function tierMedians(all: readonly Creator[]) {
  const key = (c: Creator) => `${c.platform}|${c.tier}`
  const byPlatform = new Map<string, number[]>()
  const byTier = new Map<string, number[]>()
  for (const creator of all) {
    for (const [map, k] of [
      [byPlatform, key(creator)],
      [byTier, creator.tier],
    ] as const) {
      const rates = map.get(k)
      if (rates) rates.push(creator.rate)
      else map.set(k, [creator.rate])
    }
  }
  return (creator: Creator): { rate: number; peers: 'platform' | 'tier' } | null => {
    const same = byPlatform.get(key(creator)) ?? []
    if (same.length >= KOL.minPeers) return { rate: median(same), peers: 'platform' }
    const tier = byTier.get(creator.tier) ?? []
    return tier.length >= KOL.minPeers ? { rate: median(tier), peers: 'tier' } : null
  }
}

const pct = (x: number) => round(x * 100, 2)

function recommendation(
  creator: Creator,
  fit: number,
  category: string,
  rate: number,
  tierRate: number | null,
  cost: ReturnType<typeof costOf>,
  flags: Flag[],
  searchedOnly: boolean,
): string {
  const verdict = fit >= 0.7 ? 'Strong fit' : fit >= 0.5 ? 'Good fit' : 'Possible fit'
  const vs = tierRate
    ? ` vs ${pct(tierRate)}% for ${creator.tier} peers (${round(rate / tierRate, 1)}x)`
    : ' (too few peers in the tier to compare)'
  const check = flags.length ? ` Check before booking: ${flags.map((f) => FLAG_CHECKS[f]).join(' and ')} — possible bought engagement.` : ''
  const posts = searchedOnly
    ? `${creator.matching.length} recent posts on "${category}" found by search (their other posts were not searched)`
    : `${creator.matchingCount} of ${creator.postCount} recent posts on "${category}"`
  return `${verdict}: ${posts}; engagement rate ${pct(rate)}%${vs}; est. CNY ${cost.cny_low.toLocaleString('en')}-${cost.cny_high.toLocaleString('en')} per post (${cost.band}).${check}`
}

export interface Shortlist {
  candidates: number
  excluded: number
  creators: ReturnType<typeof scoreCreator>[]
  /** Posts behind the shortlisted creators' scores. */
  posts: CreatorPost[]
  /** Where a creator stands (the weekly ranking's leaders): by platform and handle. */
  standing(
    platform: string,
    handle: string,
  ): { candidate: boolean; filtered: boolean; rank: number | null; fit_score: number | null; fit: FitParts | null }
}

/** The parts of a creator's fit score, as the shortlist shows them. */
export type FitParts = ReturnType<typeof scoreCreator>['fit']

function scoreCreator(creator: Creator, medianOf: ReturnType<typeof tierMedians>, category: string, filters: KolFilters) {
  const tier = medianOf(creator)
  const vs = tier && tier.rate > 0 ? creator.rate / tier.rate : null
  const flags = flagsOf(creator, vs)
  const credited = vs === null || flags.includes('engagement_rate_outlier') ? 0.5 : Math.min(1, vs / 2)
  const quality = Math.max(0, credited - KOL.flagPenalty * flags.length)
  const relevance = creator.matchingCount / creator.postCount
  const activity = Math.min(1, creator.matchingCount / KOL.fullActivityPosts)
  const reach = Math.min(1, Math.max(0, Math.log(creator.followers / KOL.reachFrom) / Math.log(KOL.reachFull / KOL.reachFrom)))
  // Most of the creator's posts in the industry. Live search gives no post's category, only the posts found
  // for the category asked: they tell the industry only when it is that category.
  const industryMatch =
    filters.industryCategory !== null &&
    (creator.categories.size
      ? (creator.categories.get(filters.industryCategory) ?? 0) / creator.postCount > 0.5
      : filters.industryCategory === filters.askedCategory && relevance > 0.5)
  const weights = KOL.fitWeights
  const raw = Math.min(
    1,
    weights.relevance * relevance +
      weights.quality * quality +
      weights.activity * activity +
      weights.reach * reach +
      (industryMatch ? KOL.industryBonus : 0),
  )
  // Few posts say little: shrink toward the prior (KOL.priorPosts), so 1 of 1 posts on the category is no perfect fit.
  const postCount = creator.postCount
  const fit = (postCount * raw + KOL.priorPosts * KOL.prior) / (postCount + KOL.priorPosts)
  const cost = costOf(creator.platform, creator.followers)
  const strongest = [...creator.matching].sort((a, b) => engagementOf(b) - engagementOf(a))
  return {
    handle: creator.handle,
    platform: creator.platform,
    city: creator.city,
    followers: creator.followers,
    tier: creator.tier,
    fit_score: round(fit),
    fit: {
      relevance: round(relevance),
      engagement_quality: round(quality),
      activity: round(activity),
      reach: round(reach),
      industry_match: industryMatch,
    },
    engagement: {
      posts: creator.postCount,
      matching_posts: creator.matchingCount,
      median_engagement: Math.round(median(creator.posts.map(engagementOf))),
      engagement_rate_pct: pct(creator.rate),
      tier_median_rate_pct: tier ? pct(tier.rate) : null,
      tier_peers: tier?.peers ?? null,
      vs_tier_median: vs === null ? null : round(vs),
      quality_score: round(quality),
      flags,
    },
    estimated_cost: cost,
    evidence_ids: strongest.slice(0, 3).map((p) => p.id),
    recommendation: recommendation(creator, fit, category, creator.rate, tier?.rate ?? null, cost, flags, filters.searchedOnly === true),
  }
}

/** Scores every creator with a matching post, applies the filters, ranks by fit. */
export async function shortlist(
  posts: readonly CreatorPost[],
  matches: (post: CreatorPost) => boolean,
  category: string,
  filters: KolFilters,
): Promise<Shortlist> {
  const all = await creatorsOf(posts, matches)
  const medianOf = tierMedians(all)
  const candidates = all.filter((c) => c.matching.length > 0 && (!filters.platform || c.platform === filters.platform))
  const kept = candidates.filter(
    (c) =>
      (!filters.city || c.city?.toLowerCase() === filters.city.toLowerCase()) &&
      (!filters.tier || c.tier === filters.tier) &&
      (!filters.budget_band || costOf(c.platform, c.followers).band === filters.budget_band),
  )
  const ranked = kept
    .map((c) => scoreCreator(c, medianOf, category, filters))
    .sort((a, b) => b.fit_score - a.fit_score || b.followers - a.followers || a.handle.localeCompare(b.handle))
  const creators = ranked.slice(0, KOL.shortlistSize)
  const chosen = new Set(creators.map((c) => `${c.platform}|${c.handle}`))
  return {
    candidates: candidates.length,
    excluded: candidates.length - kept.length,
    creators,
    posts: kept.filter((c) => chosen.has(`${c.platform}|${c.handle}`)).flatMap((c) => c.matching),
    standing(platform, handle) {
      const same = (c: { platform: string; handle: string }) => c.platform === platform && c.handle === handle
      const index = ranked.findIndex(same)
      const candidate = candidates.some(same)
      const at = index < 0 ? null : ranked[index]!
      return {
        candidate,
        filtered: candidate && index < 0,
        rank: at ? index + 1 : null,
        fit_score: at?.fit_score ?? null,
        fit: at?.fit ?? null,
      }
    },
  }
}
