/** What an operator sees of a runtime: /ready's checks, the providers' calls on /metrics, and the seller's console. */
import type { Config } from '../config'
import type { DataFollower, DuckDb } from '../data'
import type { Metrics } from '../http'
import type { PaymentLedger } from '../ledger'
import type { EvidenceSources } from '../intelligence'
import type { DeferredStats, FacilitatorHealth, RpcState } from '../payments'
import { consoleSource } from './console-source'
import { readiness } from './readiness'
import type { SharedState } from './shared-state'

export function monitoring(
  config: Readonly<Config>,
  parts: {
    db: DuckDb
    store: Parameters<typeof readiness>[2]
    live: EvidenceSources | null
    shared: SharedState | undefined
    corpus: Parameters<typeof readiness>[5]
    ledger: PaymentLedger
    facilitator: { health: FacilitatorHealth } | undefined
    chain: { health: FacilitatorHealth; networks?: () => Promise<RpcState[]> } | undefined
    follower: DataFollower | undefined
    metrics: Metrics
    deferred: { stats(): DeferredStats } | undefined
  },
) {
  const { live, shared, facilitator, chain, follower, deferred, metrics } = parts
  const ready = readiness(config, parts.db, parts.store, live, shared, parts.corpus, {
    ledger: parts.ledger,
    ...(facilitator ? { facilitator: facilitator.health } : {}),
    ...(chain ? { chain: chain.health } : {}),
    ...(follower ? { dataSource: follower } : {}),
  })
  if (live?.health) live.health.onCall = metrics.providerCall
  const seller = consoleSource({
    ledger: parts.ledger,
    metrics,
    readiness: ready,
    ...(deferred ? { deferred } : {}),
    ...(live?.health ? { providers: live.health } : {}),
    ...(chain?.networks ? { networks: chain.networks } : {}),
    batch: config.batch !== undefined,
  })
  return { ready, seller }
}
