import { cachedAnswer, type DataServices, type LoadedDataset, type MarketSnapshot } from '../data'
import type { RouteHandler } from '../core'

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
