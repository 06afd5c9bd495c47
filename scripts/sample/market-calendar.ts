/**
 * The months of the market model (./market.ts): its fixed span, the Spring Festival month of each year,
 * and month keys (YYYY-MM) counted from START_MONTH.
 */

/** The span of the data. END_MONTH is a constant so the output does not depend on when the script runs. */
export const START_MONTH = '2019-01'
export const END_MONTH = '2026-10'
/** Where a scaled market (generate-sample-data.ts --scale) starts: ten years of months to END_MONTH. */
export const TEN_YEARS_FROM = '2016-11'

/** Month (1-12) holding the Spring Festival holiday, from the real Chinese New Year dates. */
export const SPRING_FESTIVAL_MONTH: Readonly<Record<number, number>> = {
  2016: 2, // 8 Feb (scaled market only)
  2017: 1, // 28 Jan (scaled market only)
  2018: 2, // 16 Feb (scaled market only)
  2019: 2, // 5 Feb
  2020: 1, // 25 Jan
  2021: 2, // 12 Feb
  2022: 2, // 1 Feb
  2023: 1, // 22 Jan
  2024: 2, // 10 Feb
  2025: 1, // 29 Jan
  2026: 2, // 17 Feb
}

export interface Month {
  key: string // YYYY-MM
  year: number
  month: number // 1-12
  index: number // months since START_MONTH
}

function parseMonth(key: string): { year: number; month: number } {
  const [year, month] = key.split('-').map(Number)
  if (!year || !month) throw new Error(`bad month ${key}`)
  return { year, month }
}

/** START_MONTH as numbers. */
export const START = parseMonth(START_MONTH)

/** Months since START_MONTH. */
export function monthIndex(key: string): number {
  const { year, month } = parseMonth(key)
  return (year - START.year) * 12 + (month - START.month)
}

/** Every month from `from` to `to`, both included. */
export function monthRange(from: string, to: string): Month[] {
  const months: Month[] = []
  for (let index = 0; index <= monthIndex(to) - monthIndex(from); index++) {
    const total = START.year * 12 + START.month - 1 + monthIndex(from) + index
    const year = Math.floor(total / 12)
    const month = (total % 12) + 1
    months.push({ key: `${year}-${String(month).padStart(2, '0')}`, year, month, index: monthIndex(from) + index })
  }
  return months
}
