import { createApp } from './app'
import type { Config } from './config'
import { EVIDENCE } from './data/contracts'
import { loadDataset, loadMarketSnapshot, readManifest, type LoadedDataset, type MarketSnapshot } from './data/datasets'
import { DuckDb } from './data/duckdb'
import { ResultCache } from './data/result-cache'
import { createLogger, type Logger } from './http/logger'
import type { MarketServices } from './market-data/services'
import { createHandlers } from './handlers'
import { corpusSources, indexCorpus, isLive, liveSources, summariserOf, type EvidenceSources } from './intelligence/sources'
import { PaymentGate } from './payments/gate'
import { SqliteLedger } from './payments/ledger'
import { localSettler } from './payments/settlement'

/** Everything a running service holds, built from a Config; `close()` releases it in order. */
export async function createRuntime(config: Readonly<Config>, logger: Logger = createLogger(config.logLevel)) {
  const db = await DuckDb.open()
  let snapshot: MarketSnapshot
  let evidence: LoadedDataset
  let sources: EvidenceSources
  try {
    snapshot = await loadMarketSnapshot(db, config.datasetsDir)
    // The China routes answer from live providers when configured, else from the sample evidence corpus.
    evidence = await loadDataset(db, config.datasetsDir, readManifest(config.datasetsDir), EVIDENCE)
    sources = isLive(config.providers)
      ? liveSources(config.providers)
      : corpusSources(db, evidence, await indexCorpus(db, evidence), summariserOf(config.providers))
  } catch (e) {
    db.close()
    throw e
  }
  const ledger = new SqliteLedger(config.ledgerPath)
  const market: MarketServices = { db, cache: new ResultCache(), snapshot: () => snapshot }
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
    handlers: createHandlers(market, { cache: market.cache, sources: () => sources }),
    publicBaseUrl: config.publicBaseUrl,
    logger,
    readiness: async () => {
      const checks: Record<string, unknown> = {}
      try {
        await db.all('SELECT 1 AS ok')
        checks.duckdb = 'ok'
      } catch (e) {
        checks.duckdb = String(e)
      }
      checks.datasets = { flights: snapshot.flights.entry.version, spend: snapshot.spend.entry.version, evidence: evidence.entry.version }
      checks.evidence = sources.mode
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
    logger,
    close() {
      clearInterval(purge)
      db.close()
      ledger.close()
    },
  }
}

export type Runtime = Awaited<ReturnType<typeof createRuntime>>
