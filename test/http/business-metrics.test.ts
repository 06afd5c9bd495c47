/** The console's counters and their /metrics lines: provider spend, margin, paid answers by cache, provider calls, answer-time quantiles. */
import { expect, test } from 'bun:test'
import { Counter, Gauge, Registry } from 'prom-client'
import { businessMetrics } from '../../src/http/business-metrics'
import { RequestStats } from '../../src/http/requests/request-stats'
import { ProviderHealth } from '../../src/intelligence/providers/provider-health'

test('spend, margin and paid answers: priced spend in USD against revenue, unpriced requests apart, by route', async () => {
  const registry = new Registry()
  const business = businessMetrics({ Counter, Gauge }, [registry])
  business.revenue('china.trends', 0.08)
  business.revenue('china.trends', 0.08)
  business.spent('china.trends', [
    { provider: 'tikhub', role: 'native', requests: 3, costNanoUsd: 6_000_000n }, // USD 0.006
    { provider: 'searxng', role: 'web', requests: 2, costNanoUsd: null },
  ])
  business.answered('china.trends', 'miss')
  business.answered('china.trends', 'hit')
  business.answered('flights.summary', undefined)
  const text = await registry.metrics()
  expect(text).toContain('provider_spend_usd_total{provider="tikhub",route="china.trends"} 0.006')
  expect(text).toContain('provider_requests_total{provider="searxng",route="china.trends"} 2')
  expect(text).toContain('provider_unpriced_requests_total{provider="searxng",route="china.trends"} 2')
  expect(text).not.toContain('provider_spend_usd_total{provider="searxng"')
  expect(text).toContain('x402_margin_usd{route="china.trends"} 0.154')
  expect(text).toContain('x402_paid_answers_total{route="flights.summary",cache="none"} 1')
  expect(business.routes().get('china.trends')).toEqual({ revenueUsd: 0.16, spendUsd: 0.006, hit: 1, miss: 1, none: 0 })
})

test('answer-time quantiles read off the histogram as histogram_quantile does, over the routes picked', () => {
  const stats = new RequestStats()
  // 10 answers: 8 in (0.01, 0.025], 2 in (0.1, 0.25]; another family's slow answer is not picked.
  for (let i = 0; i < 8; i++) stats.record('/v1/china/trends', 200, 0.02)
  for (let i = 0; i < 2; i++) stats.record('/v1/china/sentiment', 200, 0.2)
  stats.record('/v1/market-data/flights/summary', 200, 30)
  const china = (route: string) => route.startsWith('/v1/china/')
  expect(stats.count(china)).toBe(10)
  // p50: the 5th of 8 in the bucket (0.01, 0.025] -> 0.01 + 0.015 * 5/8.
  expect(stats.quantile(china, 0.5)).toBeCloseTo(0.01 + 0.015 * (5 / 8), 12)
  // p95: 9.5 of 10, the second bucket's (0.1, 0.25] 1.5th of 2 -> 0.1 + 0.15 * 0.75.
  expect(stats.quantile(china, 0.95)).toBeCloseTo(0.1 + 0.15 * 0.75, 12)
  expect(stats.quantile((route) => route.startsWith('/v1/signals/'), 0.5)).toBeNull()
})

test('provider health: calls, failures and times since start, the last call for /ready, each call told to /metrics', () => {
  const health = new ProviderHealth()
  const told: [string, boolean, number][] = []
  health.onCall = (provider, failed, seconds) => told.push([provider, failed, seconds])
  health.note('tikhub', 'ok', undefined, 0.2)
  health.note('tikhub', 'empty', undefined, 0.1)
  health.note('tikhub', 'timeout', 'no answer in 10 s', 10)
  expect(health.stats().tikhub).toMatchObject({ status: 'timeout', error: 'no answer in 10 s', calls: 3, errors: 1, lastSeconds: 10 })
  expect(health.stats().tikhub!.totalSeconds).toBeCloseTo(10.3, 12)
  expect(Object.keys(health.snapshot().tikhub!).sort()).toEqual(['at', 'error', 'status'])
  expect(told).toEqual([
    ['tikhub', false, 0.2],
    ['tikhub', false, 0.1],
    ['tikhub', true, 10],
  ])
})
