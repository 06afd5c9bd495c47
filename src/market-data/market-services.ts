import type { LoadedDataset } from '../data/import/datasets'
import { cachedAnswer, type DataServices } from '../data/answers'
import type { MarketSnapshot } from '../data/market-snapshot'
import type { RouteHandler } from '../core/route-handler'

export interface MarketServices extends DataServices {
  /** The current dataset versions; a request reads it once so its answer never mixes versions. */
  snapshot(): MarketSnapshot
}

/** The `months` route of a dataset: the months it covers, oldest first. */
export function monthsHandler(
  services: MarketServices,
  routeId: string,
  pick: (snap: ReturnType<MarketServices['snapshot']>) => LoadedDataset,
): RouteHandler {
  return {
    prepare() {
      const dataset = pick(services.snapshot())
      const months = dataset.periods
      return cachedAnswer(services, dataset, routeId, '', async () => ({
        months,
        earliest: months[0],
        latest: months.at(-1),
        count: months.length,
      }))
    },
  }
}
