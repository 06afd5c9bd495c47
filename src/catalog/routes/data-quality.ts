import { Type as t } from '@sinclair/typebox'
import { MonthValue } from '../table'
import type { RouteSpec } from '../types'
import { Query } from './params'

/** Every dataset answer says where its figures come from; the shipped data is a generated sample. */
export const DataQuality = t.Object(
  {
    sample: t.Boolean({ description: 'true when the figures are generated sample data, not real observations' }),
    notice: t.String(),
    dataset: t.String(),
    dataset_version: t.String({ description: 'content-addressed version of the Parquet file that answered' }),
    schema_version: t.Integer(),
    source_period: t.Object({ from: t.String(), to: t.String() }),
  },
  { description: 'Provenance and caveats of the figures.' },
)

/** A change within ±this percentage is `flat`. Documented here, used by the handlers. */
export const FLAT_BAND_PCT = 3

export const Direction = t.Union([t.Literal('up'), t.Literal('down'), t.Literal('flat')], {
  description: `latest three months against the same months a year before: up/down beyond ±${FLAT_BAND_PCT}%, otherwise flat`,
})

/** Percent change, one decimal; null when the base is zero or missing. */
export const Pct = t.Union([t.Number(), t.Null()])

/** `data` of the two `months` routes. */
const MonthsData = t.Object({
  months: t.Array(MonthValue()),
  earliest: t.String(),
  latest: t.String(),
  count: t.Integer(),
  data_quality: DataQuality,
})

/** The `months` route of a monthly dataset family (its route base): every month the dataset holds, oldest first. */
export function monthsRoute(
  base: Pick<RouteSpec, 'family' | 'kind' | 'methods' | 'typicalWaitSeconds'>,
  names: { dataset: string; data: string },
): RouteSpec {
  return {
    ...base,
    id: `${base.family}.months`,
    path: `/v1/market-data/${base.family}/months`,
    priceUsd: '0.03',
    summary: `Available source months of the ${names.dataset} dataset`,
    description: `Lists every month (YYYY-MM) for which ${names.data} data exists, oldest first.`,
    query: Query({}),
    data: MonthsData,
    table: { field: 'months', column: 'month' },
  }
}
