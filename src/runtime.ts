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
import { localSettler } from './payments/settlement'

/** Everything a running service holds, built from a Config; `close()` releases it in order. */
export async function createRuntime(config: Readonly<Config>, logger: Logger = createLogger(config.logLevel)) {
  const db = await DuckDb.open()
  let store: DatasetStore
  try {
    store = await DatasetStore.open(db, config.datasetsDir, logger)
  } catch (e) {
    db.close()
    throw e
  }
  if (config.datasetsReloadSeconds > 0) store.watch(config.datasetsReloadSeconds * 1000)
  const ledger = new SqliteLedger(config.ledgerPath)
  const cache = new ResultCache()
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
    settler: localSettler,
  })
  const app = createApp({
    gate,
    ledger,
    handlers: createHandlers({ market, signals, intelligence }),
    publicBaseUrl: config.publicBaseUrl,
    network: config.network,
    payTo: config.payTo,
    logger,
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

  return {
    app,
    gate,
    ledger,
    market,
    signals,
    intelligence,
    store,
    logger,
    close() {
      clearInterval(purge)
      store.close()
      db.close()
      ledger.close()
    },
  }
}

export type Runtime = Awaited<ReturnType<typeof createRuntime>>
