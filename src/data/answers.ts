import type { HandlerResult, Prepared } from '../core'
import { dataQuality, type LoadedDataset } from './import/datasets'
import type { DuckDb } from './duckdb'
import type { ResultCache } from './result-cache'

/** What every dataset-backed route needs: the engine and the per-version result cache. */
export interface DataServices {
  db: DuckDb
  cache: ResultCache
}

/**
 * A prepared dataset request whose answer is materialised once per dataset version. The answer gets
 * the data-quality block of its dataset (an array of blocks when it blends several).
 */
export function cachedAnswer(
  services: DataServices,
  dataset: LoadedDataset | readonly LoadedDataset[],
  routeId: string,
  key: string,
  compute: () => Promise<Record<string, unknown>>,
): Prepared {
  const blend = Array.isArray(dataset)
  const all: readonly LoadedDataset[] = blend ? dataset : [dataset as LoadedDataset]
  const versions = all.map((d) => d.entry.version).join('+')
  return {
    key,
    async run(): Promise<HandlerResult> {
      const { value, hit } = await services.cache.get(`${versions}|${routeId}|${key}`, async () => ({
        ...(await compute()),
        data_quality: blend ? all.map(dataQuality) : dataQuality(all[0]!),
      }))
      return { data: value, cacheStatus: hit ? 'hit' : 'miss' }
    },
  }
}

/** A shared intermediate (e.g. one country's monthly totals) cached per version, reused by several routes. */
export async function cachedRows<T>(
  services: DataServices,
  dataset: LoadedDataset,
  key: string,
  sql: string,
  params: (string | number)[],
): Promise<T[]> {
  const { value } = await services.cache.get(`${dataset.entry.version}|rows|${key}`, () => services.db.all<T>(sql, params))
  return value
}
