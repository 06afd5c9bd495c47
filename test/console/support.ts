/** Paid traffic for the console's tests: several routes, two networks, answers and a refund by release. */
import { expect } from 'bun:test'
import { routeById } from '../../src/catalog'
import { usdToAtomic } from '../../src/core/usdc'
import { join } from 'node:path'
import { history, writeSqliteHistory } from '../../support/ledger-history'
import { createPayer } from '../../support/payer'
import { routeUrl } from '../../support/route-url'
import { startServer } from '../../support/server'

export const TOKEN = 'console-test-token-0123456789'
export const NETWORKS = 'base-sepolia,polygon-amoy'

const ASKS: { id: string; query: Record<string, string>; network: 'base-sepolia' | 'polygon-amoy'; status: number }[] = [
  { id: 'flights.summary', query: { destination: 'Tokyo' }, network: 'base-sepolia', status: 200 },
  { id: 'flights.summary', query: { destination: 'Bangkok' }, network: 'polygon-amoy', status: 200 },
  { id: 'spend.trends', query: { country: 'Japan' }, network: 'base-sepolia', status: 200 },
  { id: 'china.trends', query: { keyword: 'skincare' }, network: 'polygon-amoy', status: 200 },
  { id: 'china.trends', query: { keyword: 'skincare' }, network: 'base-sepolia', status: 200 },
  // Nothing to sell after payment: a 404, the payment released (failed, nothing charged).
  { id: 'china.trends', query: { keyword: 'quokka teapot' }, network: 'base-sepolia', status: 404 },
]

/** Pays for each ask from two wallets; returns the answers' statuses. */
export async function payTraffic(url: string): Promise<number[]> {
  const payers = [createPayer(), createPayer()]
  const statuses: number[] = []
  for (const [i, ask] of ASKS.entries()) {
    const route = routeById.get(ask.id)!
    const proof = await payers[i % 2]!.proof({ value: usdToAtomic(route.priceUsd), network: ask.network, version: 2 })
    const res = await fetch(`${url}${routeUrl(ask.id, ask.query)}`, { headers: { 'x402-payment': proof } })
    if (res.status !== ask.status) console.error(ask.id, await res.text())
    else await res.arrayBuffer()
    statuses.push(res.status)
  }
  expect(statuses).toEqual(ASKS.map((a) => a.status))
  return statuses
}

/** A seller with `days` of made-up history in a ledger file in `dir` (local payments on two networks, the console behind TOKEN). */
export function startSeller(dir: string, days: number, perDay: number) {
  writeSqliteHistory(join(dir, 'ledger.sqlite'), history({ now: Math.floor(Date.now() / 1000), days, perDay }))
  return startServer({
    LEDGER_PATH: join(dir, 'ledger.sqlite'),
    METRICS_TOKEN: TOKEN,
    PAYMENT_MODE: 'local',
    PAYMENT_NETWORKS: NETWORKS,
    WARM_UP_SAMPLE_ANSWERS: 'false',
    // Each test plays its clients at addresses of their own (X-Forwarded-For from loopback): wrong tokens
    // count per address, and one test's guesses must not lock another test's client out.
    TRUSTED_PROXIES: 'loopback',
  })
}

/** The console's figures as a script reads them (the bearer token, JSON); the answer must be a 200. */
export async function consoleFigures(url: string) {
  const res = await fetch(`${url}/console`, { headers: { authorization: `Bearer ${TOKEN}`, accept: 'application/json' } })
  expect(res.status).toBe(200)
  return (await res.json()).data
}
