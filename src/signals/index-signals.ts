import type { DuckDb, LoadedDataset } from '../data'
import { EntityIndex } from '../intelligence'

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
  /** The entity resolver: these topics, brands and creators with the static places, categories and glossary. */
  entities: EntityIndex
}

export async function indexSignals(
  db: DuckDb,
  creators: LoadedDataset,
  topics: LoadedDataset,
  brands: LoadedDataset,
): Promise<SignalsSnapshot> {
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
    (await db.all<{ k: string }>(`SELECT DISTINCT brand_slug || '|' || category || '|' || week_start AS k FROM ${brands.relation}`)).map(
      (r) => r.k,
    ),
  )
  const entities = new EntityIndex(
    {
      topics: await db.all(
        `SELECT topic_slug AS slug, arg_max(topic_name, week_start) AS name, arg_max(topic_name_zh, week_start) AS "nameZh", arg_max(category, week_start) AS category
         FROM ${topics.relation} GROUP BY topic_slug ORDER BY topic_slug`,
      ),
      brands: (
        await db.all<{ slug: string; name: string; nameZh: string; categories: string }>(
          `SELECT brand_slug AS slug, arg_max(brand_name, week_start) AS name, arg_max(brand_name_zh, week_start) AS "nameZh", string_agg(DISTINCT category, ',' ORDER BY category) AS categories
         FROM ${brands.relation} GROUP BY brand_slug ORDER BY brand_slug`,
        )
      ).map((b) => ({ ...b, categories: b.categories.split(',') })),
      creators: await db.all(
        `SELECT creator_handle AS handle, arg_max(creator_name, week_start) AS name, arg_max(category, week_start) AS category
         FROM ${creators.relation} GROUP BY creator_handle ORDER BY creator_handle`,
      ),
    },
    [creators, topics, brands].map((d) => d.entry.version).join('+'),
  )
  return { creators, topics, brands, weeks, brandNames, brandWeeks, entities }
}
