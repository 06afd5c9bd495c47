/**
 * A trend beside the weekly rankings it sits next to. The weekly topic and brand data count every post
 * (thousands a week) on whole weeks; a trend's windows are days, and its evidence a sample of the posts.
 * Where the published weeks cover both windows (the whole weeks inside each), a trend states what the
 * weekly ranking shows over the same span and, when the two readings differ, why: most often the
 * evidence's change is within count noise where the weekly counts are not.
 */
import { MOMENTUM, type MomentumValue, WEEKLY_DECIDES_RATIO } from '../../catalog'
import { changeWithinNoise, type MomentumResult } from './momentum'

const DAY_MS = 86_400_000
const WEEK_MS = 7 * DAY_MS

/** Posts (topics) or mentions (brands) per published week, by week start (YYYY-MM-DD). */
export interface WeeklySeries {
  source: 'signal_topics' | 'signal_brands'
  /** What is counted: posts of a topic, mentions of a brand. */
  measure: 'posts' | 'mentions'
  /** Every published week, oldest first. */
  published: readonly string[]
  counts: ReadonlyMap<string, number>
}

export interface WeeklyReading {
  source: WeeklySeries['source']
  measure: WeeklySeries['measure']
  recent: { from: string; to: string; weeks: number; per_week: number }
  prior: { from: string; to: string; weeks: number; per_week: number }
  change_pct: number
  direction: 'rising' | 'falling' | 'flat'
  /** Whether the trend's momentum reads the same way; null when the trend calls no direction. */
  agrees: boolean | null
  /** One sentence for the headline: the weekly figure, and why the readings differ when they do. */
  note: string
}

const day = (t: number) => new Date(t).toISOString().slice(0, 10)
const round1 = (n: number) => Math.round(n * 10) / 10

/** The published weeks lying wholly inside [from, to). */
function weeksInside(published: readonly string[], from: number, to: number): string[] {
  return published.filter((w) => {
    const start = Date.parse(`${w}T00:00:00Z`)
    return start >= from && start + WEEK_MS <= to
  })
}

/** The weekly series over a trend's two windows, or null where the published weeks do not cover both. */
export function weeklyReading(series: WeeklySeries, asOf: Date, days: number, result: MomentumResult): WeeklyReading | null {
  const to = asOf.getTime()
  const mid = to - days * DAY_MS
  const from = to - 2 * days * DAY_MS
  const recent = weeksInside(series.published, mid, to)
  const prior = weeksInside(series.published, from, mid)
  // Covered: whole weeks in both windows, and the last published week ends within a week of the recent window's end.
  const last = series.published.at(-1)
  if (!recent.length || !prior.length || !last || Date.parse(`${last}T00:00:00Z`) + WEEK_MS < to - WEEK_MS) return null
  // As for momentum: whole weeks over at least MOMENTUM.minCoveredShare of each window's days.
  if (Math.min(recent.length, prior.length) * 7 < MOMENTUM.minCoveredShare * days) return null
  const per = (ws: string[]) => ws.reduce((n, w) => n + (series.counts.get(w) ?? 0), 0) / ws.length
  const [r, p] = [per(recent), per(prior)]
  if (r + p === 0) return null
  const ratio = p > 0 ? r / p : Infinity
  const threshold = Math.exp(MOMENTUM.threshold)
  const direction = ratio >= threshold ? 'rising' : ratio <= 1 / threshold ? 'falling' : 'flat'
  const change = p > 0 ? round1((ratio - 1) * 100) : 100
  const span = (ws: string[]) => ({
    from: ws[0]!,
    to: day(Date.parse(`${ws.at(-1)!}T00:00:00Z`) + 6 * DAY_MS),
    weeks: ws.length,
    per_week: round1(per(ws)),
  })
  const called = result.momentum === 'rising' || result.momentum === 'falling' || result.momentum === 'stable'
  const same = called ? (result.momentum === 'stable' ? direction === 'flat' : result.momentum === direction) : null
  const what = series.source === 'signal_topics' ? 'weekly topic ranking' : 'weekly brand ranking'
  const figure = `the ${what} over the whole weeks of the same windows counts ${round1(r).toLocaleString('en')} ${series.measure} a week vs ${round1(p).toLocaleString('en')} (${change > 0 ? '+' : ''}${change}%, ${direction})`
  return {
    source: series.source,
    measure: series.measure,
    recent: span(recent),
    prior: span(prior),
    change_pct: change,
    direction,
    agrees: same,
    note:
      same === false
        ? `${figure}; they differ because ${why(result, direction, series.measure)}`
        : `${figure}${same ? ', in agreement' : ''}`,
  }
}

/** What a trend answers: its own evidence's momentum, or the weekly ranking's direction where that is the stronger reading. */
export interface Verdict {
  momentum: MomentumValue
  source: 'evidence' | 'weekly_ranking'
  /** Weekly: the posts (or mentions) counted over the two windows' whole weeks, against the evidence items read. */
  counted?: { weekly: number; evidence: number }
}

/**
 * The stronger reading decides (WEEKLY_DECIDES_RATIO): the weekly counts of the same topic or brand over the
 * same whole weeks, when they count that many times the evidence items read and read otherwise (a sample of
 * a few dozen posts calls "stable" what thousands of posts a week show rising).
 */
export function verdictOf(result: MomentumResult, weekly: WeeklyReading | null): Verdict {
  const own: Verdict = { momentum: result.momentum as MomentumValue, source: 'evidence' }
  if (!weekly || weekly.agrees === true) return own
  const counted = {
    weekly: Math.round(weekly.recent.per_week * weekly.recent.weeks + weekly.prior.per_week * weekly.prior.weeks),
    evidence: result.recent.items + result.prior.items,
  }
  if (counted.weekly < WEEKLY_DECIDES_RATIO * Math.max(1, counted.evidence)) return own
  return { momentum: weekly.direction === 'flat' ? 'stable' : weekly.direction, source: 'weekly_ranking', counted }
}

/** Why a trend's momentum reads otherwise than the weekly counts over the same span. */
function why(result: MomentumResult, weekly: WeeklyReading['direction'], measure: string): string {
  const items = `${result.recent.items} vs ${result.prior.items} evidence items`
  const pct = result.volume_change_pct
  if (result.momentum === 'stable') {
    // The change is in passing mentions, not in the posts about it (momentum()).
    if (result.reason) return result.reason
    if (changeWithinNoise(result) || (result.volume_z !== null && Math.abs(result.volume_z) < MOMENTUM.minZ))
      return `the ${items} here are a sample of those ${measure}, and their change (${pct === null ? 'n/a' : `${pct > 0 ? '+' : ''}${pct}%`}) is within count noise (z ${result.volume_z}): no direction is called from so few`
    if (pct !== null && Math.sign(pct) === (weekly === 'rising' ? 1 : -1))
      return `the evidence moved the same way (${pct > 0 ? '+' : ''}${pct}% on ${items}) but its momentum score (${result.score}, engagement included) stays within ±${MOMENTUM.threshold}`
    return `the ${items} here, a sample of those ${measure}, did not move as the counts did`
  }
  // Rising or falling where the weekly counts are flat or go the other way.
  const weeks = weekly === 'flat' ? 'the whole weeks stayed flat' : `the whole weeks went ${weekly === 'rising' ? 'up' : 'down'}`
  return `the ${items} here, a sample of those ${measure} over days rather than whole weeks, went ${result.momentum === 'rising' ? 'up' : 'down'} while ${weeks}`
}

/** A leading creator of a category's last published week. */
export interface WeeklyCreator {
  handle: string
  platform: string
  week_start: string
}

/**
 * Weekly series of the signals datasets, read once per snapshot and entity: posts of a topic and
 * mentions of a brand, all platforms or one.
 */
export class WeeklySignals {
  private readonly memo = new Map<string, Promise<WeeklySeries | null>>()

  constructor(
    private readonly db: { all<T>(sql: string, params?: unknown[]): Promise<T[]> },
    private readonly topics: string,
    private readonly brands: string,
    private readonly creators: string,
    private readonly published: readonly string[],
  ) {}

  private readonly leaders = new Map<string, Promise<WeeklyCreator[]>>()

  /**
   * A category's leading creators of the last published week, by the creator ranking's default
   * (influence: engagement + views / 10, as /v1/signals/creators/rankings ranks them).
   */
  topCreators(category: string, limit = 3): Promise<WeeklyCreator[]> {
    const week = this.published.at(-1)
    if (!week) return Promise.resolve([])
    let held = this.leaders.get(category)
    if (!held) {
      held = this.db.all<WeeklyCreator>(
        `SELECT creator_handle AS handle, platform, CAST(week_start AS VARCHAR) AS week_start
           FROM ${this.creators} WHERE category = $1 AND week_start = $2
          ORDER BY engagement + views / 10 DESC, creator_handle LIMIT ${Math.floor(limit)}`,
        [category, week],
      )
      held.catch(() => this.leaders.delete(category))
      this.leaders.set(category, held)
    }
    return held
  }

  series(entityId: string, platform: string | null): Promise<WeeklySeries | null> {
    const [kind, slug] = entityId.split(':') as [string, string]
    if (kind !== 'topic' && kind !== 'brand') return Promise.resolve(null)
    const key = `${entityId}|${platform ?? 'all'}`
    let held = this.memo.get(key)
    if (!held) {
      const topic = kind === 'topic'
      const [table, column, measure] = topic ? [this.topics, 'topic_slug', 'posts'] : [this.brands, 'brand_slug', 'mentions']
      held = this.db
        .all<{ week: string; n: number }>(
          `SELECT CAST(week_start AS VARCHAR) AS week, CAST(SUM(${measure}) AS DOUBLE) AS n FROM ${table} WHERE ${column} = $1 ${platform ? 'AND platform = $2' : ''} GROUP BY week_start`,
          platform ? [slug, platform] : [slug],
        )
        .then((rows) =>
          rows.length
            ? ({
                source: topic ? 'signal_topics' : 'signal_brands',
                measure,
                published: this.published,
                counts: new Map(rows.map((r) => [r.week, Number(r.n)])),
              } as WeeklySeries)
            : null,
        )
      held.catch(() => this.memo.delete(key))
      this.memo.set(key, held)
    }
    return held
  }
}
