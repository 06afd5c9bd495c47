/**
 * A flood of validly signed proofs from empty wallets (free to make) against a facilitator-mode instance
 * with a real facilitator on anvil: honest payers the instance has served before are answered throughout,
 * the flood is refused (402 from the facilitator, or 503 verification_busy before anything is claimed),
 * and none of it leaves a row in the ledger file.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { routeById } from '../../../src/catalog'
import { usdToAtomic } from '../../../src/core/usdc'
import { createPayer } from '../../../support/payer'
import { ONE_USDC, startChainAndFacilitator, type ChainAndFacilitator } from '../../../support/chain-and-facilitator'
import { startServer, type StartedServer } from '../../../support/server'
import { requestFrom } from '../../../support/from-address'

const route = routeById.get('flights.summary')!
const price = usdToAtomic(route.priceUsd)
const FLOOD = 150

let onchain: ChainAndFacilitator
let server: StartedServer
let dir: string
beforeAll(async () => {
  onchain = await startChainAndFacilitator()
  dir = mkdtempSync(join(tmpdir(), 'junk-'))
  server = await startServer({ ...onchain.serviceEnv, X402_VERIFY_NEW_PAYERS_PER_SECOND: '5', LEDGER_PATH: join(dir, 'ledger.sqlite') })
}, 60_000)
afterAll(async () => {
  await server?.stop()
  await onchain?.stop()
  rmSync(dir, { recursive: true, force: true })
})

const pay = async (proof: string, city = 'Tokyo') => {
  const res = await fetch(`${server.url}${route.path}?destination=${city}`, { headers: { 'x402-payment': proof } })
  const body = (await res.json()) as { error?: { code: string } }
  return { status: res.status, code: body.error?.code ?? 'ok' }
}

test('honest payers are served throughout a flood of empty wallets; the flood is refused and leaves no ledger row', async () => {
  const honest = createPayer()
  await onchain.chain.fund(honest.address, ONE_USDC)
  // Served once before the flood: a payer this instance knows.
  expect(await pay(await honest.proof({ value: price }))).toEqual({ status: 200, code: 'ok' })

  const junk = Array.from({ length: FLOOD }, () => createPayer())
  const junkProofs = await Promise.all(junk.map((p) => p.proof({ value: price })))
  const honestProofs = await Promise.all(Array.from({ length: 8 }, () => honest.proof({ value: price })))
  const cities = ['Osaka', 'Seoul', 'Bangkok', 'Paris', 'London', 'Sydney', 'Dubai', 'Singapore']
  const [flood, served] = await Promise.all([
    Promise.all(junkProofs.map((proof) => pay(proof))),
    Promise.all(honestProofs.map((proof, i) => pay(proof, cities[i]))),
  ])
  expect(served).toEqual(honestProofs.map(() => ({ status: 200, code: 'ok' })))
  const outcomes = new Map<string, number>()
  for (const r of flood) outcomes.set(`${r.status} ${r.code}`, (outcomes.get(`${r.status} ${r.code}`) ?? 0) + 1)
  expect([...outcomes.keys()].sort()).toEqual(['402 payment_invalid', '503 verification_busy'])
  // Most of the flood never reached the facilitator.
  expect(outcomes.get('503 verification_busy')!).toBeGreaterThan(FLOOD / 2)

  // A refused wallet asking again is answered from memory.
  const again = await pay(await junk[flood.findIndex((r) => r.status === 402)]!.proof({ value: price }))
  expect(again).toEqual({ status: 402, code: 'payment_invalid' })

  const db = new Database(join(dir, 'ledger.sqlite'), { readonly: true })
  try {
    const payers = junk.map((p) => p.address.toLowerCase())
    const count = (table: string) =>
      (
        db.query(`SELECT count(*) AS n FROM ${table} WHERE lower(payer) IN (${payers.map(() => '?').join(',')})`).get(...payers) as {
          n: number
        }
      ).n
    expect([count('payments'), count('payment_events')]).toEqual([0, 0])
    const mine = db
      .query('SELECT state, count(*) AS n FROM payments WHERE lower(payer) = ? GROUP BY state')
      .all(honest.address.toLowerCase())
    expect(mine).toEqual([{ state: 'served', n: 9 }])
  } finally {
    db.close()
  }
}, 120_000)

test('a flood of empty wallets from one address starves no first-time buyer from another: 5 of 5 served from 127.0.0.2', async () => {
  const url = (city: string) => `${server.url}${route.path}?destination=${city}`
  const junk = await Promise.all(Array.from({ length: 1000 }, () => createPayer().proof({ value: price })))
  const buyers = Array.from({ length: 5 }, () => createPayer())
  for (const buyer of buyers) await onchain.chain.fund(buyer.address, ONE_USDC)
  let flooding = true
  const started = performance.now()
  /** Flood proofs the facilitator was asked about: its refusals, not those answered from memory. */
  let verified = 0
  const flood = (async () => {
    const outcomes = new Map<number, number>()
    // The 1,000 proofs, 50 at a time from 127.0.0.1, over and over while the buyers pay (at most 5,000 requests).
    for (let sent = 0; flooding && sent < 5000; sent += 50) {
      const batch = Array.from({ length: 50 }, (_, i) => junk[(sent + i) % junk.length]!)
      const answers = await Promise.all(
        batch.map((proof) => requestFrom('127.0.0.1', url('Osaka'), { headers: { 'x402-payment': proof } })),
      )
      for (const answer of answers) {
        outcomes.set(answer.status, (outcomes.get(answer.status) ?? 0) + 1)
        if (answer.status === 402 && !answer.text.includes('remembered')) verified++
      }
    }
    return outcomes
  })()
  // Each buyer pays as an agent does: on 503 verification_busy it waits Retry-After and sends the same proof again, three times at most.
  const cities = ['Seoul', 'Bangkok', 'Paris', 'London', 'Sydney']
  const served: { status: number; tries: number }[] = []
  for (const [i, buyer] of buyers.entries()) {
    const proof = await buyer.proof({ value: price })
    let answer = await requestFrom('127.0.0.2', url(cities[i]!), { headers: { 'x402-payment': proof } })
    let tries = 1
    for (; answer.status === 503 && tries < 3; tries++) {
      await Bun.sleep(Number(answer.headers['retry-after'] ?? 1) * 1000)
      answer = await requestFrom('127.0.0.2', url(cities[i]!), { headers: { 'x402-payment': proof } })
    }
    served.push({ status: answer.status, tries })
  }
  flooding = false
  const outcomes = await flood
  const seconds = (performance.now() - started) / 1000
  const ok = served.filter((s) => s.status === 200)
  console.log(
    `honest first-time buyers from 127.0.0.2 during the flood: ${ok.length} of 5 served, ${ok.filter((s) => s.tries === 1).length} at the first try; flood answers by status: ${JSON.stringify(Object.fromEntries(outcomes))}, ${verified} of them verified by the facilitator in ${seconds.toFixed(1)} s`,
  )
  expect(served.map((s) => s.status)).toEqual([200, 200, 200, 200, 200])
  expect(outcomes.get(200) ?? 0).toBe(0)
  // The flood reached the facilitator only within its address's share: a burst of the whole budget (5),
  // then a quarter of 5 a second, over the seconds the flood lasted. (A wallet it refused is refused from
  // memory afterwards: a 402 that asked nobody.)
  expect(verified).toBeLessThanOrEqual(Math.ceil(5 + 5 * 0.25 * seconds) + 1)
}, 180_000)
