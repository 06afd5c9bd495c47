/**
 * The weekly signals model behind signal_creators, signal_topics and signal_brands: 60 published
 * weeks (Monday to Sunday) for every category, with shopping festivals, holidays, brand seeding
 * campaigns, creators who join late and a few creators with bought-view spikes. Every figure is
 * synthetic; brand names are invented (./signals-vocabulary.ts). Deterministic: see ./random.ts.
 */
import { SIGNAL_CATEGORY_SLUGS, type SignalCategory } from '../../src/catalog/signal-categories'
import { PLATFORM_TOKENS, type Platform } from '../../src/catalog/platforms'
import { slugOf } from '../../src/data/aliases'
import type { Row } from './parquet'
import { between, clamp, gaussian, rngFor, round2, type Rng } from './random'
import {
  BRAND_ZH,
  BRANDS,
  CATEGORY_NOUN_ZH,
  CROSS_LISTED,
  HANDLE_PARTS,
  TOPIC_TREND,
  TOPICS,
  TREND_FROM_WEEK_INDEX,
  TREND_PER_WEEK,
} from './signals-vocabulary'

/** The last published week; a constant so the output does not depend on when the script runs. */
export const LAST_WEEK_START = '2026-11-09'
export const WEEKS = 60
const CREATORS_PER_CATEGORY = 36

const DAY_MS = 86_400_000
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10)
const dateMs = (iso: string) => Date.parse(`${iso}T00:00:00Z`)

export interface Week {
  start: string
  end: string
  index: number
  /** Dates of the seven days, for event lookups. */
  days: string[]
}

export function weekRange(lastStart = LAST_WEEK_START, count = WEEKS): Week[] {
  const last = dateMs(lastStart)
  return Array.from({ length: count }, (_, index) => {
    const start = last - (count - 1 - index) * 7 * DAY_MS
    return {
      start: isoDate(start),
      end: isoDate(start + 6 * DAY_MS),
      index,
      days: Array.from({ length: 7 }, (_, d) => isoDate(start + d * DAY_MS)),
    }
  })
}

// ---------------------------------------------------------------------------------------------
// Calendar effects (synthetic sizes, real dates)

const SHOPPING: readonly SignalCategory[] = ['beauty', 'fashion', 'luxury', 'consumer-electronics', 'home-living', 'parenting', 'pets']
const SPRING_FESTIVAL_2026 = '2026-02-17'

const contains = (w: Week, monthDay: string) => w.days.some((d) => d.endsWith(monthDay))

/** Multiplier on a category's activity in a week: Double 11 and 618 presales, holidays, seasons. */
function calendar(week: Week, category: SignalCategory): number {
  const month = Number(week.start.slice(5, 7))
  let multiplier = 1
  if (SHOPPING.includes(category)) {
    if (contains(week, '-11-11')) multiplier *= 1.7
    else if (week.days.some((d) => d.slice(5) >= '11-01' && d.slice(5) <= '11-10')) multiplier *= 1.3 // presales
    if (contains(week, '-06-18')) multiplier *= 1.45
  }
  if (week.days.includes(SPRING_FESTIVAL_2026)) multiplier *= category === 'travel' || category === 'food-beverage' ? 1.5 : 0.8
  if (contains(week, '-10-01') || contains(week, '-10-03')) multiplier *= category === 'travel' ? 1.6 : 1
  if (month === 7 || month === 8) multiplier *= category === 'travel' || category === 'outdoor-sports' || category === 'parenting' ? 1.2 : 1
  if ((month === 12 || month <= 2) && category === 'outdoor-sports') multiplier *= 0.85
  return multiplier
}

// ---------------------------------------------------------------------------------------------
// Platforms: how each one behaves (synthetic)

const PLATFORM_PROFILE: Readonly<Record<Platform, { viewsPerPost: number; engagementRate: number }>> = {
  xiaohongshu: { viewsPerPost: 3000, engagementRate: 0.05 },
  douyin: { viewsPerPost: 12000, engagementRate: 0.035 },
  wechat: { viewsPerPost: 2500, engagementRate: 0.02 },
}

/** Where each category's conversation happens: share of posts per platform. */
function platformShare(category: SignalCategory, platform: Platform): number {
  const social = ['beauty', 'fashion', 'travel', 'home-living', 'luxury'].includes(category)
  const video = ['food-beverage', 'gaming', 'automotive', 'consumer-electronics', 'pets'].includes(category)
  if (platform === 'xiaohongshu') return social ? 0.55 : 0.3
  if (platform === 'douyin') return video ? 0.55 : 0.33
  return social || video ? 0.12 : 0.3
}

const lognormal = (rng: Rng, sigma: number) => Math.exp(sigma * gaussian(rng))
const int = (n: number) => Math.max(0, Math.round(n))

// ---------------------------------------------------------------------------------------------
// Topics

function topicRows(weeks: readonly Week[]): Row[] {
  const rows: Row[] = []
  for (const category of SIGNAL_CATEGORY_SLUGS) {
    for (const topic of TOPICS[category]) {
      const traits = rngFor('topic', category, topic.slug)
      const base = 400 * lognormal(traits, 0.9)
      // Weekly drift: some topics climb for a year, others fade.
      const drift = between(traits, -0.025, 0.03)
      for (const platform of PLATFORM_TOKENS) {
        const share = platformShare(category, platform) * between(traits, 0.6, 1.4)
        for (const week of weeks) {
          const rng = rngFor('topic', category, topic.slug, platform, week.start)
          const trend = TOPIC_TREND[topic.slug]
          const late =
            Math.max(0, week.index - TREND_FROM_WEEK_INDEX) * TREND_PER_WEEK * (trend === 'surging' ? 1 : trend === 'fading' ? -1 : 0)
          const level = base * share * Math.exp(drift * (week.index - weeks.length / 2) + late) * calendar(week, category)
          const posts = int(level * lognormal(rng, 0.15))
          if (posts === 0) continue
          const profile = PLATFORM_PROFILE[platform]
          rows.push({
            week_start: week.start,
            week_end: week.end,
            category,
            topic_slug: topic.slug,
            topic_name: topic.name,
            topic_name_zh: topic.zh,
            platform,
            posts,
            engagement: int(posts * profile.viewsPerPost * profile.engagementRate * lognormal(rng, 0.2)),
            creators: int(posts * between(rng, 0.55, 0.9)),
          })
        }
      }
    }
  }
  return rows
}

// ---------------------------------------------------------------------------------------------
// Brands

/** Weeks of a brand's seeding campaigns: one to three bursts of two or three weeks. */
function campaignWeeks(rng: Rng, weekCount: number): Set<number> {
  const weeks = new Set<number>()
  const bursts = 1 + Math.floor(rng() * 3)
  for (let b = 0; b < bursts; b++) {
    const start = Math.floor(rng() * weekCount)
    const length = 2 + Math.floor(rng() * 2)
    for (let i = start; i < Math.min(weekCount, start + length); i++) weeks.add(i)
  }
  return weeks
}

function brandRows(weeks: readonly Week[]): Row[] {
  const listings: { category: SignalCategory; name: string; weight: number }[] = []
  for (const category of SIGNAL_CATEGORY_SLUGS) for (const name of BRANDS[category]) listings.push({ category, name, weight: 1 })
  for (const [, name, other] of CROSS_LISTED) listings.push({ category: other, name, weight: 0.4 })

  const rows: Row[] = []
  for (const { category, name, weight } of listings) {
    const slug = slugOf(name)
    const traits = rngFor('brand', slug)
    const base = 150 * lognormal(traits, 0.8) * weight
    const drift = between(traits, -0.02, 0.025)
    const sponsoredShare = between(traits, 0.04, 0.18)
    const campaigns = campaignWeeks(rngFor('brand-campaigns', slug, category), weeks.length)
    // Not every brand is on every platform.
    const platforms = PLATFORM_TOKENS.filter((p) => rngFor('brand-platform', slug, p)() < 0.85 || p === 'xiaohongshu')
    for (const platform of platforms) {
      const share = platformShare(category, platform) * between(traits, 0.7, 1.3)
      for (const week of weeks) {
        const rng = rngFor('brand', slug, category, platform, week.start)
        const campaign = campaigns.has(week.index)
        const level =
          base * share * Math.exp(drift * (week.index - weeks.length / 2)) * calendar(week, category) * (campaign ? between(rng, 2, 3) : 1)
        const mentions = int(level * lognormal(rng, 0.2))
        if (mentions === 0) continue
        const profile = PLATFORM_PROFILE[platform]
        const reach = int(mentions * profile.viewsPerPost * lognormal(rng, 0.3))
        rows.push({
          week_start: week.start,
          week_end: week.end,
          category,
          brand_slug: slug,
          brand_name: name,
          brand_name_zh: BRAND_ZH[name]!,
          platform,
          mentions,
          reach,
          engagement: int(reach * profile.engagementRate * lognormal(rng, 0.2)),
          seeding_creators: int(mentions * between(rng, 0.3, 0.6) * (campaign ? 1.4 : 1)),
          sponsored_posts: int(mentions * (campaign ? between(rng, 0.3, 0.5) : sponsoredShare)),
        })
      }
    }
  }
  return rows
}

// ---------------------------------------------------------------------------------------------
// Creators

const TIERS = [
  { band: 'mega', min: 1_000_000, max: 8_000_000, engagementRate: 0.025, count: 2 },
  { band: 'macro', min: 500_000, max: 1_000_000, engagementRate: 0.035, count: 4 },
  { band: 'mid', min: 100_000, max: 500_000, engagementRate: 0.045, count: 10 },
  { band: 'micro', min: 10_000, max: 100_000, engagementRate: 0.06, count: 12 },
  { band: 'nano', min: 2_000, max: 10_000, engagementRate: 0.08, count: 8 },
] as const

const bandOf = (followers: number) => (TIERS.find((t) => followers >= t.min) ?? TIERS[TIERS.length - 1]!).band

/** Share of a post's audience (followers) that sees it, per platform. */
const REACH_RATE: Readonly<Record<Platform, number>> = { xiaohongshu: 0.08, douyin: 0.25, wechat: 0.05 }

function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)]!
}

function creatorRows(weeks: readonly Week[]): Row[] {
  const rows: Row[] = []
  const handles = new Set<string>()
  for (const category of SIGNAL_CATEGORY_SLUGS) {
    let creatorIndex = 0
    for (const tier of TIERS) {
      for (let i = 0; i < tier.count; i++, creatorIndex++) {
        const traits = rngFor('creator', category, String(creatorIndex))
        let handle = `${pick(traits, HANDLE_PARTS.first)}_${category.split('-')[0]}_${pick(traits, HANDLE_PARTS.second)}`
        while (handles.has(handle)) handle += String(Math.floor(traits() * 10))
        handles.add(handle)
        const name = `${pick(traits, HANDLE_PARTS.zhFirst)}${pick(traits, HANDLE_PARTS.zhSecond)}${CATEGORY_NOUN_ZH[category]}${pick(traits, HANDLE_PARTS.zhSuffix)}`
        const platform = pick(
          traits,
          PLATFORM_TOKENS.flatMap((p) => Array.from({ length: Math.round(platformShare(category, p) * 10) }, () => p)),
        )
        let followers = between(traits, tier.min, tier.max)
        const weeklyGrowth = between(traits, -0.3, 0.8)
        const postsPerWeek = between(traits, 1, 6)
        const engagementRate = tier.engagementRate * between(traits, 0.6, 1.5)
        // About one creator in seven joins during the year; a few buy views in one or two weeks.
        const joins = traits() < 0.15 ? Math.floor(between(traits, 10, weeks.length - 4)) : 0
        const spikes = traits() < 0.06 ? new Set([Math.floor(between(traits, joins, weeks.length))]) : new Set<number>()
        for (const week of weeks) {
          if (week.index < joins) continue
          const rng = rngFor('creator', category, handle, week.start)
          const growthPct = weeklyGrowth + 0.6 * gaussian(rng)
          followers *= 1 + growthPct / 100
          const posts = int(postsPerWeek * lognormal(rng, 0.35) * Math.min(1.3, calendar(week, category)))
          if (posts === 0) continue
          const spike = spikes.has(week.index)
          const views = int(posts * followers * REACH_RATE[platform] * calendar(week, category) * lognormal(rng, 0.35) * (spike ? 6 : 1))
          rows.push({
            week_start: week.start,
            week_end: week.end,
            category,
            creator_handle: handle,
            creator_name: name,
            platform,
            follower_band: bandOf(followers),
            followers: int(followers),
            posts,
            engagement: int(views * clamp(engagementRate * lognormal(rng, 0.2) * (spike ? 0.2 : 1), 0.001, 0.3)),
            views,
            follower_growth_pct: round2(growthPct),
          })
        }
      }
    }
  }
  return rows
}

export function generateSignals(weeks: readonly Week[] = weekRange()) {
  return { creators: creatorRows(weeks), topics: topicRows(weeks), brands: brandRows(weeks) }
}
