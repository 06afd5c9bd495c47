/**
 * Who writes the sample evidence posts: the weekly ranked creators of a category and platform (from the
 * signal_creators rows), or long-tail accounts the rankings do not cover.
 */
import type { SignalCategory } from '../../src/catalog/signal-categories'
import type { Platform } from '../../src/catalog/platforms'
import { ORIGIN_CITIES } from '../../src/data/sample-geography'
import { pick, weighted } from './evidence-draws'
import { LONG_TAIL_HANDLES } from './evidence-vocabulary'
import type { Row } from './parquet'
import { between, rngFor, type Rng } from './random'

/** Share of native posts written by a ranked creator of the category (the rest: long-tail accounts). */
const RANKED_SHARE = 0.55
const LONG_TAIL_PER_POOL = 30
const LIKE_RATE: Record<Platform, number> = { xiaohongshu: 0.05, douyin: 0.04, wechat: 0.012 }

interface RankedCreator {
  handle: string
  followers: number
  posts: number
  viewsPerPost: number
  engagementRate: number
}

export interface Author {
  handle: string
  followers: number
  city: string
  /** Views and engagement rate of one post, before noise. */
  views: (rng: Rng) => number
  rate: number
  /** Buys likes now and then (long tail only): spikes with few comments. */
  inflated: boolean
}

const GATEWAYS = ORIGIN_CITIES.filter((c) => c.tier <= 2).map((c) => [c.name, c.tier === 1 ? 5 : 1] as const)
const cityOf = (handle: string) => weighted(rngFor('creator-city', handle), GATEWAYS)

/** Ranked creators by `<week_start>|<category>|<platform>`, from the signal_creators rows. */
function rankedCreators(rows: readonly Row[]): Map<string, RankedCreator[]> {
  const out = new Map<string, RankedCreator[]>()
  for (const row of rows) {
    const posts = Number(row.posts)
    if (posts === 0 || Number(row.views) === 0) continue
    const key = `${row.week_start}|${row.category}|${row.platform}`
    const list = out.get(key) ?? []
    list.push({
      handle: String(row.creator_handle),
      followers: Number(row.followers),
      posts,
      viewsPerPost: Number(row.views) / posts,
      engagementRate: Number(row.engagement) / Number(row.views),
    })
    out.set(key, list)
  }
  return out
}

/** Unranked accounts of a category and platform: KOCs and small creators. */
function longTail(category: SignalCategory, platform: Platform): Author[] {
  return Array.from({ length: LONG_TAIL_PER_POOL }, (_, index) => {
    const rng = rngFor('long-tail', category, platform, String(index))
    const handle = `${pick(rng, LONG_TAIL_HANDLES.first)}_${pick(rng, LONG_TAIL_HANDLES.second)}_${1000 + Math.floor(rng() * 9000)}`
    const followers = Math.round(Math.exp(between(rng, Math.log(200), Math.log(60_000))))
    return {
      handle,
      followers,
      city: cityOf(handle),
      views: (r: Rng) => Math.max(followers * between(r, 0.03, 0.25), between(r, 150, 2500)),
      rate: LIKE_RATE[platform] * between(rng, 0.5, 1.6) * 1.2,
      inflated: rng() < 0.1,
    }
  })
}

/** Picks the author of a native post: a ranked creator (RANKED_SHARE of posts) or a long-tail account. */
export class Authors {
  private readonly ranked: Map<string, RankedCreator[]>
  private readonly tails = new Map<string, Author[]>()

  constructor(creatorRows: readonly Row[]) {
    this.ranked = rankedCreators(creatorRows)
  }

  pick(rng: Rng, week: string, category: SignalCategory, platform: Platform): Author {
    const ranked = this.ranked.get(`${week}|${category}|${platform}`)
    if (ranked?.length && rng() < RANKED_SHARE) {
      const creator = weighted(
        rng,
        ranked.map((r) => [r, r.posts] as const),
      )
      return {
        handle: creator.handle,
        followers: creator.followers,
        city: cityOf(creator.handle),
        views: (r) => creator.viewsPerPost * Math.exp(0.3 * (r() + r() + r() - 1.5)),
        rate: creator.engagementRate,
        inflated: false,
      }
    }
    const key = `${category}|${platform}`
    if (!this.tails.has(key)) this.tails.set(key, longTail(category, platform))
    return pick(rng, this.tails.get(key)!)
  }
}
