/**
 * What the business earns and spends, for /metrics and the console (issue 37): provider spend and
 * requests by provider and route, paid answers by whether the result cache served them, provider calls
 * and failures, and each route's margin since the process started (revenue counted minus priced
 * provider spend; Prometheus sums instances, the console shows this one).
 */
import type { SpendRecord } from '../ledger'

type Spend = Omit<SpendRecord, 'at' | 'requestId' | 'routeId'>
type Prom = typeof import('prom-client')

export function businessMetrics(prom: Pick<Prom, 'Counter' | 'Gauge'>, registers: import('prom-client').Registry[]) {
  const { Counter, Gauge } = prom
  const spendUsd = new Counter({
    name: 'provider_spend_usd_total',
    help: 'USD that paid answers cost at live providers, by provider and route id (priced requests only: PROVIDER_PRICES).',
    labelNames: ['provider', 'route'],
    registers,
  })
  const spendRequests = new Counter({
    name: 'provider_requests_total',
    help: 'Requests paid answers made at providers, by provider and route id (priced or not).',
    labelNames: ['provider', 'route'],
    registers,
  })
  const unpriced = new Counter({
    name: 'provider_unpriced_requests_total',
    help: 'Provider requests with no price configured (not in provider_spend_usd_total), by provider and route id.',
    labelNames: ['provider', 'route'],
    registers,
  })
  const answers = new Counter({
    name: 'x402_paid_answers_total',
    help: 'Answers made for a verified payment, by route id and cache (hit: from the result cache; miss: computed; none: not cached).',
    labelNames: ['route', 'cache'],
    registers,
  })
  const calls = new Counter({
    name: 'provider_calls_total',
    help: 'Calls to evidence providers, by provider and outcome (ok: answered, possibly empty; failed: error, timeout or rate limit).',
    labelNames: ['provider', 'outcome'],
    registers,
  })
  const callSeconds = new Counter({
    name: 'provider_call_seconds_total',
    help: 'Seconds spent in calls to evidence providers, by provider (divide by provider_calls_total for the mean).',
    labelNames: ['provider'],
    registers,
  })
  const byRoute = new Map<string, { revenueUsd: number; spendUsd: number; hit: number; miss: number; none: number }>()
  const route = (id: string) => {
    let held = byRoute.get(id)
    if (!held) byRoute.set(id, (held = { revenueUsd: 0, spendUsd: 0, hit: 0, miss: 0, none: 0 }))
    return held
  }
  new Gauge({
    name: 'x402_margin_usd',
    help: 'Revenue counted (x402_revenue_usd_total) minus priced provider spend, by route id, since the process started.',
    labelNames: ['route'],
    registers,
    collect() {
      for (const [id, r] of byRoute) this.set({ route: id }, r.revenueUsd - r.spendUsd)
    },
  })
  return {
    revenue(routeId: string, usd: number) {
      route(routeId).revenueUsd += usd
    },
    spent(routeId: string, spend: readonly Spend[]) {
      for (const record of spend) {
        const labels = { provider: record.provider, route: routeId }
        spendRequests.inc(labels, record.requests)
        if (record.costNanoUsd === null) unpriced.inc(labels, record.requests)
        else {
          const usd = Number(record.costNanoUsd) / 1e9
          spendUsd.inc(labels, usd)
          route(routeId).spendUsd += usd
        }
      }
    },
    answered(routeId: string, cache: 'hit' | 'miss' | undefined) {
      const label = cache ?? 'none'
      answers.inc({ route: routeId, cache: label })
      route(routeId)[label]++
    },
    providerCall(provider: string, failed: boolean, seconds: number) {
      calls.inc({ provider, outcome: failed ? 'failed' : 'ok' })
      callSeconds.inc({ provider }, seconds)
    },
    /** Per route since start: revenue and priced spend (USD), paid answers by cache. */
    routes: () => new Map([...byRoute].map(([id, r]) => [id, { ...r }])),
  }
}
