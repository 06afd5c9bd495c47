/**
 * The console's figures (GET /console as JSON; the page renders the same object): the ledger's revenue
 * as `payments report --by day --since <30 days> --json` prints it (ledger/revenue-report.ts's own code, so the two can
 * never disagree), the same revenue by hour, route and network, buyers, margin, payment states and
 * exposure, and the service's health. Money as exact decimal USD strings with their atomic twins.
 */
import {
  type Business,
  type ChannelSummary,
  isoUtc,
  marginByRoute,
  money,
  noRevenue,
  reportJson,
  revenueJson,
  type RedemptionTotal,
  type RevenueRow,
  totals as totalsOf,
} from '../../ledger'
import { atomicToUsd, nanoToUsd } from '../../core'
import { type DeferredStats, NETWORKS, type RpcState } from '../../payments'
import type { ProviderStats } from '../../intelligence'
import type { businessMetrics } from '../business-metrics'

const DAY = 86_400
const HOUR = 3_600

/** Since the process started, per route: revenue and priced spend (USD), paid answers by cache. */
type RouteCounters = ReturnType<ReturnType<typeof businessMetrics>['routes']>

export interface ConsoleInputs {
  business: Business
  deferred: DeferredStats | null
  /** BATCH_NETWORKS: the channels now, and the chain actions of the 30 days (null without batch-settlement). */
  batch: { channels: ChannelSummary[]; actions: RedemptionTotal[] } | null
  /** /ready's checks (the console shows some of their fields, never a URL or a path). */
  checks: Record<string, unknown>
  ready: boolean
  providers: Record<string, ProviderStats>
  /** Self mode: each network's RPC asked just now (null in the other modes). */
  networks: RpcState[] | null
  routes: RouteCounters
  /** Answer-time quantile (seconds) and count of the requests on the routes whose path starts with a prefix, since start. */
  answerTimes: (prefix: string, quantile: number) => number | null
  requests: (prefix: string) => number
  startedAt: number
}

const ZERO = noRevenue()

/** Every UTC day or hour of a window, oldest first, with its row or zeros. */
function series(rows: readonly RevenueRow[], from: number, step: number, count: number, label: (at: number) => string) {
  const byKey = new Map(rows.map((r) => [r.key, r]))
  return Array.from({ length: count }, (_, i) => {
    const key = label(from + i * step)
    return { key, ...revenueJson(byKey.get(key) ?? ZERO) }
  })
}
const dayOf = (at: number) => isoUtc(at).slice(0, 10)
const hourOf = (at: number) => `${isoUtc(at).slice(0, 10)} ${isoUtc(at).slice(11, 13)}:00`

const networkName = (caip2: string) => Object.values(NETWORKS).find((n) => n.caip2 === caip2)?.name ?? caip2

/** Revenue, spend and margin per route over the 30 days, the routes that lose most first; the cache share since start. */
function margins(business: Business, routes: RouteCounters) {
  const spent = new Map(marginByRoute(business.days).map((m) => [m.route, m]))
  const names = new Set([...business.days.routes.map((r) => r.key), ...spent.keys()])
  return [...names]
    .map((route) => {
      const revenueAtomic = business.days.revenueByRoute[route] ?? 0n
      const cost = spent.get(route)
      const marginNano = revenueAtomic * 1000n - (cost?.costNano ?? 0n)
      const since = routes.get(route)
      const cached = since ? since.hit + since.miss : 0
      return {
        route,
        ...money('revenue', revenueAtomic),
        provider_cost_usd: nanoToUsd(cost?.costNano ?? 0n),
        margin_usd: nanoToUsd(marginNano),
        margin_nano_usd: marginNano.toString(),
        unpriced_requests: cost?.unpricedRequests ?? 0,
        cache_served_share: cached ? Math.round((1000 * since!.hit) / cached) / 1000 : null,
        answers_since_start: since ? since.hit + since.miss + since.none : 0,
        marginNano,
      }
    })
    .sort((left, right) =>
      left.marginNano < right.marginNano ? -1 : left.marginNano > right.marginNano ? 1 : left.route.localeCompare(right.route),
    )
    .map(({ marginNano: _, ...line }) => line)
}

/** Batch-settlement per network: what buyers hold, what vouchers charged and is not claimed yet, and the claims and settlements. */
function batchExposure(batch: ConsoleInputs['batch']) {
  if (!batch) return null
  const acted = (network: string, kind: string) => batch.actions.find((a) => a.network === network && a.kind === kind)
  const networks = new Set([...batch.channels.map((c) => c.network), ...batch.actions.map((a) => a.network)])
  return [...networks].map((network) => {
    const channels = batch.channels.find((c) => c.network === network)
    return {
      network: networkName(network),
      channels: channels?.channels ?? 0,
      // Still the buyers': what they deposited less what the seller claimed.
      deposited_usd: atomicToUsd(BigInt(channels?.balance ?? '0') - BigInt(channels?.claimed ?? '0')),
      unclaimed_usd: atomicToUsd(BigInt(channels?.unclaimed ?? '0')),
      unclaimed_channels: channels?.unclaimedChannels ?? 0,
      claims_30d: acted(network, 'claim')?.count ?? 0,
      settled_30d_usd: atomicToUsd(BigInt(acted(network, 'settle')?.amountAtomic ?? '0')),
      refunds_30d: acted(network, 'refund')?.count ?? 0,
    }
  })
}

function exposure(business: Business, deferred: DeferredStats | null, batch: ConsoleInputs['batch']) {
  const unsettled = business.days.unsettled
  const oldest = unsettled[0]
  return {
    unsettled_count: unsettled.length,
    ...money(
      'unsettled',
      unsettled.reduce((t, p) => t + p.amountAtomic, 0n),
    ),
    oldest_pending_at: oldest ? isoUtc(oldest.createdAt) : null,
    oldest_pending_age_seconds: oldest ? business.now - oldest.createdAt : null,
    deferred: deferred && {
      queued: deferred.queued,
      in_flight: deferred.inFlight,
      oldest_age_seconds: deferred.oldestAgeSeconds,
      soonest_expiry_seconds: deferred.soonestExpirySeconds,
      unsettled_usd: atomicToUsd(deferred.unsettledAtomic),
      largest_payer_unsettled_usd: atomicToUsd(deferred.largestPayerAtomic),
      payer_cap_usd: atomicToUsd(deferred.payerCapAtomic),
      payers_refused: deferred.payersRefused,
    },
    batch: batchExposure(batch),
  }
}

export type ConsoleFigures = ReturnType<typeof consoleFigures>

export function consoleFigures(input: ConsoleInputs) {
  const business = input.business
  const report = reportJson(business.days, 'day', business.since)
  const payers = new Map(business.payersByDay.map((p) => [p.day, p.payers]))
  const totals = report.totals
  return {
    generated_at: isoUtc(business.now),
    window: { days_from: isoUtc(business.since), hours_from: isoUtc(business.hoursSince), to: isoUtc(business.now) },
    report,
    by_day: series(business.days.groups, business.since, DAY, 30, dayOf).map((d) => ({ ...d, payers: payers.get(d.key) ?? 0 })),
    by_hour: series(business.hours, business.hoursSince, HOUR, 48, hourOf),
    by_route: business.days.routes.map((g) => ({ key: g.key, ...revenueJson(g) })),
    by_network: business.networks.map((g) => ({ key: g.key, name: networkName(g.key), ...revenueJson(g) })),
    buyers: {
      payers: business.buyers.payers,
      repeat_payers: business.buyers.repeat,
      ...money('repeat_revenue', business.buyers.repeatAtomic),
      repeat_revenue_share: shareOf(business.buyers.repeatAtomic, totalsOf(business.days).servedAtomic),
    },
    margin: margins(business, input.routes),
    payments: {
      served_count: totals.served_count,
      settled_count: totals.settled_count,
      local_count: totals.local_count,
      pending_count: totals.pending_count,
      failed_count: totals.failed_count,
      released_count: business.failed.released,
      settlement_failed_count: business.failed.settlementFailed,
    },
    exposure: exposure(business, input.deferred, input.batch),
    reconciliation: {
      reconciled_events: report.event_counts.reconciled ?? 0,
      last_reconciled_at: business.lastReconciledAt === null ? null : isoUtc(business.lastReconciledAt),
    },
    health: health(input),
  }
}

const shareOf = (part: bigint, whole: bigint) => (whole === 0n ? null : Number((part * 10_000n) / whole) / 10_000)

/** The route families of the answer times: path prefixes. */
export const FAMILIES = [
  { family: 'China intelligence', prefix: '/v1/china/' },
  { family: 'weekly signals', prefix: '/v1/signals/' },
  { family: 'market data', prefix: '/v1/market-data/' },
  { family: 'capabilities', prefix: '/v1/capabilities/' },
] as const

const pick = (value: unknown, fields: readonly string[]) =>
  value && typeof value === 'object'
    ? Object.fromEntries(fields.filter((f) => f in value).map((f) => [f, (value as Record<string, unknown>)[f]]))
    : null

function health(input: ConsoleInputs) {
  const checks = input.checks
  const datasets = checks.datasets as
    | {
        loaded_at?: string
        versions?: Record<string, string>
        periods?: Record<string, { from: string; to: string }>
        last_reload_error?: string
      }
    | undefined
  const ms = (s: number | null) => (s === null ? null : Math.round(s * 10_000) / 10)
  const routes = [...input.routes.values()]
  const hits = routes.reduce((n, r) => n + r.hit, 0)
  const cached = hits + routes.reduce((n, r) => n + r.miss, 0)
  return {
    ready: input.ready,
    since: isoUtc(input.startedAt),
    ledger: pick(checks.ledger, ['backend', 'writable', 'status', 'since_seconds', 'error']),
    facilitator: pick(checks.facilitator, ['reachable', 'since_seconds', 'error']),
    chain: pick(checks.chain, ['reachable', 'since_seconds', 'error']),
    networks: input.networks,
    providers: Object.entries(input.providers).map(([name, p]) => ({
      name,
      last_status: p.status,
      last_at: p.at,
      last_error: p.error ?? null,
      calls: p.calls,
      errors: p.errors,
      last_ms: Math.round(p.lastSeconds * 1000),
      mean_ms: p.calls ? Math.round((p.totalSeconds / p.calls) * 1000) : null,
    })),
    datasets: {
      loaded_at: datasets?.loaded_at ?? null,
      versions: datasets?.versions ?? {},
      periods: datasets?.periods ?? {},
      last_reload_error: datasets?.last_reload_error ?? null,
    },
    paid_answer_cache: { hits, answers: cached, hit_ratio: cached ? Math.round((1000 * hits) / cached) / 1000 : null },
    answer_times: FAMILIES.map(({ family, prefix }) => ({
      family,
      requests: input.requests(prefix),
      p50_ms: ms(input.answerTimes(prefix, 0.5)),
      p95_ms: ms(input.answerTimes(prefix, 0.95)),
    })),
  }
}
