import { RANK_TYPES, type RankEntity, SIGNAL_CATEGORY_SLUGS, signalCategory, SIGNALS_FRESHNESS } from '../catalog'
import { cachedAnswer } from '../data'
import { ApiError, type HandlerMap, invalidParameter, notFound, type RouteHandler, type RouteInput } from '../core'
import { ranking } from './rankings'
import type { SignalServices } from './signal-services'
import { brandSnapshot, categorySnapshot } from './snapshot-answers'
import type { SignalsSnapshot } from './index-signals'
import { freshness, resolveWeek } from './weeks'

/** The weekly category a parameter names: slug, English or Chinese name or synonym (the entity resolver's); else a free 400. */
function categoryOf(snap: SignalsSnapshot, value: string, parameter: string) {
  const slug = snap.entities.category(value)
  if (!slug)
    throw invalidParameter(
      parameter,
      `"${value}" is not a weekly signals category (slugs, their English or Chinese names and synonyms are accepted)`,
      SIGNAL_CATEGORY_SLUGS,
    )
  return signalCategory(slug)!
}

function rankingHandler(services: SignalServices, entity: RankEntity, routeId: string): RouteHandler {
  const defaultType = Object.keys(RANK_TYPES[entity])[0]!
  return {
    prepare({ query }: RouteInput) {
      const snap = services.snapshot()
      const category = categoryOf(snap, String(query.category), 'category')
      const rankType = (query.rank_type as string | undefined) ?? defaultType
      const dataset = entity === 'creators' ? snap.creators : entity === 'topics' ? snap.topics : snap.brands
      const week = resolveWeek(dataset.periods, query)
      const limit = Number(query.limit ?? 20)
      return cachedAnswer(services, dataset, routeId, `${category.slug}|${rankType}|${week.start}|${limit}`, async () => {
        const { rows, total } = await ranking(services, snap, entity, category.slug, rankType, week.start)
        return {
          category: category.slug,
          category_name: category.name,
          rank_type: rankType,
          rank_type_description: RANK_TYPES[entity][rankType as keyof (typeof RANK_TYPES)[typeof entity]],
          week_start: week.start,
          week_end: week.end,
          total_ranked: total,
          rows: rows.slice(0, limit),
          freshness: SIGNALS_FRESHNESS,
        }
      })
    },
  }
}

export function signalHandlers(services: SignalServices): HandlerMap {
  return {
    'signals.creators.rankings': rankingHandler(services, 'creators', 'signals.creators.rankings'),
    'signals.topics.rankings': rankingHandler(services, 'topics', 'signals.topics.rankings'),
    'signals.brands.rankings': rankingHandler(services, 'brands', 'signals.brands.rankings'),

    'signals.brands.snapshot': {
      prepare({ query, params }: RouteInput) {
        const snap = services.snapshot()
        const slug = params.brand_slug!
        const brand = snap.brandNames.get(slug)
        if (!brand) throw notFound('brand', slug, 'brand_slug')
        const week = resolveWeek(snap.brands.periods, query)
        const category = query.category === undefined ? brand.primaryCategory : categoryOf(snap, String(query.category), 'category').slug
        if (!snap.brandWeeks.has(`${slug}|${category}|${week.start}`)) {
          throw new ApiError('not_found', `${brand.name} has no ${category} signals in the week ${week.start} to ${week.end}.`, {
            parameter: query.category !== undefined ? 'category' : 'week_start',
            value: query.category ?? week.start,
          })
        }
        return cachedAnswer(services, snap.brands, 'signals.brands.snapshot', `${slug}|${category}|${week.start}`, async () => ({
          ...(await brandSnapshot(services, snap, slug, brand.name, category, week)),
          freshness: SIGNALS_FRESHNESS,
          freshness_detail: freshness(snap.brands.periods, week.start),
        }))
      },
    },

    'signals.categories.snapshot': {
      prepare({ query, params }: RouteInput) {
        const snap = services.snapshot()
        const category = snap.entities.category(params.category_slug!)
          ? categoryOf(snap, params.category_slug!, 'category_slug')
          : undefined
        if (!category) throw notFound('category', params.category_slug!, 'category_slug', SIGNAL_CATEGORY_SLUGS)
        const week = resolveWeek(snap.weeks, query)
        return cachedAnswer(
          services,
          [snap.creators, snap.topics, snap.brands],
          'signals.categories.snapshot',
          `${category.slug}|${week.start}`,
          async () => ({
            ...(await categorySnapshot(services, snap, category, week)),
            freshness: SIGNALS_FRESHNESS,
            freshness_detail: freshness(snap.weeks, week.start),
          }),
        )
      },
    },
  }
}
