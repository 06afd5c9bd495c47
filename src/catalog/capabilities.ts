import { t } from 'elysia'
import { Query } from './params'
import type { RouteSpec } from './types'

const base = { family: 'capabilities', kind: 'orchestrated', methods: ['GET', 'POST'] } as const
const Pending = t.Object({}, { additionalProperties: true, description: 'Defined when the route is implemented.' })
const Name = (description: string, example: string) => t.String({ minLength: 1, maxLength: 80, description, examples: [example] })

export const capabilityRoutes: RouteSpec[] = [
  {
    ...base,
    id: 'capabilities.visibility',
    path: '/v1/visibility/snapshot',
    priceUsd: '0.63',
    typicalWaitSeconds: 45,
    summary: 'Brand visibility snapshot',
    description: 'Orchestrates trends, sentiment and (when available) the weekly brand snapshot into summary, score, strengths, gaps, priority actions and sources.',
    query: Query({ brand_name: Name('Brand name.', 'Aurora Skin'), session: t.Optional(t.String({ maxLength: 64 })) }),
    data: Pending,
  },
  {
    ...base,
    id: 'capabilities.destination_demand',
    path: '/v1/destination-demand/snapshot',
    priceUsd: '0.20',
    typicalWaitSeconds: 15,
    summary: 'Destination demand snapshot',
    description: 'Orchestrates the flights summary and (when the destination maps to a supported market) spend trends into demand direction, signals, opportunities, risks and priority actions.',
    query: Query({ destination: Name('Destination city.', 'Tokyo'), session: t.Optional(t.String({ maxLength: 64 })) }),
    data: Pending,
  },
  {
    ...base,
    id: 'capabilities.kol_shortlist',
    path: '/v1/kol/shortlist',
    priceUsd: '0.45',
    typicalWaitSeconds: 35,
    summary: 'KOL shortlist for a brand',
    description: 'Creators, selection rationale, risks and next steps for a brand in a category.',
    query: Query({ brand_name: Name('Brand name.', 'Aurora Skin'), category: Name('Category.', 'beauty'), session: t.Optional(t.String({ maxLength: 64 })) }),
    data: Pending,
  },
]
