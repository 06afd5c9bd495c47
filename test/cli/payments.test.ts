import { beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseSince } from '../../src/cli/payments'
import { atomicToUsd as usd } from '../../src/core/usdc'
import { SqliteLedger } from '../../src/ledger/sqlite'
import type { PaymentClaim } from '../../src/ledger/contract'
import { runCli } from '../../support/cli-run'

let path: string

const DAY1 = Date.parse('2026-11-20T10:00:00Z') / 1000
const DAY2 = Date.parse('2026-11-21T10:00:00Z') / 1000
const claim = (key: string, route: string, amount: string, payer: string): PaymentClaim => ({
  key,
  network: 'eip155:84532',
  payer,
  nonce: `0x${key}${'0'.repeat(20)}`,
  routeId: route,
  fingerprint: key,
  amountAtomic: amount,
  requestId: `req_${key}`,
  validBefore: String(DAY2 + 600),
})
const art = (id: string) => ({ id, body: '{}', expiresAt: DAY2 + 86400 })

beforeAll(async () => {
  path = join(mkdtempSync(join(tmpdir(), 'report-')), 'ledger.sqlite')
  const l = new SqliteLedger(path)
  // Day 1: two settled summaries by payer A, one months answer verified offline (local mode) by payer B.
  l.claim(claim('a1', 'flights.summary', '100000', '0xaaa'), DAY1, 0)
  l.complete('a1', art('x1'), DAY1, { kind: 'settled', txHash: '0x01' })
  l.claim(claim('a2', 'flights.summary', '100000', '0xaaa'), DAY1, 0)
  l.complete('a2', art('x2'), DAY1, { kind: 'settled', txHash: '0x02' })
  l.claim(claim('b1', 'flights.months', '30000', '0xbbb'), DAY1, 0)
  l.complete('b1', art('x3'), DAY1)
  // Day 2: one pending aggregate and one failed summary.
  l.claim(claim('c1', 'flights.aggregate', '160000', '0xccc'), DAY2, 0)
  l.park('c1', art('x4'), DAY2, '0xdead')
  l.claim(claim('d1', 'flights.summary', '100000', '0xddd'), DAY2, 0)
  l.release('d1', DAY2)
  l.record({
    event: 'pending',
    at: DAY2,
    key: 'c1',
    requestId: 'req_c1',
    routeId: 'flights.aggregate',
    payer: '0xccc',
    amountAtomic: '160000',
    nonce: '0xc1',
    network: 'eip155:84532',
    txHash: '0xdead',
  })
  await l.durable()
  l.close()
})

const cli = (...args: string[]) => runCli(['payments', ...args], { LEDGER_PATH: path })

const row = (out: string, key: string) =>
  out
    .split('\n')
    .find((l) => l.startsWith(`${key} `))
    ?.trim()
    .split(/\s{2,}/)

describe('payments report', () => {
  test('by route: paid answers, USD, settled vs local USD, pending and failed, with totals and the unsettled list', async () => {
    const { out, code } = await cli('report')
    expect(code).toBe(0)
    expect(row(out, 'flights.summary')).toEqual(['flights.summary', '2', '0.20', '0.20', '0.00', '0', '0.00', '1'])
    expect(row(out, 'flights.months')).toEqual(['flights.months', '1', '0.03', '0.00', '0.03', '0', '0.00', '0'])
    expect(row(out, 'flights.aggregate')).toEqual(['flights.aggregate', '0', '0.00', '0.00', '0.00', '1', '0.16', '0'])
    expect(row(out, 'total')).toEqual(['total', '3', '0.23', '0.20', '0.03', '1', '0.16', '1'])
    expect(out).toContain('Unsettled (pending) — 1')
    expect(out).toMatch(/2026-11-21 10:00:00 +flights\.aggregate +0xccc +0\.16 +0xc1000000… +0xdead +req_c1/)
    expect(out).toContain('Payment events: pending 1')
  })

  test('by day, by payer and by network', async () => {
    const byDay = (await cli('report', '--by', 'day')).out
    expect(row(byDay, '2026-11-20')).toEqual(['2026-11-20', '3', '0.23', '0.20', '0.03', '0', '0.00', '0'])
    expect(row(byDay, '2026-11-21')).toEqual(['2026-11-21', '0', '0.00', '0.00', '0.00', '1', '0.16', '1'])
    const byPayer = (await cli('report', '--by', 'payer')).out
    expect(row(byPayer, '0xaaa')).toEqual(['0xaaa', '2', '0.20', '0.20', '0.00', '0', '0.00', '0'])
    // PAYMENT_NETWORKS: revenue per network, by CAIP-2 id (every payment here is on Base Sepolia).
    const byNetwork = (await cli('report', '--by', 'network')).out
    expect(row(byNetwork, 'eip155:84532')).toEqual(['eip155:84532', '3', '0.23', '0.20', '0.03', '1', '0.16', '1'])
  })

  test('--since keeps later payments only; --json gives the same numbers under names that say what they hold', async () => {
    const { out, code } = await cli('report', '--since', '2026-11-21', '--json')
    expect(code).toBe(0)
    const none = {
      served_count: 0,
      served_usd: '0.00',
      served_atomic: '0',
      settled_count: 0,
      settled_usd: '0.00',
      settled_atomic: '0',
      local_count: 0,
      local_usd: '0.00',
      local_atomic: '0',
    }
    expect(JSON.parse(out)).toEqual({
      by: 'route',
      since: '2026-11-21T00:00:00Z',
      groups: [
        { key: 'flights.aggregate', ...none, pending_count: 1, pending_usd: '0.16', pending_atomic: '160000', failed_count: 0 },
        { key: 'flights.summary', ...none, pending_count: 0, pending_usd: '0.00', pending_atomic: '0', failed_count: 1 },
      ],
      totals: { ...none, pending_count: 1, pending_usd: '0.16', pending_atomic: '160000', failed_count: 1 },
      unsettled: [
        {
          created_at: '2026-11-21T10:00:00Z',
          route: 'flights.aggregate',
          payer: '0xccc',
          amount_usd: '0.16',
          amount_atomic: '160000',
          nonce: `0xc1${'0'.repeat(20)}`,
          tx_hash: '0xdead',
          request_id: 'req_c1',
          valid_before_unix: String(DAY2 + 600),
        },
      ],
      event_counts: { pending: 1 },
      provider_spend: [],
      margin_by_route: [],
    })
  })

  test('--json all time: the totals line of the table, settled and local apart; since is null', async () => {
    const r = JSON.parse((await cli('report', '--json')).out)
    expect(r.since).toBeNull()
    expect(r.totals).toEqual({
      served_count: 3,
      served_usd: '0.23',
      served_atomic: '230000',
      settled_count: 2,
      settled_usd: '0.20',
      settled_atomic: '200000',
      local_count: 1,
      local_usd: '0.03',
      local_atomic: '30000',
      pending_count: 1,
      pending_usd: '0.16',
      pending_atomic: '160000',
      failed_count: 1,
    })
    expect(r.groups.find((g: any) => g.key === 'flights.summary')).toMatchObject({
      served_count: 2,
      served_usd: '0.20',
      served_atomic: '200000',
      settled_usd: '0.20',
    })
  })

  test('bad usage exits 2 with a message; a missing ledger exits 1', async () => {
    expect(await cli('report', '--by', 'week')).toMatchObject({
      code: 2,
      err: expect.stringContaining('--by: expected route, day, payer or network, got "week"'),
    })
    expect(await cli('report', '--since', 'yesterday')).toMatchObject({
      code: 2,
      err: expect.stringContaining('--since: expected YYYY-MM-DD'),
    })
    expect(await cli('refund')).toMatchObject({ code: 2 })
    expect((await runCli(['payments', 'report'], { LEDGER_PATH: join(tmpdir(), 'no-such-dir', 'ledger.sqlite') })).code).toBe(1)
  })
})

describe('provider spend in the report', () => {
  let spendPath: string
  beforeAll(async () => {
    spendPath = join(mkdtempSync(join(tmpdir(), 'spend-')), 'ledger.sqlite')
    const l = new SqliteLedger(spendPath)
    // Two paid trends answers (0.08 each): the first cold (4 web pages at 0.005, a model call priced by tokens), the second a cache hit.
    for (const k of ['t1', 't2']) {
      l.claim(claim(k, 'china.trends', '80000', '0xaaa'), DAY2, 0)
      l.complete(k, art(`y${k}`), DAY2, { kind: 'settled', txHash: `0x${k}` })
    }
    l.recordSpend({
      at: DAY2,
      requestId: 'req_t1',
      routeId: 'china.trends',
      provider: 'bocha (api.bochaai.com)',
      role: 'web',
      requests: 4,
      costNanoUsd: 20_000_000n,
    })
    l.recordSpend({
      at: DAY2,
      requestId: 'req_t1',
      routeId: 'china.trends',
      provider: 'chat-completions (api.deepseek.com, deepseek-chat)',
      role: 'summary',
      requests: 1,
      inputTokens: 3000,
      outputTokens: 400,
      costNanoUsd: 1_008_000n,
    })
    // A failed sentiment request still cost its provider requests (no price configured for that provider).
    l.recordSpend({
      at: DAY2,
      requestId: 'req_s1',
      routeId: 'china.sentiment',
      provider: 'searxng (searx.internal)',
      role: 'web',
      requests: 3,
      costNanoUsd: null,
    })
    await l.durable()
    l.close()
  })
  const report = async (...args: string[]) => (await runCli(['payments', 'report', ...args], { LEDGER_PATH: spendPath })).out

  test("requests, tokens and priced cost per route and provider, and each route's revenue against it", async () => {
    const out = await report()
    expect(row(out, 'china.trends')).toEqual(['china.trends', '2', '0.16', '0.16', '0.00', '0', '0.00', '0'])
    expect(out).toMatch(/china\.trends +bocha \(api\.bochaai\.com\) +1 +4 +0 +0 +0\.02 +0/)
    expect(out).toMatch(/china\.trends +chat-completions \(api\.deepseek\.com, deepseek-chat\) +1 +1 +3000 +400 +0\.001008 +0/)
    expect(out).toMatch(/china\.sentiment +searxng \(searx\.internal\) +1 +3 +0 +0 +0\.00 +3/)
    // Revenue 0.16 against 0.021008 of priced provider cost.
    expect(out).toMatch(/china\.trends +0\.16 +0\.021008 +0\.138992 +0/)
    expect(out).toMatch(/china\.sentiment +0\.00 +0\.00 +0\.00 +3/)
    const json = JSON.parse(await report('--json'))
    expect(json.margin_by_route).toEqual([
      {
        route: 'china.sentiment',
        revenue_usd: '0.00',
        revenue_atomic: '0',
        provider_cost_usd: '0.00',
        provider_cost_nano_usd: '0',
        margin_usd: '0.00',
        unpriced_requests: 3,
      },
      {
        route: 'china.trends',
        revenue_usd: '0.16',
        revenue_atomic: '160000',
        provider_cost_usd: '0.021008',
        provider_cost_nano_usd: '21008000',
        margin_usd: '0.138992',
        unpriced_requests: 0,
      },
    ])
    expect(json.provider_spend.find((s: any) => s.provider.startsWith('chat'))).toMatchObject({
      answers: 1,
      requests: 1,
      input_tokens: 3000,
      output_tokens: 400,
      cost_usd: '0.001008',
    })
  })
})

test('payments --help and the top-level help name every payments subcommand', async () => {
  const { out, code } = await cli('--help')
  expect(code).toBe(0)
  for (const sub of ['report', 'reconcile', 'export', 'backup']) expect(out).toContain(`  payments ${sub}`)
  expect((await runCli(['--help'])).out).toContain('china-market-intel payments report|reconcile|export|backup ')
})

test('helpers: --since forms and USD formatting of atomic USDC', () => {
  expect(parseSince('2026-11-21')).toBe(DAY2 - 10 * 3600)
  expect(parseSince('7d', 1_000_000_000_000)).toBe(1_000_000_000 - 7 * 86400)
  expect(() => parseSince('2026-13-45')).toThrow('--since')
  expect([usd(0n), usd(30_000n), usd(100_000n), usd(1_234_567n), usd(12_000_000n)]).toEqual(['0.00', '0.03', '0.10', '1.234567', '12.00'])
  expect([usd(-50_000n), usd(-1_234_567n), usd(-12_000_000n)]).toEqual(['-0.05', '-1.234567', '-12.00'])
})
