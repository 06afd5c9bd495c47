import { Type as t } from '@sinclair/typebox'
import { DataQuality, Direction, monthsRoute, Pct } from './data-quality'
import { Limit, Month, PlaceName, Query } from './params'
import { MonthValue } from '../table'
import type { RouteSpec } from '../types'

const Destination = PlaceName('Destination city, English name or IATA code, case-insensitive.', 'Tokyo')

const base = { family: 'flights', kind: 'dataset', methods: ['GET'], typicalWaitSeconds: 1 } as const

const RankedDestination = t.Object({
  rank: t.Integer(),
  destination: t.String(),
  country: t.String(),
  estimated_passengers: t.Integer(),
})

export const MAX_AGGREGATE_DESTINATIONS = 20

/** Growth rankings leave out destinations below this many passengers in the previous month. */
export const GROWTH_MIN_BASE_PASSENGERS = 1000

export const flightRoutes: RouteSpec[] = [
  monthsRoute(base, { dataset: 'flight-arrivals', data: 'flight-arrival' }),
  {
    ...base,
    id: 'flights.summary',
    path: '/v1/market-data/flights/summary',
    priceUsd: '0.10',
    summary: 'Latest or month-specific destination summary',
    description:
      'Routes (origin cities), scheduled flights, seats, estimated passengers and load factor for a destination, with concentration metrics (top-origin and top-3 shares, Herfindahl index) and month-over-month / year-over-year changes.',
    query: Query({ destination: Destination, month: t.Optional(Month()) }),
    data: t.Object({
      destination: t.String(),
      destination_code: t.String(),
      country: t.String(),
      source_month: t.String(),
      summary: t.Object({
        routes: t.Integer({ description: 'origin cities with scheduled flights' }),
        scheduled_flights: t.Integer(),
        seats: t.Integer(),
        estimated_passengers: t.Integer(),
        load_factor: t.Number(),
        top_origin_city: t.String(),
      }),
      concentration: t.Object({
        top_origin_share_pct: t.Number(),
        top3_origin_share_pct: t.Number(),
        herfindahl_index: t.Number({ description: 'sum of squared origin passenger shares, 0-1; above 0.25 is highly concentrated' }),
      }),
      changes: t.Object({ estimated_passengers_mom_pct: Pct, estimated_passengers_yoy_pct: Pct }),
      data_quality: DataQuality,
    }),
  },
  {
    ...base,
    id: 'flights.trend',
    path: '/v1/market-data/flights/trend',
    priceUsd: '0.10',
    summary: 'Monthly scheduled-flight trend series of a destination',
    description:
      'The most recent `limit` months of flights, seats and estimated passengers, oldest first, with the direction of the latest three months against the same months a year before.',
    query: Query({ destination: Destination, limit: t.Optional(Limit(12, 120, 'months')) }),
    data: t.Object({
      destination: t.String(),
      country: t.String(),
      direction: Direction,
      points: t.Array(
        t.Object({ month: MonthValue(), scheduled_flights: t.Integer(), seats: t.Integer(), estimated_passengers: t.Integer() }),
      ),
      data_quality: DataQuality,
    }),
    table: { field: 'points' },
  },
  {
    ...base,
    id: 'flights.top_routes',
    path: '/v1/market-data/flights/top-routes',
    priceUsd: '0.10',
    summary: 'Top departure cities feeding a destination in a month',
    description: 'Origin cities ranked by estimated passengers to the destination in the given (or latest) month.',
    query: Query({ destination: Destination, month: t.Optional(Month()), limit: t.Optional(Limit(10, 50, 'origin cities')) }),
    data: t.Object({
      destination: t.String(),
      country: t.String(),
      month: t.String(),
      routes: t.Array(
        t.Object({
          rank: t.Integer(),
          origin_city: t.String(),
          origin_code: t.String(),
          scheduled_flights: t.Integer(),
          seats: t.Integer(),
          estimated_passengers: t.Integer(),
          share_pct: t.Number(),
        }),
      ),
      data_quality: DataQuality,
    }),
    table: { field: 'routes' },
  },
  {
    ...base,
    id: 'flights.ranking',
    path: '/v1/market-data/flights/ranking',
    priceUsd: '0.10',
    summary: 'Destinations ranked by estimated passengers',
    description: 'All destinations of the given (or latest) month ranked by estimated passengers from mainland China.',
    query: Query({ month: t.Optional(Month()), limit: t.Optional(Limit(20, 100, 'destinations')) }),
    data: t.Object({
      month: t.String(),
      destinations: t.Array(t.Composite([RankedDestination, t.Object({ share_pct: t.Number() })])),
      data_quality: DataQuality,
    }),
    table: { field: 'destinations' },
  },
  {
    ...base,
    id: 'flights.growth',
    path: '/v1/market-data/flights/growth',
    priceUsd: '0.10',
    summary: 'Fastest-growing destinations month over month',
    description: `Destinations ranked by month-over-month change in estimated passengers for the given (or latest) month. Destinations with fewer than ${GROWTH_MIN_BASE_PASSENGERS.toLocaleString('en')} passengers in the previous month are left out so tiny bases do not top the list.`,
    query: Query({ month: t.Optional(Month()), limit: t.Optional(Limit(20, 100, 'destinations')) }),
    data: t.Object({
      month: t.String(),
      previous_month: t.String(),
      destinations: t.Array(t.Composite([RankedDestination, t.Object({ previous_passengers: t.Integer(), mom_change_pct: t.Number() })])),
      data_quality: DataQuality,
    }),
    table: { field: 'destinations' },
  },
  {
    ...base,
    id: 'flights.aggregate',
    path: '/v1/market-data/flights/aggregate',
    priceUsd: '0.16',
    summary: 'Several destinations aggregated into one cluster summary',
    description: `Sums flights, seats and passengers over up to ${MAX_AGGREGATE_DESTINATIONS} destinations for the given (or latest) month, names the top origin city of the cluster, and gives its growth direction (latest three months against the same months a year before).`,
    query: Query({
      destinations: t.String({
        minLength: 1,
        maxLength: 1000,
        description: `Comma-separated destination names or IATA codes (1-${MAX_AGGREGATE_DESTINATIONS}).`,
        examples: ['Tokyo,Osaka,Seoul'],
      }),
      label: t.Optional(
        t.String({
          minLength: 1,
          maxLength: 80,
          description: 'Free-text name of the cluster, echoed back; default: the member names joined with " + ".',
          examples: ['North Asia'],
        }),
      ),
      month: t.Optional(Month()),
    }),
    data: t.Object({
      label: t.String(),
      destinations: t.Array(t.String()),
      month: t.String(),
      summary: t.Object({
        estimated_passengers: t.Integer(),
        scheduled_flights: t.Integer(),
        seats: t.Integer(),
        top_origin_city: t.String(),
        growth_direction: Direction,
        yoy_change_pct: Pct,
      }),
      members: t.Array(t.Object({ destination: t.String(), estimated_passengers: t.Integer(), share_pct: t.Number() })),
      data_quality: DataQuality,
    }),
    table: { field: 'members' },
  },
]
