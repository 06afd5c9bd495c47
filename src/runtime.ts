import { createApp } from './app'
import type { Config } from './config'
import { DuckDb } from './data/duckdb'
import { DatasetStore } from './data/store'
import { ResultCache } from './data/result-cache'
import { createLogger, type Logger } from './http/logger'
import type { MarketServices } from './market-data/services'
import type { SignalServices } from './signals/services'
import { createHandlers } from './handlers'
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
    handlers: createHandlers({ market, signals }),
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
      checks.datasets = store.status()
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
