/** The six /v1/china/* routes by catalog id. Parameters are checked before payment (free 400s). */
import {
  type BudgetBand,
  type CreatorTier,
  type Platform,
  PLATFORM_TOKENS,
  PLATFORMS,
  TIMEFRAME_DEFAULT,
  TIMEFRAME_MAX_DAYS,
  TIMEFRAME_MIN_DAYS,
} from '../catalog'
import { type HandlerMap, invalidParameter, type RouteHandler, type RouteInput } from '../core'
import { ask } from './names/asked'
import { kolReport } from './reports/kol-report'
import { requireCreators } from './providers/live-setup'
import { cityName } from './reports/kols'
import { sentimentReport } from './reports/sentiment-report'
import { evidenceAnswer, type IntelligenceServices } from './reports/evidence-answer'
import { trendReport } from './reports/trend-report'

const ALIASES = new Map<string, Platform>(
  PLATFORM_TOKENS.flatMap((p) => [[p, p], ...PLATFORMS[p].aliases.map((a): [string, Platform] => [a, p])]),
)

/** red, xhs -> xiaohongshu; weixin -> wechat (the schema already refused anything else). */
export function platformOf(value: unknown): Platform | null {
  return value === undefined ? null : (ALIASES.get(String(value).toLowerCase()) ?? null)
}

/** Free text as the routes use it: NFKC, trimmed, inner white space collapsed; it must say something. */
export function textOf(value: unknown, parameter: string): string {
  const text = String(value).normalize('NFKC').trim().replace(/\s+/g, ' ')
  if (!/[\p{L}\p{N}]/u.test(text)) throw invalidParameter(parameter, 'must contain at least one letter or digit')
  return text
}

export function daysOf(value: unknown): { days: number; timeframe: string } {
  const timeframe = String(value ?? TIMEFRAME_DEFAULT)
  const days = Number(timeframe.slice(0, -1))
  if (!/^\d+d$/.test(timeframe) || days < TIMEFRAME_MIN_DAYS || days > TIMEFRAME_MAX_DAYS) {
    throw invalidParameter('timeframe', `must be <days>d with ${TIMEFRAME_MIN_DAYS} to ${TIMEFRAME_MAX_DAYS} days, e.g. 30d`)
  }
  return { days, timeframe: `${days}d` }
}

function trends(services: IntelligenceServices, routeId: string, forced?: Platform): RouteHandler {
  return {
    prepare({ query }: RouteInput) {
      const asked = ask(services.entities(), textOf(query.keyword, 'keyword'), 'keyword')
      const platform = forced ?? platformOf(query.platform) ?? 'all'
      const { days, timeframe } = daysOf(query.timeframe)
      return evidenceAnswer(
        services,
        'trends',
        routeId,
        `${asked.key}|${platform}|${days}`,
        { keyword: asked.input, resolved: asked.resolved },
        (src, spend) =>
          trendReport(
            src,
            {
              subject: asked.name.en,
              asked,
              platform,
              days,
              timeframe,
              weekly: services.weekly?.(asked.key, platform === 'all' ? null : platform) ?? null,
            },
            spend,
          ),
      )
    },
  }
}

export function chinaHandlers(services: IntelligenceServices): HandlerMap {
  return {
    'china.trends': trends(services, 'china.trends'),
    ...Object.fromEntries(PLATFORM_TOKENS.map((p) => [`china.trends.${p}`, trends(services, `china.trends.${p}`, p)])),

    'china.sentiment': {
      prepare({ query }: RouteInput) {
        const asked = ask(services.entities(), textOf(query.entity, 'entity'), 'entity')
        const platform = platformOf(query.platform) ?? 'all'
        const { days, timeframe } = daysOf(query.timeframe)
        const industry = query.industry === undefined ? null : textOf(query.industry, 'industry')
        const lang = query.lang === 'zh' ? 'zh' : 'en'
        const key = `${asked.key}|${platform}|${days}|${industry?.toLowerCase() ?? ''}|${lang}`
        return evidenceAnswer(
          services,
          'sentiment',
          'china.sentiment',
          key,
          { entity: asked.input, resolved: asked.resolved },
          (src, spend) => sentimentReport(src, { entity: asked.name[lang], asked, platform, days, timeframe, industry, lang }, spend),
        )
      },
    },

    'china.kols': {
      prepare({ query }: RouteInput) {
        const entities = services.entities()
        const asked = ask(entities, textOf(query.category, 'category'), 'category')
        const platform = platformOf(query.platform)
        requireCreators(services.sources(), platform)
        const categorySlug = asked.resolved.kind === 'category' ? asked.resolved.id!.slice('category:'.length) : null
        const city = query.city === undefined ? null : cityName(textOf(query.city, 'city'))
        const tier = (query.tier as CreatorTier | undefined) ?? null
        const budget = (query.budget_band as BudgetBand | undefined) ?? null
        const industry = query.industry === undefined ? null : textOf(query.industry, 'industry')
        const echo = { platform, city, tier, budget_band: budget, industry }
        const key = `${asked.key}|${JSON.stringify(echo).toLowerCase()}`
        return evidenceAnswer(services, 'kols', 'china.kols', key, { category: asked.input, resolved: asked.resolved }, (src, spend) =>
          kolReport(
            src,
            {
              category: asked.name.en,
              asked,
              categorySlug,
              weeklyTop: categorySlug && services.weeklyTopCreators ? services.weeklyTopCreators(categorySlug) : null,
              echo,
              filters: {
                platform,
                city,
                tier,
                budget_band: budget,
                industryCategory: industry === null ? null : (entities.category(industry) ?? null),
              },
            },
            spend,
          ),
        )
      },
    },
  }
}
