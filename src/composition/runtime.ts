import { createApp } from './app'
import { snapshotVocabulary } from './signals-vocabulary'
import { type Config, ENV, keepSecretsOf } from '../config'
import {
  DataFollower,
  DatasetStore,
  type DataSnapshot,
  DuckDb,
  type Indexers,
  publicationSource,
  readPublicKeys,
  ResultCache,
} from '../data'
import { housekeeping } from './housekeeping'
import { createLogger, type HandlerMap, type Logger } from '../core'
import {
  type CorpusIndex,
  corpusSources,
  type EvidenceSources,
  inBackground,
  indexCorpus,
  type IntelligenceServices,
  isLive,
  KnownMisses,
  liveSetup,
  liveSources,
  requestsWaiting,
  startWarmUp,
  summariserOf,
  WeeklySignals,
} from '../intelligence'
import type { MarketServices } from '../market-data'
import { indexSignals, type SignalServices, type SignalsSnapshot } from '../signals'
import { createHandlers } from './handler-map'
import { readiness, type CreatorPostsState } from './readiness'
import { PaymentGate, signatureRecovery, VerifyGuard } from '../payments'
import { type LedgerRetention, type PaymentLedger, SqliteLedger } from '../ledger'
import { SessionStore } from '../capabilities'
import { serviceMetadata } from '../catalog'
import { openSharedState, type SharedState } from './shared-state'
import pkg from '../../package.json' with { type: 'json' }
import { createMetrics, type Metrics } from '../http'
import { monitoring } from './monitoring'
import { RateLimiter, type RateLimits } from '../paid-call'
import { deferredSettlements, paymentsFor } from './runtime-payments'

/** The domains' indexes of the datasets: the weekly signals (names, weeks) and the evidence corpus's search table. */
export const datasetIndexers = (): Indexers<SignalsSnapshot, CorpusIndex> => ({
  signals: indexSignals,
  evidence: (db, corpus, datasets) => indexCorpus(db, corpus, () => snapshotVocabulary(db, datasets)),
})

type ServiceStore = DatasetStore<SignalsSnapshot, CorpusIndex>
type ServiceSnapshot = DataSnapshot<SignalsSnapshot, CorpusIndex>

/** Resolves once the datasets are loaded and indexed (`current()` can be read). */
const indexed = async (store: ServiceStore) => {
  await store.loaded
  await store.pending()
}

/**
 * The corpus's creator posts of the KOL window, read at background priority once the datasets are
 * indexed; /ready waits for them. After a refresh (a new corpus) the first KOL answer reads them again.
 */
function prepareCorpus(
  store: ServiceStore,
  intelligence: IntelligenceServices,
  logger: Logger,
): { state: () => CreatorPostsState; done: Promise<void> } {
  let state: CreatorPostsState = 'waiting for the datasets'
  const done = (async () => {
    await indexed(store)
    state = 'reading'
    await inBackground(async () => intelligence.sources().prepare?.())
    state = 'ready'
  })().catch((e: unknown) => {
    state = 'read on first use'
    logger.warn("reading the corpus's creator posts ahead failed; the first KOL answer reads them", { error: String(e) })
  })
  return { state: () => state, done }
}

/**
 * Without live providers: the corpus's creator posts of the KOL window read ahead, and
 * (WARM_UP_SAMPLE_ANSWERS, while answers are cached) its answers warmed, owned by `parts`. What /ready
 * reports of them.
 */
function sampleCorpus(
  parts: AsyncDisposableStack,
  config: Readonly<Config>,
  db: DuckDb,
  store: ServiceStore,
  handlers: HandlerMap,
  intelligence: IntelligenceServices,
  logger: Logger,
) {
  const { state: creatorPosts, done: prepared } = prepareCorpus(store, intelligence, logger)
  if (!config.warmUpSampleAnswers || config.intelligenceCacheTtlSeconds === 0) return { creatorPosts, prepared }
  const warm = parts.use(
    startWarmUp({
      handlers,
      indexed: async () => (await indexed(store), store.current().signals.entities),
      quiet: () => !requestsWaiting() && !db.busy,
      repeatSeconds: config.intelligenceCacheTtlSeconds,
      logger,
    }),
  )
  return { creatorPosts, prepared, warm: warm.state }
}

export interface RuntimeOptions {
  /** Awaited before the datasets are indexed: tests hold the build there to observe the service while it builds. */
  beforeIndexing?: () => Promise<void>
}

/**
 * DuckDB and the datasets. The indexes start building once the service is set up (`setUp()`): on two cores
 * their DuckDB threads slowed the rest (compiling the routes) by tens of milliseconds, and a start-up that
 * fails never builds them. Disposing stops the build, then closes DuckDB once nothing uses it.
 */
async function openData(config: Readonly<Config>, logger: Logger, options: RuntimeOptions, metrics: Promise<Metrics>) {
  const db = await DuckDb.open(undefined, config.duckdbMemoryLimitMb)
  let setUp!: { resolve: () => void; reject: (error: Error) => void }
  const afterSetUp = new Promise<void>((resolve, reject) => (setUp = { resolve, reject }))
  let store: ServiceStore | undefined
  // Following a publication: the folder holds a verified copy before the store reads it, and each
  // publication installed later is loaded at once (no manifest polling needed).
  const follower = await following(config, db, logger, async () => {
    if (!store) return undefined
    await store.reload()
    return store.status().last_reload_error
  }).catch((e: unknown) => {
    db.close()
    throw e
  })
  store = await DatasetStore.start(db, config.datasetsDir, datasetIndexers(), {
    logger,
    beforeIndexing: () => afterSetUp.then(options.beforeIndexing),
  }).catch((e: unknown) => {
    void follower?.close()
    db.close()
    throw e
  })
  if (follower) {
    follower.start()
    void metrics.then((loaded) => loaded.watchDataSource(() => follower.metrics()))
  } else if (config.datasetsReloadSeconds > 0) store.watch(config.datasetsReloadSeconds * 1000)
  const opened = store
  return {
    db,
    store: opened,
    follower,
    setUp: () => setUp.resolve(),
    async [Symbol.asyncDispose]() {
      setUp.reject(new Error('closed before the datasets were indexed'))
      await follower?.close()
      opened.close()
      await opened.loaded.catch(() => {})
      db.close()
    },
  }
}

/** DATA_SOURCE_URL: the follower of the publication, once the folder holds a verified copy of it. */
async function following(config: Readonly<Config>, db: DuckDb, logger: Logger, installed: () => Promise<string | undefined>) {
  if (!config.dataSource) return undefined
  return DataFollower.open({
    source: publicationSource(config.dataSource.url, process.env, config.dataSource.redirectOrigins),
    keys: readPublicKeys(config.dataSource.publicKeys),
    dir: config.datasetsDir,
    pollMs: config.dataSource.pollSeconds * 1000,
    db,
    logger,
    installed,
  })
}

/**
 * The payment ledger. LEDGER_URL: PostgreSQL shared by every instance (with the wrapper sessions, live
 * answers and per-payer limits). Else a SQLite file, shared with the other instances on the port
 * (REUSE_PORT) by deciding claims in the file itself.
 */
async function openLedger(config: Readonly<Config>, logger: Logger) {
  const shared: SharedState | undefined = config.ledgerUrl
    ? await openSharedState({ url: config.ledgerUrl, version: pkg.version, payerPerMinute: config.rateLimitPayerPerMinute, logger })
    : undefined
  const ledger: PaymentLedger =
    shared?.ledger ??
    new SqliteLedger(config.ledgerPath, {
      shared: config.reusePort,
      prunesServed: config.ledgerRetention.servedSeconds !== null,
    })
  return {
    shared,
    ledger,
    async [Symbol.asyncDispose]() {
      await (shared ? shared.close() : ledger.close())
    },
  }
}

/** The China routes' services: live providers when configured, else the sample corpus of the current dataset version. */
function intelligenceServices(config: Readonly<Config>, db: DuckDb, store: ServiceStore, cache: ResultCache, shared?: SharedState) {
  const live = isLive(config.providers) ? liveSources(config.providers) : null
  const summariser = summariserOf(config.providers)
  // The corpus's sources are built once per dataset version, the weekly signals once per signals snapshot.
  let corpus: { of: ServiceSnapshot['evidence']; sources: EvidenceSources } | undefined
  const weekly = new WeakMap<SignalsSnapshot, WeeklySignals>()
  const weeklyOf = () => {
    const snap = store.current().signals
    let signals = weekly.get(snap)
    if (!signals) {
      signals = new WeeklySignals(db, snap.topics.relation, snap.brands.relation, snap.creators.relation, snap.weeks)
      weekly.set(snap, signals)
    }
    return signals
  }
  // A live answer never cites sample figures: beside live evidence, only weekly data that is not a sample.
  const weeklyBeside = () => !live || !store.current().signals.topics.sample
  const misses = new KnownMisses()
  const intelligence: IntelligenceServices = {
    weekly: (entityId, platform) => (weeklyBeside() ? weeklyOf().series(entityId, platform) : Promise.resolve(null)),
    weeklyTopCreators: (category) => (weeklyBeside() ? weeklyOf().topCreators(category) : Promise.resolve([])),
    cache,
    ...(shared ? { liveCache: shared.answers } : {}),
    ttls: { trends: config.intelligenceCacheTtlSeconds, sentiment: config.intelligenceCacheTtlSeconds, kols: config.kolCacheTtlSeconds },
    misses,
    entities: () => store.current().signals.entities,
    sources() {
      if (live) return live
      const evidence = store.current().evidence
      if (corpus?.of !== evidence)
        corpus = {
          of: evidence,
          sources: corpusSources(evidence.dataset, evidence.index, summariser, () => store.current().signals.entities),
        }
      return corpus.sources
    },
  }
  return { intelligence, live, misses }
}

/**
 * What the remembered unpaid 402s depend on (http/unpaid-answers.ts): the datasets, and the requests known
 * to have no evidence (their 404 now comes before the 402). The same object while neither changes.
 */
function generationOf(store: ServiceStore, misses: KnownMisses): () => unknown {
  // Read on the first remembered 402 only: the datasets are still being indexed while the runtime is built.
  let seen = { data: undefined as unknown, misses: -1 }
  return () => {
    const data = store.current()
    if (data !== seen.data || misses.version !== seen.misses) seen = { data, misses: misses.version }
    return seen
  }
}

/** The result cache, and the metrics' view of it and of DuckDB (pool waits, memory). */
function measuredCache(config: Readonly<Config>, db: DuckDb, metrics: Metrics): ResultCache {
  db.onWait = metrics.poolWait
  const cache = new ResultCache({ maxBytes: config.resultCacheMaxBytes })
  cache.onLookup = metrics.cache
  metrics.watchMemory({ resultCache: () => cache.size, duckdb: () => db.memoryBytes() })
  return cache
}

/**
 * Everything a running service holds, built from a Config; `close()` releases it in reverse order. Each
 * part owns its clean-up (a disposable on one stack), so a start-up that fails half-way releases what
 * was opened. Returns once the datasets are loaded; their indexes are built in the background
 * (`store.pending()`): /health answers meanwhile, /ready says `building`, and paid routes wait for them.
 */
export async function createRuntime(
  config: Readonly<Config>,
  logger: Logger = createLogger(config.logLevel),
  options: RuntimeOptions = {},
) {
  await using parts = new AsyncDisposableStack()
  // A configuration built in code rather than read (tests, embedders) has its secrets remembered too.
  keepSecretsOf(config, process.env)
  const loadingMetrics = createMetrics()
  const { db, store, follower, setUp } = parts.use(await openData(config, logger, options, loadingMetrics))
  const metrics = await loadingMetrics
  const { shared, ledger } = parts.use(await openLedger(config, logger))
  const cache = measuredCache(config, db, metrics)
  // A facilitator key the signer refuses stops start-up here (ConfigError), and the stack releases the rest.
  const { settler, reconciler, facilitator, chain, offers, signInVerifier, redeemer } = await paymentsFor(
    config,
    ledger,
    metrics,
    logger,
    shared ? () => shared.registry.leading() : undefined,
  )
  parts.defer(() => (reconciler?.stop(), redeemer?.stop()))
  const deferred = deferredSettlements(config, settler, ledger, reconciler, metrics, logger)
  // Disposed before the reconciler stops and the ledger closes: what is queued is settled first, within the shutdown time.
  if (deferred) parts.defer(() => deferred.drain(config.shutdownTimeoutMs))
  // The per-IP limit stays per instance (the load balancer can limit per IP for all); the per-payer limit
  // is shared by the instances of one PostgreSQL ledger.
  const limits: RateLimits = {
    ip: new RateLimiter(config.rateLimitIpPerMinute),
    ipv6Prefix: config.rateLimitIpv6Prefix,
    payer: shared?.payerLimiter ?? new RateLimiter(config.rateLimitPayerPerMinute),
  }
  const market: MarketServices = { db, cache, snapshot: () => store.current().market }
  const signals: SignalServices = { db, cache, snapshot: () => store.current().signals }
  const { intelligence, live, misses } = intelligenceServices(config, db, store, cache, shared)
  const gate = new PaymentGate({
    offers,
    artifactTtlSeconds: config.artifactTtlSeconds,
    service: serviceMetadata(config.publicBaseUrl),
    ledger,
    settler,
    ...(reconciler ? { reconciler, ...(signInVerifier ? { signInVerifier } : {}) } : {}),
    ...(deferred ? { deferred } : {}),
    ...(config.paymentMode !== 'local' ? { verifyGuard: new VerifyGuard(config.verifyLimits) } : {}),
    metrics: metrics.payment,
    logger,
  })
  const handlers = createHandlers({ market, signals, intelligence }, shared?.sessions ?? new SessionStore())
  const corpus = live ? undefined : sampleCorpus(parts, config, db, store, handlers, intelligence, logger)
  const { ready, seller } = monitoring(config, { db, store, live, shared, corpus, ledger, facilitator, chain, follower, metrics, deferred })
  parts.defer(() => seller.close())
  const app = createApp({
    gate,
    ledger,
    handlers,
    publicBaseUrl: config.publicBaseUrl,
    mcpAllowedOrigins: config.mcpAllowedOrigins,
    offers,
    logger,
    metrics,
    ...metricsAccess(config),
    limits,
    ...(config.trustedProxies ? { trustedProxies: config.trustedProxies } : {}),
    evidence: live ? 'live' : 'sample',
    dataGeneration: generationOf(store, misses),
    indexing: () => store.pending(),
    readiness: ready,
    ...(seller ? { console: seller } : {}),
  })
  parts.use(housekeeping(logger, ledger, limits, config.ledgerRetention, shared))
  setUp()
  // Set up: the runtime owns the parts from here, and `close()` disposes them.
  const owned = parts.move()
  return {
    app,
    gate,
    ledger,
    settler,
    reconciler,
    deferred,
    facilitator,
    /** The networks offered: those configured, less any the facilitator does not settle. */
    offers,
    metrics,
    limits,
    market,
    signals,
    intelligence,
    /** The live evidence providers, when configured (else the China routes answer from the sample corpus). */
    live,
    store,
    follower,
    /** Resolves once the sample corpus's name index is built (or could not be: searches then scan); at once with live providers. */
    corpusPrepared: corpus?.prepared ?? Promise.resolve(),
    logger,
    shared,
    close: () => owned.disposeAsync(),
  }
}

export type Runtime = Awaited<ReturnType<typeof createRuntime>>

/** Who may read `/metrics` (it shows revenue): the token's holders; in production without a token, nobody. */
export const metricsAccess = (config: Readonly<Config>): { metricsAccess?: { token: string } | 'off' } =>
  config.metricsToken ? { metricsAccess: { token: config.metricsToken } } : config.nodeEnv === 'production' ? { metricsAccess: 'off' } : {}
