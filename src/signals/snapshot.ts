import type { LoadedDataset } from '../data/datasets'
import type { DuckDb } from '../data/duckdb'

/** Everything the weekly signal routes read, frozen at one version of each signals dataset. */
export interface SignalsSnapshot {
  creators: LoadedDataset
  topics: LoadedDataset
  brands: LoadedDataset
  /** Week starts published in all three files, oldest first: the weeks a category snapshot can blend. */
  weeks: string[]
  /** Brand slug -> name and the category where it has most reach overall (its default category). */
  brandNames: Map<string, { name: string; primaryCategory: string }>
  /** `<brand_slug>|<category>|<week_start>` with rows, for checks before payment. */
  brandWeeks: Set<string>
}

export async function indexSignals(db: DuckDb, creators: LoadedDataset, topics: LoadedDataset, brands: LoadedDataset): Promise<SignalsSnapshot> {
  const published = [creators, topics, brands].map((d) => new Set(d.periods))
  const weeks = brands.periods.filter((w) => published.every((s) => s.has(w)))
  const brandNames = new Map<string, { name: string; primaryCategory: string }>()
  const rows = await db.all<{ brand_slug: string; brand_name: string; category: string }>(
    `SELECT brand_slug, arg_max(brand_name, week_start) AS brand_name, arg_max(category, reach) AS category
       FROM (SELECT brand_slug, category, max(brand_name) AS brand_name, max(week_start) AS week_start, SUM(reach) AS reach
               FROM ${brands.relation} GROUP BY brand_slug, category)
      GROUP BY brand_slug`,
  )
  for (const r of rows) brandNames.set(r.brand_slug, { name: r.brand_name, primaryCategory: r.category })
  const brandWeeks = new Set(
    (await db.all<{ k: string }>(`SELECT DISTINCT brand_slug || '|' || category || '|' || week_start AS k FROM ${brands.relation}`)).map((r) => r.k),
  )
  return { creators, topics, brands, weeks, brandNames, brandWeeks }
}
