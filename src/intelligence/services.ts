import type { ResultCache } from '../data/result-cache'
import type { EntityIndex } from './entities'
import type { HandlerResult, Prepared } from '../http/handler'
import type { ProviderReport } from './lanes'
import type { EvidenceSources } from './sources'

/** What the China intelligence handlers need; captured by `chinaHandlers`, read per request. */
export interface IntelligenceServices {
  cache: ResultCache
  /** How long an answer is reused (INTELLIGENCE_CACHE_TTL_SECONDS); 0 computes every request. */
  ttlSeconds: number
  /** The evidence sources of this request (sample corpus or live providers). */
  sources(): EvidenceSources
  /** The entity resolver of the loaded datasets (weekly signals names, places, glossary). */
  entities(): EntityIndex
}

export interface Computed {
  data: Record<string, unknown>
  /** Every provider call made for the answer, reported in `data_quality.providers`. */
  calls: ProviderReport[]
}

/**
 * A prepared evidence request. Answers are reused for INTELLIGENCE_CACHE_TTL_SECONDS (1 h by default):
 * live evidence changes by the hour, not by the second, and a buyer asking again soon gets the same
 * reading at once. Corpus answers are also keyed by the corpus version, so a refresh never serves an
 * old one. `meta.cache_status` says hit or miss; a hit is still a paid request. The key names what was
 * resolved, not how it was written, so `echo` (the parameter as this buyer wrote it) is laid over the
 * shared answer.
 */
export function evidenceAnswer(s: IntelligenceServices, routeId: string, key: string, echo: Record<string, unknown>, compute: (src: EvidenceSources) => Promise<Computed>): Prepared {
  // Bound before payment, like the dataset routes: a refresh during the request does not change its evidence.
  const src = s.sources()
  const entities = s.entities().version
  return {
    key,
    async run(): Promise<HandlerResult> {
      const make = async () => {
        const r = await compute(src)
        return { ...r.data, data_quality: { ...src.quality(), providers: r.calls } }
      }
      if (s.ttlSeconds === 0) return { data: { ...(await make()), ...echo }, cacheStatus: 'miss' }
      const version = src.mode === 'sample' ? src.quality().dataset_version : 'live'
      // Also per entity index: a signals refresh can change what a keyword resolves to.
      const cacheKey = `${version}|e${entities}|${routeId}|${key}`
      const { value, hit } = await s.cache.get(cacheKey, make, s.ttlSeconds * 1000)
      // An answer a failing provider degraded is served once, not reused: the next buyer gets a fresh try.
      const calls = (value.data_quality as { providers: ProviderReport[] }).providers
      if (!hit && calls.some((c) => c.status === 'failed' || c.status === 'timeout')) s.cache.delete(cacheKey)
      return { data: { ...value, ...echo }, cacheStatus: hit ? 'hit' : 'miss' }
    },
  }
}
