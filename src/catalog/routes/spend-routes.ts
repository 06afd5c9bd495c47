import { Type as t } from '@sinclair/typebox'
import { DataQuality, Direction, monthsRoute, Pct } from './data-quality'
import { Limit, Month, PlaceName, Query, Enum } from './params'
import { MonthValue } from '../table'
import type { RouteSpec } from '../types'

export const SPEND_METRICS = [
  'total_cards',
  'total_spend_cny',
  'estimated_average_luxury_spend_cny',
  'estimated_average_accommodation_spend_cny',
  'estimated_average_dining_spend_cny',
  'estimated_average_retail_spend_cny',
] as const

const Country = PlaceName('Destination country, English name or ISO 3166-1 alpha-2 code, case-insensitive.', 'Japan')

const base = { family: 'spend', kind: 'dataset', methods: ['GET'], typicalWaitSeconds: 1 } as const

export const spendRoutes: RouteSpec[] = [
  monthsRoute(base, { dataset: 'spend', data: 'card-spend' }),
  {
    ...base,
    id: 'spend.countries',
    path: '/v1/market-data/spend/countries',
    priceUsd: '0.03',
    summary: 'Supported countries, optionally scoped to a month',
    description: 'Countries with card-spend data, with cards counted in the given month (or the latest one), largest first.',
    query: Query({ month: t.Optional(Month('Only countries with data in this month, YYYY-MM. Latest month when omitted.')) }),
    data: t.Object({
      month: t.String(),
      countries: t.Array(t.Object({ country: t.String(), country_code: t.String(), total_cards: t.Integer() })),
      data_quality: DataQuality,
    }),
    table: { field: 'countries' },
  },
  {
    ...base,
    id: 'spend.summary',
    path: '/v1/market-data/spend/summary',
    priceUsd: '0.10',
    summary: 'Latest or month-specific spend summary for a country',
    description:
      'Cards, estimated average luxury and accommodation spend per card, the top source city, and breakdown highlights (source-city mix, spend mix, month-over-month and year-over-year changes).',
    query: Query({ country: Country, month: t.Optional(Month()) }),
    data: t.Object({
      country: t.String(),
      country_code: t.String(),
      source_month: t.String(),
      summary: t.Object({
        total_cards: t.Integer(),
        estimated_average_luxury_spend_cny: t.Number(),
        estimated_average_accommodation_spend_cny: t.Number(),
        top_source_city: t.String(),
      }),
      highlights: t.Object({
        estimated_average_dining_spend_cny: t.Number(),
        estimated_average_retail_spend_cny: t.Number(),
        total_spend_cny: t.Number(),
        spend_mix_pct: t.Object({ luxury: t.Number(), accommodation: t.Number(), dining: t.Number(), retail: t.Number() }),
        top_source_cities: t.Array(t.Object({ city: t.String(), total_cards: t.Integer(), share_pct: t.Number() })),
        total_cards_mom_pct: Pct,
        total_cards_yoy_pct: Pct,
      }),
      data_quality: DataQuality,
    }),
  },
  {
    ...base,
    id: 'spend.trends',
    path: '/v1/market-data/spend/trends',
    priceUsd: '0.10',
    summary: 'Country-level spend trend pack',
    description:
      'Direction and month-over-month / year-over-year changes of cards and per-card spend for a country, recovery against the same months of 2019, and the recent monthly series.',
    query: Query({ country: Country, months: t.Optional(Limit(12, 60, 'recent months in the series')) }),
    data: t.Object({
      country: t.String(),
      country_code: t.String(),
      latest_month: t.String(),
      direction: Direction,
      changes: t.Object({
        total_cards_mom_pct: Pct,
        total_cards_yoy_pct: Pct,
        average_luxury_spend_yoy_pct: Pct,
        average_accommodation_spend_yoy_pct: Pct,
      }),
      recovery_vs_2019_pct: Pct,
      series: t.Array(
        t.Object({
          month: MonthValue(),
          total_cards: t.Integer(),
          estimated_average_luxury_spend_cny: t.Number(),
          estimated_average_accommodation_spend_cny: t.Number(),
        }),
      ),
      data_quality: DataQuality,
    }),
    table: { field: 'series' },
  },
  {
    ...base,
    id: 'spend.series',
    path: '/v1/market-data/spend/series',
    priceUsd: '0.10',
    summary: 'Time series of one spend metric for a country',
    description: 'Monthly values of one metric (cards, total spend, or an average per-card spend measure), optionally between two months.',
    query: Query({
      country: Country,
      metric: Enum(SPEND_METRICS, 'Metric to return.'),
      from: t.Optional(Month('First month, YYYY-MM (inclusive). Earliest when omitted.')),
      to: t.Optional(Month('Last month, YYYY-MM (inclusive). Latest when omitted.')),
    }),
    data: t.Object({
      country: t.String(),
      country_code: t.String(),
      metric: t.String(),
      unit: t.String(),
      points: t.Array(t.Object({ month: MonthValue(), value: t.Number() })),
      data_quality: DataQuality,
    }),
    table: { field: 'points' },
  },
]
