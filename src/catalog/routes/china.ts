import { Type as t } from '@sinclair/typebox'
import { KolsData, SentimentData, TrendsData } from './china-data'
import {
  BUDGET_VALUES,
  CONFIDENCE,
  KOL,
  MOMENTUM,
  NEAR_NAME_MIN_ITEMS,
  TIER_VALUES,
  TIMEFRAME_DEFAULT,
  TIMEFRAME_MAX_DAYS,
  TIMEFRAME_MIN_DAYS,
  WEEKLY_DECIDES_RATIO,
} from '../evidence-rules'
import { Enum, Query } from './params'
import { PLATFORM_TOKENS, PLATFORM_VALUES, PLATFORMS } from '../platforms'
import { SIGNAL_CATEGORY_SLUGS } from '../signal-categories'
import type { RouteSpec } from '../types'

const Platform = Enum(
  PLATFORM_VALUES,
  'Platform lane: xiaohongshu (aliases red, xhs), douyin, wechat (alias weixin). All three lanes merged when omitted.',
)
// 1-365: one to three digits, capped at 365 (the handler checks the bound again for a clear message).
const Timeframe = t.String({
  pattern: '^([1-9]|[1-9]\\d|[12]\\d\\d|3[0-5]\\d|36[0-5])d$',
  default: TIMEFRAME_DEFAULT,
  description: `Look-back window as <days>d, ${TIMEFRAME_MIN_DAYS}d-${TIMEFRAME_MAX_DAYS}d (default ${TIMEFRAME_DEFAULT}).`,
  examples: ['30d'],
})
const Keyword = t.String({
  minLength: 1,
  maxLength: 100,
  description:
    'Keyword, entity or category, Chinese or English: a weekly category, topic, brand or creator, a destination or country (name, or code in capitals), or a glossary term resolves to that entity and is searched by all its names (Tokyo, 东京 and TYO give the same answer; `data.resolved` says what was resolved). Case, full width, accents, punctuation, & / and / +, spaces and names run together do not matter; intent words around a name (旅游, 攻略, 口碑, 测评, travel, review, KOLs, ...) are taken off (`resolved.stripped`); a clear slip in a long name is corrected (`resolved.corrected_from`). Anything else is free text: every word must occur as a whole word. Only items about it count; none is a free 404. A near miss of a known name is a free 404 whose `error.details.did_you_mean` lists what it may mean; free text with a known name in it is answered only with at least ' +
    NEAR_NAME_MIN_ITEMS +
    ' items of its own.',
  examples: ['露营'],
})
const Free = (description: string, example: string) => t.String({ minLength: 1, maxLength: 60, description, examples: [example] })

/** Live providers can take 30-45 s (spec): the payment window covers that plus the gate's margin. */
const base = { family: 'china', kind: 'evidence', methods: ['GET'], typicalWaitSeconds: 30 } as const

const ROLE_SHAPING = {
  'social-content': 'social-content query shaping, proxy evidence posture',
  'short-video': 'short-video query shaping',
  'messaging-article': 'article-oriented query shaping',
} as const

const TRENDS =
  `Momentum compares the recent window (the timeframe) with the prior window of the same length: score = ${MOMENTUM.volumeWeight} x ln(volume ratio) + ${MOMENTUM.engagementWeight} x ln(damped engagement ratio); ` +
  `rising at >= ${MOMENTUM.threshold}, falling at <= -${MOMENTUM.threshold} (each only when the volume change exceeds ${MOMENTUM.minZ}x its count noise), else stable. Confidence = (${CONFIDENCE.weights.volume} volume + ${CONFIDENCE.weights.diversity} diversity + ${CONFIDENCE.weights.recency} recency) x (${CONFIDENCE.proxyFloor} + ${1 - CONFIDENCE.proxyFloor} x native share) x mean relevance of the items x (${CONFIDENCE.coverageFloor} + ${1 - CONFIDENCE.coverageFloor} x coverage) x ${CONFIDENCE.sampleShare} on the sample corpus. A topic or brand of the weekly signals is read beside its weekly ranking over the same whole weeks (\`weekly_ranking\`), whose direction is the answer's where it counts at least ${WEEKLY_DECIDES_RATIO}x the evidence items and reads otherwise (\`summary.momentum_source\`).`

export const chinaRoutes: RouteSpec[] = [
  {
    ...base,
    id: 'china.trends',
    path: '/v1/china/trends',
    priceUsd: '0.08',
    summary: 'Trend momentum, related keywords, themes and content angles',
    description: `Trend momentum and confidence tied to evidence strength, themes, related keywords, content angles and an evidence summary for a keyword on a platform lane (all three when omitted). ${TRENDS}`,
    query: Query({ keyword: Keyword, platform: t.Optional(Platform), timeframe: t.Optional(Timeframe) }),
    data: TrendsData,
  },
  ...PLATFORM_TOKENS.map(
    (platform): RouteSpec => ({
      ...base,
      id: `china.trends.${platform}`,
      path: `/v1/china/trends/${platform}`,
      priceUsd: '0.08',
      summary: `Trend discovery with the ${platform} lane forced`,
      description: `Same as /v1/china/trends with the retrieval lane forced to ${platform} (${ROLE_SHAPING[PLATFORMS[platform].role]}).`,
      query: Query({ keyword: Keyword, timeframe: t.Optional(Timeframe) }),
      data: TrendsData,
    }),
  ),
  {
    ...base,
    id: 'china.sentiment',
    path: '/v1/china/sentiment',
    priceUsd: '0.15',
    summary: 'Localized narrative and sentiment framing',
    description:
      'Sentiment distribution, net score and narrative frames with example evidence for a brand, destination, product or topic, phrased in English or Chinese. Chinese and English text is scored with a lexicon over Intl.Segmenter word segmentation (negation, degree words and contrast handled).',
    query: Query({
      entity: Keyword,
      platform: t.Optional(Platform),
      timeframe: t.Optional(Timeframe),
      industry: t.Optional(Free('Industry; travel, outdoor, fashion and beauty (or their Chinese names) add industry frames.', 'travel')),
      lang: t.Optional(Enum(['en', 'zh'] as const, 'Language of the narrative text (default en).')),
    }),
    data: SentimentData,
  },
  {
    ...base,
    id: 'china.kols',
    path: '/v1/china/kols',
    priceUsd: '0.45',
    summary: 'KOL and KOC shortlists with fit scoring',
    description: `Up to ${KOL.shortlistSize} creators posting about the category in the last ${KOL.lookbackDays} days, with fit scores, engagement-quality estimates (engagement rate vs tier median, spike, comment-ratio and rate-outlier flags), estimated cost bands and recommendation summaries; filters are echoed.`,
    query: Query({
      category: Free(
        `Category: one of the weekly signal categories (${SIGNAL_CATEGORY_SLUGS.join(', ')}), their English or Chinese names and synonyms (美妆, skincare), or any keyword (topic, brand, place, term) the creators post about.`,
        'beauty',
      ),
      platform: t.Optional(Platform),
      city: t.Optional(Free('Creator home city, English or Chinese (Shanghai, 上海).', 'Shanghai')),
      tier: t.Optional(
        Enum(TIER_VALUES, 'Creator tier by followers: mega >= 5M, macro >= 1M, mid >= 100k, micro >= 10k, nano >= 1k, koc below.'),
      ),
      budget_band: t.Optional(
        Enum(BUDGET_VALUES, 'Budget band per sponsored post (estimated CNY): low < 5k, medium < 30k, high < 150k, premium above.'),
      ),
      industry: t.Optional(
        Free(
          'Industry of the brand, a weekly category or its name (beauty, 美妆); creators with most of their posts in it get a fit bonus (\`fit.industry_match\`; on the sample corpus the category asked for when no industry is given).',
          'beauty',
        ),
      ),
    }),
    data: KolsData,
  },
]
