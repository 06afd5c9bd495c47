/**
 * Helpers of the China intelligence tests: the relevance rule in SQL, and providers' answers over time
 * (the paying client is support/paying-client.ts; servers on loopback support/loopback.ts).
 */
/**
 * The relevance rule restated in SQL for the topic camping (露营): the whole word "camping" (or a plural)
 * or 露营, outside the automotive topic "car camping" (车载露营), whose longer name hides them.
 */
export const ABOUT_CAMPING = `(regexp_matches(replace(lower(title || ' ' || text), 'car camping', ''), '(^|[^a-z0-9_])campings?([^a-z0-9_]|$)')
  OR strpos(replace(title || ' ' || text, '车载露营', ''), '露营') > 0)`

const DAY_MS = 86_400_000

export interface SeriesOptions {
  /** Text of every item (must contain the keyword). */
  text: (i: number) => string
  /** Items published `daysAgo` days before now (0 = the last 24 hours). */
  perDay: (daysAgo: number) => number
  days: number
  authors?: number
  followers?: (author: number) => number
  likes?: (i: number) => number
  idPrefix?: string
  now?: number
}

/** Search results in the documented protocol, spread over the last `days` days. */
export function series(o: SeriesOptions): Record<string, unknown>[] {
  const now = o.now ?? Date.now()
  const out: Record<string, unknown>[] = []
  let i = 0
  for (let d = 0; d < o.days; d++) {
    for (let k = 0; k < o.perDay(d); k++, i++) {
      const author = i % (o.authors ?? 10)
      out.push({
        id: `${o.idPrefix ?? 'item'}-${i}`,
        url: `https://example.org/${o.idPrefix ?? 'item'}/${i}`,
        title: '',
        text: o.text(i),
        published_at: new Date(now - d * DAY_MS - (k + 1) * 60_000).toISOString(),
        author: `creator_${author}`,
        author_followers: o.followers?.(author) ?? 20_000 + author * 1000,
        likes: o.likes?.(i) ?? 100 + (i % 7) * 10,
        comments: 8,
        shares: 4,
        views: 3000,
      })
    }
  }
  return out
}

/**
 * The results of the generic protocol's answer to `url`: those dated within its `from`..`to` days, as the
 * protocol asks of a provider (the service asks for each compared window on its own).
 */
export function inWindow(results: Record<string, unknown>[], url: URL): Record<string, unknown>[] {
  const from = url.searchParams.get('from')
  const to = url.searchParams.get('to')
  if (!from || !to) return results
  const [start, end] = [Date.parse(`${from}T00:00:00Z`), Date.parse(`${to}T00:00:00Z`) + 86_400_000]
  return results.filter((r) => {
    const t = Date.parse(String(r.published_at))
    return !(t >= start) || t < end // undated results pass through, as a provider would return them
  })
}
