/**
 * Documented rules of the China intelligence routes: evidence thresholds, momentum and confidence
 * formulas, creator tiers and cost bands. The handlers compute with these constants and the catalog
 * descriptions and README interpolate them, so a rule lives in exactly one place.
 */
import type { Platform } from './platforms'

/** Timeframe bounds, in days (`<n>d`). */
export const TIMEFRAME_MIN_DAYS = 1
export const TIMEFRAME_MAX_DAYS = 365
export const TIMEFRAME_DEFAULT = '30d'

/**
 * "Too thin": a lane's native evidence over the whole look-back (recent + prior window) with fewer items
 * or fewer distinct authors than this gets broadened to web evidence.
 */
export const THIN_EVIDENCE = { items: 15, authors: 4 } as const

/** Xiaohongshu answers from native evidence only when it is at least this strong; otherwise it is a proxy read. */
export const STRONG_NATIVE_EVIDENCE = { items: 30, authors: 8 } as const

/**
 * Relevance of an evidence item to what was asked (src/intelligence/analysis/relevance.ts): `subject` when a
 * name is in the title, a hashtag or the first `openingChars` characters of the text, `mention` when
 * it is only mentioned further on; items that do not name it at all are not evidence.
 */
export const RELEVANCE = { subject: 1, mention: 0.5, openingChars: 80 } as const

/**
 * Sentiment and themes read at most this many of an answer's items, evenly spaced through them (in
 * publication order): text analysis is the costly part, and a year of a category holds tens of thousands
 * of posts. Counts, momentum and confidence still use every item. Answers say how many were analysed.
 */
export const TEXT_ANALYSIS_MAX_ITEMS = 2_000

/**
 * A live KOL request looks up the follower counts search did not carry for at most this many creators a
 * platform (those with the most posts), each a billed request to the native provider; counts are kept a day.
 */
export const CREATOR_LOOKUPS = 20

/**
 * Free text with a known name inside it (`Aurora Skin serum`) is answered only with at least this many
 * items of its own; fewer is a free 404 that names the known name.
 */
export const NEAR_NAME_MIN_ITEMS = 15

/** Results asked of a live search provider per call, and the most read from an answer of our own search protocol (the rest are ignored). */
export const LIVE_RESULTS_PER_CALL = 50

/**
 * The most results kept of one vendor page (SearXNG, Bocha, TikHub). A page is paid for and a metasearch
 * page merges every engine's results (one searx page held 78): all are read, within the answer's byte
 * limit. Past this many dated results, the page is sampled evenly over time, so a cut never drops the
 * older window of a comparison.
 */
export const VENDOR_PAGE_RESULTS_MAX = 500

/**
 * What one live provider answer may cost. A body is read up to its byte limit and the call fails as
 * `bad_response` past it (a Content-Length above it fails before reading). Titles, texts and other
 * strings of a search result are cut to their lengths before any matching or scoring. A full answer at
 * these lengths is ~0.6 MB of JSON; the byte limit leaves room for longer texts (cut) and fields the
 * protocol ignores, and bounds the part of the work that cannot be split: decoding and parsing one
 * answer (~3-6 ms a MB; in test/intelligence/providers/provider-stall.test.ts the worst event-loop stall was 35 ms
 * with an 8 MiB limit, 30 ms with 4 MiB, 23 ms with 2 MiB).
 */
export const PROVIDER_LIMITS = {
  searchResponseBytes: 4 * 1024 * 1024,
  /** A model answer is a few themes and angles: a few KB. */
  summaryResponseBytes: 1024 * 1024,
  /**
   * Nesting and object keys of an answer's JSON, checked before it is parsed: deeper or wider JSON costs
   * JSON.parse hundreds of ms (a real TikHub page of 65 KB nests 10 levels and has 1,307 keys; 4 MiB of
   * such results, ~85,000).
   */
  jsonDepth: 64,
  jsonKeys: 200_000,
  titleChars: 200,
  textChars: 4_000,
  /** id, url, author, city and the other strings of a result. */
  fieldChars: 2_048,
} as const

/** Momentum: score = VOLUME_WEIGHT * ln(volume ratio) + ENGAGEMENT_WEIGHT * ln(engagement ratio), recent vs prior window. */
export const MOMENTUM = {
  volumeWeight: 0.6,
  engagementWeight: 0.4,
  /** rising at or above +threshold, falling at or below -threshold, otherwise stable. */
  threshold: 0.15,
  /** Fewer items than this in both windows together: insufficient_evidence. */
  minItems: 8,
  /**
   * Noise guard: a direction also needs the volume change to stand out from count noise, |ln ratio| of
   * items >= minZ x sqrt(1/(recent+1) + 1/(prior+1)) (Poisson counts); otherwise stable, and the headline
   * says a volume change past the threshold is within count noise rather than showing it as a bare figure.
   */
  minZ: 2,
  /**
   * Honest windows: each window must be covered for at least this share of its days by the evidence
   * counted (a corpus that starts inside the prior window, a provider whose results do not reach back);
   * counts are compared per covered day.
   */
  minCoveredShare: 0.5,
} as const

/**
 * The stronger reading decides a trend's direction: where the weekly ranking of the same topic or brand
 * covers both windows with at least this many times as many posts (or mentions) as the evidence items
 * read for the answer, and reads otherwise, its direction is the answer's (`summary.momentum_source`).
 */
export const WEEKLY_DECIDES_RATIO = 5

export const MOMENTUM_VALUES = ['rising', 'stable', 'falling', 'insufficient_evidence'] as const
export type MomentumValue = (typeof MOMENTUM_VALUES)[number]

/**
 * Confidence in [0, 1] = (w.volume * volume + w.diversity * diversity + w.recency * recency)
 *                        * mean relevance of the items (RELEVANCE: 1 about the subject, 0.5 a passing mention)
 *                        * (proxyFloor + (1 - proxyFloor) * native_share)
 *                        * (coverageFloor + (1 - coverageFloor) * coverage)
 *   volume    = min(1, ln(1 + items) / ln(1 + fullVolumeItems))
 *   diversity = (min(1, source kinds / fullKinds) + min(1, authors / fullAuthors)) / 2
 *   recency   = max(0, 1 - age of the newest item in days / max(minRecencyDays, timeframe days))
 */
export const CONFIDENCE = {
  weights: { volume: 0.5, diversity: 0.3, recency: 0.2 },
  fullVolumeItems: 100,
  fullKinds: 3,
  fullAuthors: 15,
  minRecencyDays: 7,
  /** Proxy-only evidence keeps this share of the confidence native evidence would earn. */
  proxyFloor: 0.6,
  /**
   * Evidence that covers none of the asked days keeps this share (it still says something about the days
   * it covers); full coverage keeps all. Coverage: the share of the asked windows' days the evidence
   * covers (live providers whose results do not reach back; the sample corpus before it starts).
   */
  coverageFloor: 0.5,
  /**
   * Generated sample evidence keeps this share: however much of it there is, it is no observation of the
   * world, so no answer on it reaches certainty (and no wrapper says proceed or amplify at 0.95 on it).
   */
  sampleShare: 0.9,
} as const

/** Sentiment of one item: score at or above +threshold positive, at or below -threshold negative. */
export const SENTIMENT_ITEM_THRESHOLD = 0.5
/** Overall label from the net score (-100..100): positive/negative beyond ±this; mixed when both sides reach MIXED_SHARE. */
export const SENTIMENT_NET_THRESHOLD = 20
export const SENTIMENT_MIXED_SHARE = 0.25

/** Creator tiers by followers (lower bound inclusive), largest first. */
export const CREATOR_TIERS = [
  { tier: 'mega', minFollowers: 5_000_000 },
  { tier: 'macro', minFollowers: 1_000_000 },
  { tier: 'mid', minFollowers: 100_000 },
  { tier: 'micro', minFollowers: 10_000 },
  { tier: 'nano', minFollowers: 1_000 },
  { tier: 'koc', minFollowers: 0 },
] as const
export type CreatorTier = (typeof CREATOR_TIERS)[number]['tier']
export const TIER_VALUES = CREATOR_TIERS.map((t) => t.tier) as unknown as readonly [CreatorTier, ...CreatorTier[]]

/** Estimated CNY per sponsored post = max(floor, followers * rate of the platform); shown as a ±spread range. */
export const COST_PER_FOLLOWER_CNY: Readonly<Record<Platform, number>> = { xiaohongshu: 0.1, douyin: 0.06, wechat: 0.12 }
export const COST_FLOOR_CNY = 300
export const COST_SPREAD = 0.3
/** Budget bands by estimated CNY per post (upper bound exclusive). */
export const BUDGET_BANDS = [
  { band: 'low', maxCny: 5_000 },
  { band: 'medium', maxCny: 30_000 },
  { band: 'high', maxCny: 150_000 },
  { band: 'premium', maxCny: Number.POSITIVE_INFINITY },
] as const
export type BudgetBand = (typeof BUDGET_BANDS)[number]['band']
export const BUDGET_VALUES = BUDGET_BANDS.map((b) => b.band) as unknown as readonly [BudgetBand, ...BudgetBand[]]

/** KOL scoring. */
export const KOL = {
  lookbackDays: 90,
  shortlistSize: 10,
  /**
   * raw fit = relevance * w.relevance + quality * w.quality + activity * w.activity + reach * w.reach (+ industryBonus), capped at 1;
   * reach = ln(followers / reachFrom) / ln(reachFull / reachFrom), within [0, 1]: a shortlist without a tier filter should
   * not leave out the category's most influential creators for small accounts with a high rate;
   * fit = (n * raw + priorPosts * prior) / (n + priorPosts), n = the creator's posts in the look-back, so a creator
   * with one or two posts is pulled toward the neutral prior instead of reaching a perfect score on one post.
   */
  fitWeights: { relevance: 0.35, quality: 0.3, activity: 0.15, reach: 0.2 },
  reachFrom: 1_000,
  reachFull: 5_000_000,
  priorPosts: 3,
  prior: 0.5,
  /** Matching posts in the look-back that count as fully active. */
  fullActivityPosts: 6,
  industryBonus: 0.1,
  /** A post with more than this multiple of the creator's median engagement is a spike (needs 4+ posts). */
  spikeFactor: 5,
  /** A post with at least 50 likes and fewer comments per like than this looks bought. */
  minCommentRatio: 0.015,
  /** A median engagement rate above this multiple of the tier median is an outlier (bought, or a tiny loyal audience). */
  outlierFactor: 3,
  /**
   * Engagement quality = min(1, rate vs tier median / 2) - flagPenalty per flag, floored at 0; an outlier's rate
   * earns nothing, so it starts from the neutral 0.5 used without peers.
   */
  flagPenalty: 0.3,
  /** Peers of the same platform and tier needed for a tier median; else the tier across platforms. */
  minPeers: 5,
} as const

/** Engagement anomalies a shortlisted creator can be flagged with (rules in KOL). */
export const KOL_FLAGS = ['engagement_spike', 'low_comment_ratio', 'engagement_rate_outlier'] as const
