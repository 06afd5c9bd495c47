import { t } from 'elysia'
import { Limit, Query, Slug, WeekDate } from './params'
import type { RouteSpec } from './types'

const base = { family: 'signals', kind: 'dataset', methods: ['GET'], typicalWaitSeconds: 1 } as const
const Pending = t.Object({}, { additionalProperties: true, description: 'Defined when the route is implemented.' })
const Week = { week_start: t.Optional(WeekDate('Monday of the week, YYYY-MM-DD. Latest published week when omitted.')), week_end: t.Optional(WeekDate('Sunday of the week, YYYY-MM-DD.')) }
const Category = Slug('Category slug.', 'beauty')
const rankings = (what: string) => Query({ category: Category, rank_type: t.Optional(t.String({ minLength: 1, maxLength: 40 })), ...Week, limit: t.Optional(Limit(20, 100, what)) })

export const signalRoutes: RouteSpec[] = [
  { ...base, id: 'signals.creators.rankings', path: '/v1/signals/creators/rankings', priceUsd: '0.18', summary: 'Weekly creator rankings', description: 'Weekly creator rankings for a category and rank type.', query: rankings('creators'), data: Pending },
  { ...base, id: 'signals.topics.rankings', path: '/v1/signals/topics/rankings', priceUsd: '0.18', summary: 'Weekly topic rankings', description: 'Weekly topic rankings for a category and rank type.', query: rankings('topics'), data: Pending },
  { ...base, id: 'signals.brands.rankings', path: '/v1/signals/brands/rankings', priceUsd: '0.22', summary: 'Weekly brand rankings, one row per brand', description: 'Weekly brand rankings for a category and rank type, deduplicated to one row per brand.', query: rankings('brands'), data: Pending },
  {
    ...base,
    id: 'signals.brands.snapshot',
    path: '/v1/signals/brands/:brand_slug/snapshot',
    priceUsd: '0.40',
    summary: 'Derived weekly brand snapshot',
    description: 'Visibility score, contributing rank positions and freshness of a brand for a week.',
    params: t.Object({ brand_slug: Slug('Brand slug.', 'aurora-skin') }),
    query: Query({ category: t.Optional(Category), ...Week }),
    data: Pending,
  },
  {
    ...base,
    id: 'signals.categories.snapshot',
    path: '/v1/signals/categories/:category_slug/snapshot',
    priceUsd: '0.40',
    summary: 'Weekly category overview',
    description: 'Top creators, topics and brands of a category blended; latest release unless a week is requested.',
    params: t.Object({ category_slug: Category }),
    query: Query({ ...Week }),
    data: Pending,
  },
]
