import { t } from 'elysia'
import { Enum, Query } from './params'
import { PLATFORM_TOKENS, PLATFORM_VALUES, PLATFORMS } from './platforms'
import type { RouteSpec } from './types'

const Platform = Enum(PLATFORM_VALUES, 'Platform lane: xiaohongshu (aliases red, xhs), douyin, wechat (alias weixin).')
const Timeframe = t.String({ pattern: '^([1-9]|[1-9]\\d|[1-3]\\d\\d)d$', default: '30d', description: 'Look-back window as <days>d, 1d-365d (default 30d).', examples: ['30d'] })
const Keyword = t.String({ minLength: 1, maxLength: 100, description: 'Keyword, entity or category, Chinese or English.', examples: ['露营'] })

const base = { family: 'china', kind: 'evidence', methods: ['GET'], typicalWaitSeconds: 30 } as const

/** Handlers arrive with the intelligence issue; the shape of `data` is refined there. */
const Pending = t.Object({}, { additionalProperties: true, description: 'Defined when the route is implemented.' })

const ROLE_SHAPING = { 'social-content': 'social-content query shaping, proxy evidence posture', 'short-video': 'short-video query shaping', 'messaging-article': 'article-oriented query shaping' } as const

export const chinaRoutes: RouteSpec[] = [
  {
    ...base,
    id: 'china.trends',
    path: '/v1/china/trends',
    priceUsd: '0.08',
    summary: 'Trend momentum, related keywords, themes and content angles',
    description: 'Trend momentum and confidence tied to evidence strength, themes, related keywords and content angles for a keyword on a platform lane.',
    query: Query({ keyword: Keyword, platform: t.Optional(Platform), timeframe: t.Optional(Timeframe) }),
    data: Pending,
  },
  ...PLATFORM_TOKENS.map(
    (p): RouteSpec => ({
      ...base,
      id: `china.trends.${p}`,
      path: `/v1/china/trends/${p}`,
      priceUsd: '0.08',
      summary: `Trend discovery with the ${p} lane forced`,
      description: `Same as /v1/china/trends with the retrieval lane forced to ${p} (${ROLE_SHAPING[PLATFORMS[p].role]}).`,
      query: Query({ keyword: Keyword, timeframe: t.Optional(Timeframe) }),
      data: Pending,
    }),
  ),
  {
    ...base,
    id: 'china.sentiment',
    path: '/v1/china/sentiment',
    priceUsd: '0.15',
    summary: 'Localized narrative and sentiment framing',
    description: 'Sentiment distribution, net score and narrative frames for a brand, destination, product or topic.',
    query: Query({
      entity: Keyword,
      platform: t.Optional(Platform),
      timeframe: t.Optional(Timeframe),
      industry: t.Optional(t.String({ minLength: 1, maxLength: 60 })),
      lang: t.Optional(Enum(['en', 'zh'] as const, 'Language of the narrative text (default en).')),
    }),
    data: Pending,
  },
  {
    ...base,
    id: 'china.kols',
    path: '/v1/china/kols',
    priceUsd: '0.45',
    summary: 'KOL and KOC shortlists with fit scoring',
    description: 'Creator shortlist with fit scores, engagement-quality estimates and recommendation summaries.',
    query: Query({
      category: t.String({ minLength: 1, maxLength: 60, examples: ['beauty'] }),
      platform: t.Optional(Platform),
      city: t.Optional(t.String({ minLength: 1, maxLength: 60 })),
      tier: t.Optional(Enum(['mega', 'macro', 'mid', 'micro', 'nano', 'koc'] as const, 'Creator tier by followers.')),
      budget_band: t.Optional(Enum(['low', 'medium', 'high', 'premium'] as const, 'Budget band per creator post.')),
      industry: t.Optional(t.String({ minLength: 1, maxLength: 60 })),
    }),
    data: Pending,
  },
]
