import { ApiError, invalidParameter } from '../core'

const DAY_MS = 86_400_000

export const addDays = (isoDate: string, days: number) =>
  new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10)

/** A YYYY-MM-DD string that names a real calendar day ("2026-02-30" does not). */
function realDate(value: string, parameter: string): Date {
  const date = new Date(`${value}T00:00:00Z`)
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value)
    throw invalidParameter(parameter, `${value} is not a calendar date (YYYY-MM-DD)`)
  return date
}

const WEEKDAY = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']

export interface WeekChoice {
  start: string
  end: string
}

/**
 * The week a request asks for: `week_start` (a Monday), `week_end` (a Sunday), both (the same week),
 * or neither (the latest published). Malformed or inconsistent dates are a 400, a week that is not
 * published a 404; both before payment.
 */
export function resolveWeek(published: readonly string[], query: Record<string, unknown>): WeekChoice {
  const startParam = query.week_start as string | undefined
  const endParam = query.week_end as string | undefined
  let start: string | undefined
  if (startParam !== undefined) {
    const day = realDate(startParam, 'week_start').getUTCDay()
    if (day !== 1) {
      const monday = addDays(startParam, -((day + 6) % 7))
      throw invalidParameter('week_start', `${startParam} is a ${WEEKDAY[day]}; weeks start on Monday (that week starts ${monday})`)
    }
    start = startParam
  }
  if (endParam !== undefined) {
    const day = realDate(endParam, 'week_end').getUTCDay()
    if (day !== 0) {
      const sunday = addDays(endParam, (7 - day) % 7)
      throw invalidParameter('week_end', `${endParam} is a ${WEEKDAY[day]}; weeks end on Sunday (that week ends ${sunday})`)
    }
    const fromEnd = addDays(endParam, -6)
    if (start !== undefined && start !== fromEnd) {
      throw invalidParameter(
        'week_end',
        `week_start ${start} and week_end ${endParam} are not the same week; a week runs Monday to Sunday (${start} to ${addDays(start, 6)})`,
      )
    }
    start = fromEnd
  }
  const first = published[0]
  const latest = published.at(-1)
  if (!latest) throw new ApiError('dataset_unavailable', 'No published week is loaded.')
  if (start === undefined) return { start: latest, end: addDays(latest, 6) }
  if (!published.includes(start)) {
    throw new ApiError(
      'not_found',
      `The week ${start} to ${addDays(start, 6)} is not published; published weeks start ${first} to ${latest}.`,
      {
        parameter: startParam !== undefined ? 'week_start' : 'week_end',
        value: startParam ?? endParam,
        known: [`${first} to ${latest}`],
      },
    )
  }
  return { start, end: addDays(start, 6) }
}

/** Freshness detail for a week of a published series. */
export function freshness(published: readonly string[], weekStart: string) {
  const latest = published.at(-1)!
  return {
    cadence: 'weekly' as const,
    latest_published_week_start: latest,
    weeks_behind_latest: Math.round((Date.parse(latest) - Date.parse(weekStart)) / (7 * DAY_MS)),
    published_weeks: published.length,
  }
}
