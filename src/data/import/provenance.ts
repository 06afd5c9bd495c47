import type { BuiltFrom, ManifestEntry } from './datasets'

/** The recorded provenance; for older entries, what can be told: the generator writes no `imported_at`. */
export const builtFrom = (e: ManifestEntry): BuiltFrom | undefined => e.built_from ?? (e.imported_at ? undefined : { mode: 'generated' })

/** One line for `data list`: `merge spend-2026-11.csv onto spend-5177cd1c8d99: +2026-11`. */
export function builtFromSummary(entry: ManifestEntry): string {
  const built = builtFrom(entry)
  if (!built) return '(not recorded)'
  if (built.mode === 'generated') return 'generated'
  const changes = [
    ['+', built.added],
    ['~', built.replaced],
    ['-', built.removed],
  ]
    .filter((c): c is [string, string[]] => !!c[1]?.length)
    .map(([sign, periods]) => `${sign}${ranges(periods)}`)
  return `${built.mode} ${built.file}${built.base ? ` onto ${built.base}` : ''}${changes.length ? `: ${changes.join(' ')}` : ''}`
}

/** Consecutive periods as `first..last (n)`: `2019-01..2026-10 (94)`, `2026-03,2026-07`. At most three runs, then the count. */
export function ranges(periods: string[]): string {
  const sorted = [...periods].sort()
  const runs: string[][] = []
  for (const p of sorted) {
    const run = runs.at(-1)
    if (run && next(run.at(-1)!) === p) run.push(p)
    else runs.push([p])
  }
  const shown = runs.slice(0, 3).map((r) => (r.length === 1 ? r[0]! : `${r[0]}..${r.at(-1)} (${r.length})`))
  return `${shown.join(',')}${runs.length > 3 ? `,... (${sorted.length} in all)` : ''}`
}

/** The period after `period`: the next month (YYYY-MM) or the next week's Monday (YYYY-MM-DD). */
function next(period: string): string {
  if (period.length === 10) return new Date(Date.parse(`${period}T00:00:00Z`) + 7 * 86_400_000).toISOString().slice(0, 10)
  const [y, m] = period.split('-').map(Number) as [number, number]
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`
}
