import { createApp } from './app'
import type { Config } from './config'
import { DuckDb } from './data/duckdb'
import { DatasetStore, type DataSnapshot } from './data/store'
import { ResultCache } from './data/result-cache'
import { createLogger, type Logger } from './http/logger'
import type { MarketServices } from './market-data/services'
import type { SignalServices } from './signals/services'
import { createHandlers } from './handlers'
import { corpusSources, isLive, liveSources, summariserOf, type EvidenceSources } from './intelligence/sources'
import type { IntelligenceServices } from './intelligence/services'
import { PaymentGate } from './payments/gate'
import { SqliteLedger } from './payments/ledger'
import { localSettler, type Settler } from './payments/settlement'
import { FacilitatorSettler } from './payments/facilitator-settler'
import { Reconciler } from './payments/reconciler'
import { createMetrics, type Metrics } from './http/metrics'
import { RateLimiter } from './http/rate-limit'
import { NETWORKS } from './payments/networks'
import { HTTPFacilitatorClient } from '@x402/core/http'

/** The settler of the configured payment mode, and the reconciler of its pending settlements. */
async function paymentsFor(config: Readonly<Config>, ledger: SqliteLedger, metrics: Metrics, logger: Logger): Promise<{ settler: Settler; reconciler?: Reconciler }> {
  if (config.paymentMode === 'local') return { settler: localSettler }
  let settler: Settler
  if (config.paymentMode === 'facilitator') {
    const headers = config.facilitatorHeaders
    const client = new HTTPFacilitatorClient({
      url: config.facilitatorUrl!,
      timeoutMs: config.facilitatorTimeoutMs,
      ...(headers ? { createAuthHeaders: async () => ({ verify: headers, settle: headers, supported: headers }) } : {}),
    })
    settler = new FacilitatorSettler('facilitator', client)
    // Not awaited: a facilitator that is down at start-up is reported, and payments answer 502 until it is back.
    const network = NETWORKS[config.network]
    client.getSupported().then(
      (s) => {
        if (!s.kinds.some((k) => k.scheme === 'exact' && ([network.caip2, network.name] as string[]).includes(k.network))) {
          logger.warn('facilitator does not list the exact scheme on this network', { facilitator: config.facilitatorUrl, network: network.caip2 })
        }
      },
      (e: unknown) => logger.warn('facilitator /supported failed', { facilitator: config.facilitatorUrl, error: String(e) }),
    )
  } else {
    const { createEvmFacilitator } = await import('./payments/evm-facilitator')
    const { facilitator } = createEvmFacilitator({
      network: config.network, rpcUrl: config.rpcUrl, privateKey: config.settlerPrivateKey!, confirmationTimeoutMs: config.facilitatorTimeoutMs,
    })
    settler = new FacilitatorSettler('self', facilitator)
  }
  const { createChainReader } = await import('./payments/chain-reader')
  const reconciler = new Reconciler(ledger, createChainReader(config.network, config.rpcUrl), metrics.payment.paymentEvent)
  if (config.reconcileSeconds > 0) reconciler.start(config.reconcileSeconds, (e) => logger.warn('reconcile pass failed', { error: String(e) }))
  return { settler, reconciler }
}

/** Everything a running service holds, built from a Config; `close()` releases it in order. */
export async function createRuntime(config: Readonly<Config>, logger: Logger = createLogger(config.logLevel)) {
  const loadingMetrics = createMetrics()
  const db = await DuckDb.open()
  let store: DatasetStore
  try {
    store = await DatasetStore.open(db, config.datasetsDir, logger)
  } catch (e) {
    db.close()
    throw e
  }
  if (config.datasetsReloadSeconds > 0) store.watch(config.datasetsReloadSeconds * 1000)
  const metrics = await loadingMetrics
  db.onWait = metrics.poolWait
  // Shared with the other instances on the port (REUSE_PORT): claims decided in the file itself.
  const ledger = new SqliteLedger(config.ledgerPath, { shared: config.reusePort })
  const cache = new ResultCache()
  cache.onLookup = metrics.cache
  const { settler, reconciler } = await paymentsFor(config, ledger, metrics, logger)
  const limits = { ip: new RateLimiter(config.rateLimitIpPerMinute), payer: new RateLimiter(config.rateLimitPayerPerMinute) }
  const market: MarketServices = { db, cache, snapshot: () => store.current().market }
  const signals: SignalServices = { db, cache, snapshot: () => store.current().signals }
  // The China routes answer from live providers when configured, else from the sample evidence corpus
  // of the current dataset version (its sources are built once per version).
  const live = isLive(config.providers) ? liveSources(config.providers) : null
  const summariser = summariserOf(config.providers)
  let corpus: { of: DataSnapshot['evidence']; sources: EvidenceSources } | undefined
  const intelligence: IntelligenceServices = {
    cache,
    ttlSeconds: config.intelligenceCacheTtlSeconds,
    entities: () => store.current().signals.entities,
    sources() {
      if (live) return live
      const evidence = store.current().evidence
      if (corpus?.of !== evidence) corpus = { of: evidence, sources: corpusSources(db, evidence.dataset, evidence.index, summariser) }
      return corpus.sources
    },
  }
  const gate = new PaymentGate({
    network: config.network,
    payTo: config.payTo,
    artifactTtlSeconds: config.artifactTtlSeconds,
    ledger,
    settler,
    ...(reconciler ? { reconciler } : {}),
    metrics: metrics.payment,
  })
  const app = createApp({
    gate,
    ledger,
    handlers: createHandlers({ market, signals, intelligence }),
    publicBaseUrl: config.publicBaseUrl,
    network: config.network,
    payTo: config.payTo,
    logger,
    metrics,
    ...(config.metricsToken ? { metricsToken: config.metricsToken } : {}),
    limits,
    readiness: async () => {
      const checks: Record<string, unknown> = {}
      try {
        await db.all('SELECT 1 AS ok')
        checks.duckdb = 'ok'
      } catch (e) {
        checks.duckdb = String(e)
      }
      checks.datasets = store.status()
      checks.evidence = live ? 'live' : 'sample'
      return { ready: checks.duckdb === 'ok', checks }
    },
  })
  const purge = setInterval(() => ledger.purgeExpired(Math.floor(Date.now() / 1000)), 3600_000)
  purge.unref()
  const sweep = setInterval(() => {
    limits.ip.sweep()
    limits.payer.sweep()
  }, 60_000)
  sweep.unref()

  return {
    app,
    gate,
    ledger,
    settler,
    reconciler,
    metrics,
    limits,
    market,
    signals,
    intelligence,
    store,
    logger,
    close() {
      clearInterval(purge)
      clearInterval(sweep)
      reconciler?.stop()
      store.close()
      db.close()
      ledger.close()
    },
  }
}

export type Runtime = Awaited<ReturnType<typeof createRuntime>>
