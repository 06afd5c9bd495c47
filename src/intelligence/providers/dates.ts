/**
 * Publication dates as vendors write them: ISO 8601 with or without a time zone, epoch seconds or
 * milliseconds, and the relative forms Chinese and English pages show (3天前, 昨天 12:30, 刚刚,
 * "2 hours ago", 11-02). A date without a time zone is read in the vendor's documented zone (`zone`,
 * minutes east of UTC: 480 for China Standard Time); relative dates count back from `now`, the time
 * of the call. What cannot be read is null: the item is then counted as undated, never guessed.
 */

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** Units of relative dates, in milliseconds (a month and a year as 30 and 365 days: these dates are coarse anyway). */
const UNITS: [RegExp, number][] = [
  [/^(秒|seconds?|secs?)$/, 1000],
  [/^(分钟|分|minutes?|mins?)$/, MINUTE],
  [/^(小时|个小时|hours?|hrs?)$/, HOUR],
  [/^(天|日|days?)$/, DAY],
  [/^(周|个星期|星期|weeks?)$/, 7 * DAY],
  [/^(个月|月|months?)$/, 30 * DAY],
  [/^(年|years?)$/, 365 * DAY],
]

const unitMs = (unit: string): number | undefined => UNITS.find(([re]) => re.test(unit))?.[1]

/** Midnight of `now`'s day in `zone`, as UTC milliseconds. */
function zoneMidnight(now: number, zone: number): number {
  const local = now + zone * MINUTE
  return local - (local % DAY) - zone * MINUTE
}

/** `HH:MM` on the day starting at `midnight`, or that midnight. */
const at = (midnight: number, hh?: string, mm?: string) => midnight + (hh ? Number(hh) * HOUR + Number(mm ?? 0) * MINUTE : 0)

/** Epoch seconds (10 digits) or milliseconds (13 digits), as a number or a string of digits. */
function epoch(value: number): Date | null {
  if (!Number.isFinite(value) || value <= 0) return null
  const ms = value < 1e11 ? value * 1000 : value
  return ms > 9e14 ? null : new Date(ms)
}

const offset = (zone: number) =>
  `${zone < 0 ? '-' : '+'}${String(Math.floor(Math.abs(zone) / 60)).padStart(2, '0')}:${String(Math.abs(zone) % 60).padStart(2, '0')}`

/**
 * The instant a vendor's date field names, or null. `zone` applies to dates written without a time
 * zone; `now` anchors relative dates.
 */
export function parseVendorDate(value: unknown, options: { now: number; zone: number }): Date | null {
  if (typeof value === 'number') return epoch(value)
  if (typeof value !== 'string') return null
  const cleaned = value
    .normalize('NFKC')
    .trim()
    .toLowerCase()
    .replace(/^(发布于|编辑于|发表于|更新于|published|updated)[:：\s]*/, '')
    .replace(/^(\d{4})[年/.](\d{1,2})[月/.](\d{1,2})日?/, '$1-$2-$3')
  if (!cleaned) return null
  if (/^\d{10}(\d{3})?$/.test(cleaned)) return epoch(Number(cleaned))
  // ISO 8601 and its common variants (a space for the T, no seconds, no zone).
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[t\s](\d{1,2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?\s*(z|[+-]\d{2}:?\d{2})?$/.exec(cleaned)
  if (iso) {
    const [, y, mo, d, hh = '0', mm = '00', ss = '0', frac = '', tz] = iso
    const zoneText = tz ? (tz === 'z' ? 'Z' : tz.length === 5 ? `${tz.slice(0, 3)}:${tz.slice(3)}` : tz) : offset(options.zone)
    const text = `${y}-${mo!.padStart(2, '0')}-${d!.padStart(2, '0')}T${hh.padStart(2, '0')}:${mm}:${ss.padStart(2, '0')}${frac.slice(0, 4)}${zoneText}`
    const instant = Date.parse(text)
    return Number.isNaN(instant) ? null : new Date(instant)
  }
  if (/^(刚刚|刚才|just now|now)$/.test(cleaned)) return new Date(options.now)
  const ago = /^(\d+|an?|one)\s*([^\d\s]+?)\s*(前|以前|ago)$/.exec(cleaned)
  if (ago) {
    const amount = /^\d+$/.test(ago[1]!) ? Number(ago[1]) : 1
    const unit = unitMs(ago[2]!)
    return unit ? new Date(options.now - amount * unit) : null
  }
  const midnight = zoneMidnight(options.now, options.zone)
  const day = /^(今天|today|昨天|yesterday|前天)\s*(?:(\d{1,2}):(\d{2}))?$/.exec(cleaned)
  if (day) {
    const back = day[1] === '今天' || day[1] === 'today' ? 0 : day[1] === '前天' ? 2 : 1
    return new Date(at(midnight - back * DAY, day[2], day[3]))
  }
  // Month and day without a year (11-02, 11月2日): this year, or last year when that would be in the future.
  const md = /^(\d{1,2})[-/月](\d{1,2})日?(?:\s+(\d{1,2}):(\d{2}))?$/.exec(cleaned)
  if (md) {
    const year = new Date(midnight + options.zone * MINUTE).getUTCFullYear()
    for (const y of [year, year - 1]) {
      const dayStart = Date.UTC(y, Number(md[1]) - 1, Number(md[2])) - options.zone * MINUTE
      const when = at(dayStart, md[3], md[4])
      if (when <= options.now + DAY) return new Date(when)
    }
    return null
  }
  // A full date in words ("November 2, 2026", "2 Nov 2026"): what Date.parse reads, in UTC.
  if (/[a-z]{3}/.test(cleaned) && /\d{4}/.test(cleaned)) {
    const instant = Date.parse(`${cleaned} UTC`)
    return Number.isNaN(instant) ? null : new Date(instant)
  }
  return null
}
