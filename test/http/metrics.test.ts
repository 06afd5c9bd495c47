import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createPayer } from '../../support/payer'
import { testRuntime } from '../../support/runtime'

let rt: Awaited<ReturnType<typeof testRuntime>>
const payer = createPayer()
const SUMMARY = '/v1/market-data/flights/summary?destination=Tokyo'

beforeAll(async () => {
  rt = await testRuntime()
})
afterAll(() => rt.close())

const metric = (text: string, line: string) => {
  const m = new RegExp(`^${line.replace(/[{}()[\]."+]/g, (c) => `\\${c}`)} (\\S+)$`, 'm').exec(text)
  return m ? Number(m[1]) : undefined
}

test('/metrics is Prometheus text: requests by route and status, latency, payments and revenue by route, cache, DuckDB pool', async () => {
  expect((await rt.get(SUMMARY)).status).toBe(402)
  expect((await rt.get(SUMMARY)).status).toBe(402)
  expect((await rt.get(SUMMARY, { 'x402-payment': await payer.proof({ value: 100_000n }) })).status).toBe(200)
  expect((await rt.get('/v1/market-data/flights/summary?destination=Atlantis')).status).toBe(404)
  const res = await rt.get('/metrics')
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toStartWith('text/plain')
  const text = await res.text()
  expect(metric(text, 'http_requests_total{route="/v1/market-data/flights/summary",status="402"}')).toBe(2)
  expect(metric(text, 'http_requests_total{route="/v1/market-data/flights/summary",status="200"}')).toBe(1)
  expect(metric(text, 'http_requests_total{route="/v1/market-data/flights/summary",status="404"}')).toBe(1)
  expect(metric(text, 'http_request_duration_seconds_count{route="/v1/market-data/flights/summary"}')).toBe(4)
  expect(metric(text, 'x402_payment_events_total{route="flights.summary",event="verified"}')).toBe(1)
  expect(metric(text, 'x402_payments_total{route="flights.summary",settlement="local"}')).toBe(1)
  expect(metric(text, 'x402_revenue_usd_total{route="flights.summary",settlement="local"}')).toBeCloseTo(0.1, 9)
  expect(metric(text, 'x402_settlements_total{mode="local",outcome="local"}')).toBe(1)
  expect(
    (metric(text, 'result_cache_requests_total{result="hit"}') ?? 0) + (metric(text, 'result_cache_requests_total{result="miss"}') ?? 0),
  ).toBeGreaterThan(0)
  expect(text).toContain('# TYPE duckdb_pool_wait_seconds histogram')
})

test('/metrics says where memory goes: resident set, JavaScript heap, the result cache (grown by a paid answer) and DuckDB', async () => {
  const before = await rt.get('/metrics').then((res) => res.text())
  const cached = metric(before, 'result_cache_bytes')!
  expect(
    (await rt.get('/v1/market-data/flights/summary?destination=Paris', { 'x402-payment': await payer.proof({ value: 100_000n }) })).status,
  ).toBe(200)
  const text = await rt.get('/metrics').then((res) => res.text())
  expect(metric(text, 'process_resident_memory_bytes')).toBeGreaterThan(50 * 2 ** 20)
  expect(metric(text, 'process_heap_bytes')).toBeGreaterThan(2 ** 20)
  expect(metric(text, 'result_cache_bytes')).toBeGreaterThan(cached)
  expect(metric(text, 'result_cache_entries')).toBeGreaterThanOrEqual(1)
  // DuckDB's own memory, under the configured limit (the evidence corpus is searched through its index on disk, not held there).
  expect(metric(text, 'duckdb_memory_bytes')).toBeGreaterThan(0)
  expect(metric(text, 'duckdb_memory_bytes')).toBeLessThan(1024 * 2 ** 20)
})

test('with METRICS_TOKEN, /metrics needs the bearer token and is a 404 envelope without it', async () => {
  const locked = await testRuntime({ METRICS_TOKEN: 'a-long-enough-token' })
  try {
    const denied = await locked.get('/metrics')
    expect(denied.status).toBe(404)
    expect((await denied.json()).error.code).toBe('not_found')
    expect((await locked.get('/metrics', { authorization: 'Bearer wrong-token-of-length' })).status).toBe(404)
    const ok = await locked.get('/metrics', { authorization: 'Bearer a-long-enough-token' })
    expect(ok.status).toBe(200)
    expect(await ok.text()).toContain('# TYPE http_requests_total counter')
  } finally {
    locked.close()
  }
})
