import type { DuckDb } from '../data/duckdb'
import { dataQuality, type LoadedDataset, type MarketSnapshot } from '../data/datasets'
import type { ResultCache } from '../data/result-cache'
import type { HandlerResult, Prepared, RouteHandler } from '../http/handler'

export interface MarketServices {
  db: DuckDb
  cache: ResultCache
  /** The current dataset versions; a request reads it once so its answer never mixes versions. */
  snapshot(): MarketSnapshot
}

/** A prepared dataset request whose answer is materialised once per dataset version. */
export function cachedAnswer(
  s: MarketServices,
  dataset: LoadedDataset,
  routeId: string,
  key: string,
  compute: () => Promise<Record<string, unknown>>,
): Prepared {
  return {
    key,
    async run(): Promise<HandlerResult> {
      const { value, hit } = await s.cache.get(`${dataset.entry.version}|${routeId}|${key}`, async () => ({
        ...(await compute()),
        data_quality: dataQuality(dataset),
      }))
      return { data: value, cacheStatus: hit ? 'hit' : 'miss' }
    },
  }
}

/** A shared intermediate (e.g. one country's monthly totals) cached per version, reused by several routes. */
export async function cachedRows<T>(s: MarketServices, dataset: LoadedDataset, key: string, sql: string, params: (string | number)[]): Promise<T[]> {
  const { value } = await s.cache.get(`${dataset.entry.version}|rows|${key}`, () => s.db.all<T>(sql, params))
  return value
}

/** The `months` route of a dataset: the months it covers, oldest first. */
export function monthsHandler(s: MarketServices, routeId: string, pick: (snap: ReturnType<MarketServices['snapshot']>) => LoadedDataset): RouteHandler {
  return {
    prepare() {
      const dataset = pick(s.snapshot())
      const months = dataset.months
      return cachedAnswer(s, dataset, routeId, '', async () => ({ months, earliest: months[0], latest: months.at(-1), count: months.length }))
    },
  }
}
