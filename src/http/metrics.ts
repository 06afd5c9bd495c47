import type { DeferredStats, PaymentMetrics } from '../payments'
import type { PaymentEvent } from '../ledger'
import { businessMetrics } from './business-metrics'
import { batchGauges } from './batch-metrics'
import { RequestStats } from './requests/request-stats'

/** Prometheus metrics (prom-client) of one service instance, served as text at /metrics. */
export async function createMetrics() {
  // Loaded while DuckDB and the datasets open (~60 ms of module evaluation).
  const { Counter, Gauge, Histogram, Registry } = await import('prom-client')
  const registry = new Registry()
  const registers = [registry]

  const requests = new RequestStats()
  for (const m of requests.metrics()) registry.registerMetric(m as unknown as Parameters<typeof registry.registerMetric>[0])
  const rateLimited = new Counter({
    name: 'rate_limited_total',
    help: 'Requests refused with 429, by scope (ip, payer).',
    labelNames: ['scope'],
    registers,
  })
  const cache = new Counter({
    name: 'result_cache_requests_total',
    help: 'Dataset answers served from the per-version result cache (hit) or computed (miss).',
    labelNames: ['result'],
    registers,
  })
  const poolWait = new Histogram({
    name: 'duckdb_pool_wait_seconds',
    help: 'Time a query waited for a free DuckDB connection (0 when one was idle).',
    registers,
    buckets: [0, 0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
  })
  const unhandledRejections = unhandledRejectionCounter(Counter, registers)
  const watchDeferred = deferredGauges(Gauge, registers)
  const watchPaymentParts = paymentPartGauges(Gauge, registers)
  const watchBatch = batchGauges(Gauge, registers)
  const watchMemory = memoryGauges(Gauge, registers)
  const business = businessMetrics({ Counter, Gauge }, registers)
  const cacheHit = cache.labels('hit')
  const cacheMiss = cache.labels('miss')

  const payment = paymentMetrics(Counter, registers, business)

  return {
    registry,
    contentType: registry.contentType,
    payment,
    request(route: string, status: number, seconds: number) {
      requests.record(route, status, seconds)
    },
    /** SETTLE_MODE=deferred: where the deferred gauges read. */
    watchDeferred,
    /** Where the ledger and facilitator gauges read (what /ready checks of them). */
    watchPaymentParts,
    /** BATCH_NETWORKS: where the batch-settlement gauges read (the ledger). */
    watchBatch,
    /** Where the memory gauges read the result cache's and DuckDB's share. */
    watchMemory,
    watchDataSource: dataSourceMetrics(registry),
    rateLimited(scope: 'ip' | 'payer') {
      rateLimited.inc({ scope })
    },
    cache(hit: boolean) {
      ;(hit ? cacheHit : cacheMiss).inc()
    },
    poolWait(seconds: number) {
      poolWait.observe(seconds)
    },
    unhandledRejections,
    /** Evidence providers' calls (ProviderHealth.onCall). */
    providerCall: business.providerCall,
    /** Per route since start, for the console: revenue, provider spend, paid answers by cache. */
    businessByRoute: business.routes,
    /** Answer-time quantiles and request counts of a set of routes since start, for the console. */
    latency: (of: (route: string) => boolean, fraction: number) => requests.quantile(of, fraction),
    requests: (of: (route: string) => boolean) => requests.count(of),
    text: () => registry.metrics(),
  }
}

/** SETTLE_MODE=deferred: how the background settlements keep up with the chain (no values in sync mode). Returns where they read. */
function deferredGauges(Gauge: typeof import('prom-client').Gauge, registers: import('prom-client').Registry[]) {
  let deferred: (() => DeferredStats) | undefined
  const deferredGauge = (name: string, help: string, read: (stats: DeferredStats) => number | null) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const value = deferred ? read(deferred()) : null
        if (value !== null) this.set(value)
      },
    })
  deferredGauge('x402_deferred_queue_length', 'Deferred settlements waiting for a slot.', (s) => s.queued)
  deferredGauge('x402_deferred_in_flight', 'Deferred settlements being submitted or confirmed now.', (s) => s.inFlight)
  deferredGauge('x402_deferred_queue_oldest_seconds', 'Age of the oldest queued deferred settlement.', (s) => s.oldestAgeSeconds)
  deferredGauge(
    'x402_deferred_queue_expiry_seconds',
    'Seconds before the most urgent queued authorization expires (unsettled at 0).',
    (s) => s.soonestExpirySeconds,
  )
  deferredGauge('x402_deferred_unsettled_usd', 'USD answered and not yet settled, all payers.', (s) => Number(s.unsettledAtomic) / 1e6)
  deferredGauge(
    'x402_deferred_payer_unsettled_max_usd',
    'The most USD one payer has answered and not yet settled (against x402_deferred_payer_cap_usd).',
    (s) => Number(s.largestPayerAtomic) / 1e6,
  )
  deferredGauge(
    'x402_deferred_payer_cap_usd',
    "DEFERRED_MAX_UNSETTLED_USD: a payer's answered-but-unsettled USD beyond which answers wait for their settlement.",
    (s) => Number(s.payerCapAtomic) / 1e6,
  )
  deferredGauge(
    'x402_deferred_settlements_per_block',
    'Mean settlements per block over the last 256 settled.',
    (s) => s.settlementsPerBlock,
  )
  deferredGauge(
    'x402_deferred_payers_refused',
    'Payers settled before their answers after a failed deferred settlement.',
    (s) => s.payersRefused,
  )
  return (stats: () => DeferredStats) => {
    deferred = stats
  }
}

/** Promise rejections no code awaited (cli/serve.ts logs them and keeps running). */
function unhandledRejectionCounter(Counter: typeof import('prom-client').Counter, registers: import('prom-client').Registry[]) {
  return new Counter({
    name: 'unhandled_rejections_total',
    help: 'Promise rejections no code awaited (a library bug worked around: logged, the process keeps running).',
    registers,
  })
}

/** Whether the ledger takes writes and the facilitator answers, as /ready sees them (1 or 0; none in local mode for the facilitator). */
function paymentPartGauges(Gauge: typeof import('prom-client').Gauge, registers: import('prom-client').Registry[]) {
  let parts: { ledgerWritable?: () => boolean; facilitatorReachable?: () => boolean; chainReachable?: () => boolean } = {}
  const gauge = (name: string, help: string, read: () => (() => boolean) | undefined) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const value = read()
        if (value) this.set(value() ? 1 : 0)
      },
    })
  gauge(
    'ledger_writable',
    'The payment ledger takes writes (0: paid requests are refused with 503, /ready says why).',
    () => parts.ledgerWritable,
  )
  gauge(
    'x402_facilitator_reachable',
    'The facilitator answered the last call (0: it has not since; /ready is 503 after X402_FACILITATOR_OUTAGE_SECONDS of it).',
    () => parts.facilitatorReachable,
  )
  gauge(
    'x402_chain_rpc_reachable',
    "Self mode: every network's RPC answered the last payment call (0: it has not since; /ready is 503 after X402_FACILITATOR_OUTAGE_SECONDS of it).",
    () => parts.chainReachable,
  )
  return (watched: typeof parts) => {
    parts = watched
  }
}

export type Metrics = Awaited<ReturnType<typeof createMetrics>>

/** What an instance following a publication counts (data/publish/follow.ts keeps these). */
export interface DataSourceCounts {
  sequence: number
  publishedAt: number
  lastOkAt: number
  refusing: number
  checks: ReadonlyMap<string, number>
  refusals: ReadonlyMap<string, number>
  downloadedBytes: number
}

/**
 * DATA_SOURCE_URL: which publication is served, whether the last check refused one and why (the returned
 * `watchDataSource` says where they read). Read at
 * scrape time from the follower's own counts (custom collectors, as the request stats are).
 */
function dataSourceMetrics(registry: import('prom-client').Registry) {
  let read: (() => DataSourceCounts) | undefined
  const metric = (
    name: string,
    help: string,
    type: 'gauge' | 'counter',
    values: (counts: DataSourceCounts) => { labels: Record<string, string>; value: number }[],
  ) => ({
    name,
    help,
    type,
    aggregator: type === 'gauge' ? 'max' : 'sum',
    async get() {
      return { name, help, type, aggregator: this.aggregator, values: read ? values(read()) : [] }
    },
  })
  const perLabel = (label: string, counts: ReadonlyMap<string, number>) =>
    [...counts].map(([key, value]) => ({ labels: { [label]: key }, value }))
  const metrics = [
    metric('data_source_publication_sequence', 'Sequence of the publication this instance serves (DATA_SOURCE_URL).', 'gauge', (counts) => [
      { labels: {}, value: counts.sequence },
    ]),
    metric('data_source_published_timestamp_seconds', 'When the served publication was signed.', 'gauge', (counts) => [
      { labels: {}, value: counts.publishedAt },
    ]),
    metric(
      'data_source_last_ok_timestamp_seconds',
      'When the source last answered with a publication that was served or installed.',
      'gauge',
      (counts) => [{ labels: {}, value: counts.lastOkAt }],
    ),
    metric(
      'data_source_refusing',
      '1 while the last check refused the publication or could not reach it (/ready says why).',
      'gauge',
      (counts) => [{ labels: {}, value: counts.refusing }],
    ),
    metric(
      'data_source_checks_total',
      'Checks of the publication, by outcome (unchanged, installed, refused, unreachable).',
      'counter',
      (counts) => perLabel('outcome', counts.checks),
    ),
    metric('data_source_refusals_total', 'Publications not installed, by reason.', 'counter', (counts) =>
      perLabel('reason', counts.refusals),
    ),
    metric(
      'data_source_downloaded_bytes_total',
      'Bytes of dataset files downloaded from the publication and verified.',
      'counter',
      (counts) => [{ labels: {}, value: counts.downloadedBytes }],
    ),
  ]
  for (const m of metrics) registry.registerMetric(m as unknown as Parameters<typeof registry.registerMetric>[0])
  return (counts: () => DataSourceCounts) => {
    read = counts
  }
}

/**
 * Where the process's memory goes, so that an operator can tell a growing cache from a leak: resident
 * set, the JavaScript heap, the result cache's estimate and DuckDB's own account.
 */
function memoryGauges(Gauge: typeof import('prom-client').Gauge, registers: import('prom-client').Registry[]) {
  let parts: { resultCache?: () => { bytes: number; entries: number }; duckdb?: () => Promise<number> } = {}
  const gauge = (name: string, help: string, read: () => number | Promise<number> | undefined) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        const value = await read()
        if (value !== undefined) this.set(value)
      },
    })
  gauge('process_resident_memory_bytes', 'Resident memory of the process.', () => process.memoryUsage.rss())
  gauge('process_heap_bytes', 'JavaScript heap in use (objects and strings).', () => process.memoryUsage().heapUsed)
  gauge(
    'result_cache_bytes',
    'Estimated bytes of answers in the result cache (bounded by RESULT_CACHE_MAX_MB).',
    () => parts.resultCache?.().bytes,
  )
  gauge('result_cache_entries', 'Answers in the result cache.', () => parts.resultCache?.().entries)
  gauge('duckdb_memory_bytes', "DuckDB's memory: tables, buffers and caches (bounded by DUCKDB_MEMORY_LIMIT_MB).", () => parts.duckdb?.())
  return (watched: typeof parts) => {
    parts = watched
  }
}

/** Payments, revenue, settlements and reconciliations, as the gate reports them; revenue and spend also feed `business`. */
function paymentMetrics(
  Counter: typeof import('prom-client').Counter,
  registers: import('prom-client').Registry[],
  business: ReturnType<typeof businessMetrics>,
): PaymentMetrics {
  const paymentEvents = new Counter({
    name: 'x402_payment_events_total',
    help: 'Payment events (verified, served, settled, failed, pending, reconciled) by route id.',
    labelNames: ['route', 'event'],
    registers,
  })
  const payments = new Counter({
    name: 'x402_payments_total',
    help: 'Paid answers delivered, by route id and settlement (local = verified offline, settled = on chain).',
    labelNames: ['route', 'settlement'],
    registers,
  })
  const revenue = new Counter({
    name: 'x402_revenue_usd_total',
    help: 'USD of paid answers delivered, by route id and settlement.',
    labelNames: ['route', 'settlement'],
    registers,
  })
  const settlements = new Counter({
    name: 'x402_settlements_total',
    help: 'Settlement attempts after a successful handler, by payment mode and outcome.',
    labelNames: ['mode', 'outcome'],
    registers,
  })
  const reconciled = new Counter({
    name: 'x402_reconciled_total',
    help: 'Pending settlements resolved by the reconciler, by outcome.',
    labelNames: ['outcome'],
    registers,
  })
  return {
    paymentEvent(event: PaymentEvent) {
      paymentEvents.inc({ route: event.routeId, event: event.event })
      const settled =
        event.event === 'served' ? event.detail : event.event === 'reconciled' && event.detail === 'settled' ? 'settled' : undefined
      if (settled) {
        payments.inc({ route: event.routeId, settlement: settled })
        revenue.inc({ route: event.routeId, settlement: settled }, Number(event.amountAtomic) / 1e6)
        business.revenue(event.routeId, Number(event.amountAtomic) / 1e6)
      }
      if (event.event === 'reconciled') reconciled.inc({ outcome: event.detail ?? 'unknown' })
    },
    settlement(mode, outcome) {
      settlements.inc({ mode, outcome })
    },
    spent: business.spent,
    answered: business.answered,
  }
}
