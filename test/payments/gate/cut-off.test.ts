/**
 * The shutdown deadline's cut-off in the payment gate: a paid request still running when the process must
 * exit leaves the ledger (a real SQLite file, reopened as the next start would) in a state where the
 * buyer's retry with the same proof is answered or cleanly refused, and is never settled twice.
 */
import { afterAll, describe, expect, test } from 'bun:test'
import { DEV_OFFER } from '../../../support/offers'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { routeById } from '../../../src/catalog'
import { DEV_PAY_TO } from '../../../src/config/config'
import { ApiError } from '../../../src/core/errors'
import { PaymentGate, type GateAnswer, type PaidRequest } from '../../../src/payments/gate/gate'
import { SqliteLedger } from '../../../src/ledger/sqlite'
import { usdToAtomic } from '../../../src/core/usdc'
import { Reconciler, type AuthorizationReader } from '../../../src/payments/reconciler'
import type { SettleOutcome, Settler } from '../../../src/payments/settler'
import { createPayer } from '../../../support/payer'
import { waitFor } from '../../../support/until'
import { proofFromHeader } from '../../../src/payments/gate/proof'

const dir = mkdtempSync(join(tmpdir(), 'cmi-cutoff-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const route = routeById.get('flights.summary')!
const payer = createPayer()

/** A facilitator-like settler whose settle calls are counted and may be held until released. */
function settler(hold = false) {
  const calls: number[] = []
  let release!: (o: SettleOutcome) => void
  const held = new Promise<SettleOutcome>((r) => (release = r))
  const s: Settler = {
    mode: 'facilitator',
    verify: async () => ({ ok: true }),
    settle: async () => {
      calls.push(Date.now())
      return hold
        ? held
        : {
            status: 'settled',
            receipt: { success: true, transaction: `0x${'ab'.repeat(32)}`, network: 'eip155:84532', payer: payer.address },
          }
    },
  }
  return { s, calls, release: (o: SettleOutcome) => release(o) }
}

function gateOn(ledger: SqliteLedger, s: Settler, chain?: AuthorizationReader) {
  return new PaymentGate({
    offers: [DEV_OFFER],
    artifactTtlSeconds: 3600,
    ledger,
    settler: s,
    ...(chain ? { reconciler: new Reconciler(ledger, chain) } : {}),
  })
}

function request(proof: string, requestId: string): PaidRequest {
  return {
    route,
    payment: proofFromHeader(proof),
    resourceUrl: `http://localhost${route.path}`,
    requestId,
    fingerprint: `${route.id}|Tokyo`,
  }
}

async function pay(gate: PaymentGate, proof: string, requestId: string, work: () => Promise<string>): Promise<GateAnswer> {
  const auth = gate.authorize(request(proof, requestId))
  if (auth instanceof ApiError) throw auth
  return gate.fulfil(auth, work)
}

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'answered',
    (e: unknown) => (e instanceof ApiError ? e.code : String(e)),
  )

/** The ledger's SQLite handle, for reading what it wrote. */
const dbOf = (ledger: SqliteLedger) => (ledger as unknown as { db: { query(s: string): { all(): Record<string, string | null>[] } } }).db

const states = (ledger: SqliteLedger) =>
  dbOf(ledger)
    .query('SELECT state FROM payments')
    .all()
    .map((r) => r.state)

function events(file: string): string[] {
  const ledger = new SqliteLedger(file)
  try {
    return dbOf(ledger)
      .query('SELECT event, detail FROM payment_events ORDER BY seq')
      .all()
      .map((e) => (e.detail?.startsWith('shutdown') ? `${e.event}(${e.detail})` : e.event!))
  } finally {
    ledger.close()
  }
}

describe('cut off while the handler runs', () => {
  test('the claim is released and nothing is settled, even when the handler answers later; the retry after a restart buys the request once', async () => {
    const file = join(dir, 'work.sqlite')
    const proof = await payer.proof({ value: usdToAtomic(route.priceUsd) })
    const first = settler()
    let ledger = new SqliteLedger(file)
    let gate = gateOn(ledger, first.s)
    let finish!: (body: string) => void
    let started = false
    const running = codeOf(pay(gate, proof, 'req_first', () => ((started = true), new Promise<string>((r) => (finish = r)))))
    await waitFor('the work to start', () => started)

    expect(gate.cutOff()).toEqual(new Map([['req_first', 'released']]))
    await ledger.durable()
    finish('{"late":true}') // the handler answers after the deadline: too late to be settled
    expect(await running).toBe('shutting_down')
    expect(first.calls).toHaveLength(0)
    ledger.close()

    const second = settler()
    ledger = new SqliteLedger(file)
    gate = gateOn(ledger, second.s)
    const answer = await pay(gate, proof, 'req_retry', async () => '{"fresh":true}')
    expect(answer.body).toBe('{"fresh":true}')
    expect(answer.replayed).toBeUndefined()
    const again = await pay(gate, proof, 'req_again', async () => '{"third":true}')
    expect(again.replayed).toBe(true)
    expect(again.body).toBe('{"fresh":true}')
    expect(second.calls).toHaveLength(1)
    ledger.close()
    expect(events(file)).toEqual(['verified', 'failed(shutdown: cut off before settlement)', 'verified', 'settled', 'served'])
  })

  test('a request waiting on the same payment claims nothing after the cut-off', async () => {
    const ledger = new SqliteLedger(join(dir, 'waiting.sqlite'))
    const s = settler()
    const gate = gateOn(ledger, s.s)
    const proof = await payer.proof({ value: usdToAtomic(route.priceUsd) })
    let fail!: (e: Error) => void
    let started = false
    const first = codeOf(pay(gate, proof, 'req_a', () => ((started = true), new Promise<string>((_, reject) => (fail = reject)))))
    await waitFor('the work to start', () => started)
    // Counts the claims the ledger is asked for from here: the first request's is made, the retry's is next.
    const claim = ledger.claim.bind(ledger)
    let claims = 0
    ledger.claim = (...args) => (claims++, claim(...args))
    const retry = codeOf(pay(gate, proof, 'req_b', async () => '{"b":true}')) // a client retry: waits for the first
    await waitFor("the retry's claim to find the first request running", () => claims === 1)
    gate.cutOff()
    fail(new Error('provider gave up'))
    expect(await first).toBe('Error: provider gave up')
    expect(await retry).toBe('shutting_down')
    await ledger.durable()
    expect(states(ledger)).toEqual(['failed'])
    expect(s.calls).toHaveLength(0)
    ledger.close()
  })
})

describe('cut off while the payment settles', () => {
  /** Runs a paid request until its settle call is in flight, cuts it off and closes the ledger, as the exit does. */
  async function cutWhileSettling(file: string) {
    const proof = await payer.proof({ value: usdToAtomic(route.priceUsd) })
    const first = settler(true)
    const ledger = new SqliteLedger(file)
    const gate = gateOn(ledger, first.s)
    const running = codeOf(pay(gate, proof, 'req_first', async () => '{"answer":1}'))
    await waitFor('the settlement to be asked for', () => first.calls.length === 1)
    expect(gate.cutOff()).toEqual(new Map([['req_first', 'settling']]))
    await ledger.durable()
    ledger.close()
    void running
    return { proof }
  }

  const chain = (used: boolean, chainTime: number): AuthorizationReader => ({ used: async () => used, chainTime: async () => chainTime })

  test('parked as pending with its answer: once the transfer is seen on chain, the retry gets that answer, not a second settlement', async () => {
    const file = join(dir, 'settled.sqlite')
    const { proof } = await cutWhileSettling(file)
    const next = settler()
    const ledger = new SqliteLedger(file)
    const gate = gateOn(ledger, next.s, chain(true, Math.floor(Date.now() / 1000)))
    const answer = await pay(gate, proof, 'req_retry', async () => '{"second run":1}')
    expect(answer.body).toBe('{"answer":1}')
    expect(answer.replayed).toBe(true)
    expect(next.calls).toHaveLength(0)
    ledger.close()
    expect(events(file)).toEqual(['verified', 'pending(shutdown: cut off while settling)', 'reconciled'])
  })

  test('still unused on chain: the retry hears settlement_pending; once the authorization has expired unused, settlement_failed (nothing moved)', async () => {
    const file = join(dir, 'unused.sqlite')
    const { proof } = await cutWhileSettling(file)
    const next = settler()
    let ledger = new SqliteLedger(file)
    const now = Math.floor(Date.now() / 1000)
    expect(await codeOf(pay(gateOn(ledger, next.s, chain(false, now)), proof, 'req_retry', async () => '{}'))).toBe('settlement_pending')
    ledger.close()
    ledger = new SqliteLedger(file)
    expect(await codeOf(pay(gateOn(ledger, next.s, chain(false, now + 3600)), proof, 'req_later', async () => '{}'))).toBe(
      'settlement_failed',
    )
    expect(next.calls).toHaveLength(0)
    ledger.close()
  })

  test('a settlement that returns after the cut-off still lands in the ledger: settled is served, failed is failed', async () => {
    for (const [outcome, state] of [
      [{ status: 'settled', receipt: { success: true, transaction: '0xfeed', network: 'eip155:84532', payer: payer.address } }, 'served'],
      [{ status: 'failed', reason: 'insufficient_funds' }, 'failed'],
    ] as const) {
      const ledger = new SqliteLedger(join(dir, `late-${state}.sqlite`))
      const s = settler(true)
      const gate = gateOn(ledger, s.s)
      const proof = await payer.proof({ value: usdToAtomic(route.priceUsd) })
      const running = codeOf(pay(gate, proof, 'req_x', async () => '{"x":1}'))
      await waitFor('the settlement to be asked for', () => s.calls.length === 1)
      gate.cutOff()
      s.release(outcome as SettleOutcome)
      await running
      await ledger.durable()
      expect(states(ledger)).toEqual([state])
      ledger.close()
    }
  })
})
