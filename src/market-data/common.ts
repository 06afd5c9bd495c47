import { FLAT_BAND_PCT } from '../catalog'
import { notFound } from '../core'
import type { LoadedDataset } from '../data'

export const round = (n: number, digits = 1) => {
  const f = 10 ** digits
  return Math.round(n * f) / f
}

/** Percent change from `base` to `value`, one decimal; null when there is no base to compare with. */
export const pct = (value: number | undefined, base: number | undefined): number | null =>
  value === undefined || base === undefined || base === 0 ? null : round(((value - base) / base) * 100)

/** Beyond ±FLAT_BAND_PCT is a direction; within it, flat. */
export const direction = (change: number | null): 'up' | 'down' | 'flat' =>
  change === null || Math.abs(change) <= FLAT_BAND_PCT ? 'flat' : change > 0 ? 'up' : 'down'

export function addMonths(month: string, delta: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number]
  const index = y * 12 + (m - 1) + delta
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`
}

/** The requested month, or the dataset's latest; a month outside the data is a free 404 naming `parameter`. */
export function resolveMonth(dataset: LoadedDataset, month: unknown, parameter = 'month'): string {
  if (month === undefined) return dataset.periods.at(-1)!
  const period = String(month)
  if (!dataset.periods.includes(period)) {
    throw notFound('month', period, parameter, [`${dataset.periods[0]} to ${dataset.periods.at(-1)}`])
  }
  return period
}

/**
 * Seasonality-safe growth: the latest three months against the same three months a year before.
 * `series` is monthly, oldest first.
 */
export function threeMonthYoY(series: { month: string; value: number }[]): number | null {
  const byMonth = new Map(series.map((p) => [p.month, p.value]))
  const last = series.slice(-3)
  if (last.length < 3) return null
  const recent = last.reduce((s, p) => s + p.value, 0)
  let prior = 0
  for (const p of last) {
    const priorValue = byMonth.get(addMonths(p.month, -12))
    if (priorValue === undefined) return null
    prior += priorValue
  }
  return pct(recent, prior)
}
