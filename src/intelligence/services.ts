import type { ResultCache } from '../data/result-cache'
import type { HandlerResult, Prepared } from '../http/handler'
import type { ProviderReport } from './lanes'
import type { EvidenceSources } from './sources'

/** What the China intelligence handlers need; captured by `chinaHandlers`, read per request. */
export interface IntelligenceServices {
  cache: ResultCache
  /** The evidence sources of this request (sample corpus or live providers). */
  sources(): EvidenceSources
}

export interface Computed {
  data: Record<string, unknown>
  /** Every provider call made for the answer, reported in `data_quality.providers`. */
  calls: ProviderReport[]
}

/**
 * A prepared evidence request. Sample-corpus answers are computed once per corpus version and served
 * from memory; live answers (and answers a language model writes) are computed per paid request.
 */
export function evidenceAnswer(s: IntelligenceServices, routeId: string, key: string, compute: (src: EvidenceSources) => Promise<Computed>): Prepared {
  // Bound before payment, like the dataset routes: a refresh during the request does not change its evidence.
  const src = s.sources()
  return {
    key,
    async run(): Promise<HandlerResult> {
      const make = async () => {
        const r = await compute(src)
        return { ...r.data, data_quality: { ...src.quality(), providers: r.calls } }
      }
      if (src.mode === 'sample' && !src.summariser) {
        const { value, hit } = await s.cache.get(`${src.quality().dataset_version}|${routeId}|${key}`, make)
        return { data: value, cacheStatus: hit ? 'hit' : 'miss' }
      }
      return { data: await make() }
    },
  }
}
