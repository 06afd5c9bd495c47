import type { KnownMisses } from './known-misses'
import type { AnswerCache, HandlerResult, Prepared, ProviderSpend } from '../../core'
import type { EntityIndex } from '../names/entities'
import type { ProviderReport } from '../lanes'
import type { EvidenceSources } from '../sources'
import type { WeeklyCreator, WeeklySeries } from '../analysis/weekly'
import { labelled } from './sample-label'

/** The route families whose answers are reused for their own time (see AnswerTtls). */
export type EvidenceFamily = 'trends' | 'sentiment' | 'kols'

/** How long an answer of each family is reused, in seconds; 0 computes every request. */
export type AnswerTtls = Readonly<Record<EvidenceFamily, number>>

/** What the China intelligence handlers need; captured by `chinaHandlers`, read per request. */
export interface IntelligenceServices {
  /** Sample answers (per corpus version, in this process). */
  cache: AnswerCache
  /** Live answers: `cache`, or the one shared by the instances of a PostgreSQL ledger. */
  liveCache?: AnswerCache
  ttls: AnswerTtls
  /** Requests already answered "no evidence": the free 404 before the 402 (known-misses.ts). */
  misses?: KnownMisses
  /** The evidence sources of this request (sample corpus or live providers). */
  sources(): EvidenceSources
  /** The entity resolver of the loaded datasets (weekly signals names, places, glossary). */
  entities(): EntityIndex
  /** The weekly posts of a topic or mentions of a brand (all platforms, or one), when the signals have them. */
  weekly?(entityId: string, platform: string | null): Promise<WeeklySeries | null>
  /** A category's leading creators of the last published week (the weekly creator ranking's top 3). */
  weeklyTopCreators?(category: string): Promise<WeeklyCreator[]>
}

export interface Computed {
  data: Record<string, unknown>
  /** Every provider call made for the answer, reported in `data_quality.providers`. */
  calls: ProviderReport[]
  /** Results the providers returned that are not in the answer, by reason (`data_quality.dropped`). */
  dropped?: Record<string, number>
}

/**
 * A prepared evidence request. Answers are reused for their family's TTL (trends and sentiment 1 h, KOLs
 * 6 h by default): live evidence changes by the hour, not by the second, and a buyer asking again soon
 * gets the same reading at once, without paying the providers again. Corpus answers are also keyed by
 * the corpus version, so a refresh never serves an old one. `meta.cache_status` says hit or miss; a hit
 * is still a paid request. The key names what was resolved, the lanes and the window, not how it was
 * written, so `echo` (the parameter as this buyer wrote it, and how it resolved: the name it matched, the
 * intent words taken off, a correction) is laid over the shared answer. The provider
 * requests of a computation are added to `spend` of the request that ran it (hits cost nothing).
 */
export function evidenceAnswer(
  services: IntelligenceServices,
  family: EvidenceFamily,
  routeId: string,
  key: string,
  echo: Record<string, unknown>,
  compute: (src: EvidenceSources, spend: ProviderSpend[]) => Promise<Computed>,
): Prepared {
  // Bound before payment, like the dataset routes: a refresh during the request does not change its evidence.
  const src = services.sources()
  const entities = services.entities().version
  const live = src.mode === 'live'
  // Also per entity index: a signals refresh can change what a keyword resolves to.
  const cacheKey = `${live ? 'live' : src.quality().dataset_version}|e${entities}|${routeId}|${key}`
  const ttl = services.ttls[family]
  return {
    key,
    known: () => services.misses?.get(cacheKey),
    async run(spend?: ProviderSpend[]): Promise<HandlerResult> {
      const make = async () => {
        const computed = await compute(src, spend ?? [])
        const quality = src.quality()
        return labelled(
          {
            ...computed.data,
            data_quality: { ...quality, ...(computed.dropped ? { dropped: computed.dropped } : {}), providers: computed.calls },
          },
          quality.sample,
        )
      }
      if (ttl === 0) return { data: { ...(await make()), ...echo }, cacheStatus: 'miss' }
      const cache = live ? (services.liveCache ?? services.cache) : services.cache
      const { value, hit } = await cache.get(cacheKey, make, ttl * 1000).catch((error: unknown) => {
        services.misses?.learn(cacheKey, error, ttl * 1000)
        throw error
      })
      // An answer a failing provider degraded is served once, not reused: the next buyer gets a fresh try.
      const calls = (value.data_quality as { providers: ProviderReport[] }).providers
      if (!hit && calls.some((c) => c.status === 'failed' || c.status === 'timeout' || c.status === 'rate_limited'))
        await cache.delete(cacheKey)
      return { data: { ...value, ...echo }, cacheStatus: hit ? 'hit' : 'miss' }
    },
  }
}
