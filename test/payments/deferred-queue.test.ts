/**
 * The background queue of SETTLE_MODE=deferred (payments/deferred.ts) on a real SQLite ledger, with a
 * settler whose answers each test scripts: the order and number of settlements in flight, what happens to
 * an authorization that expires in the queue, a facilitator that cannot be reached, and shutdown.
 * test/payments/deferred.test.ts proves the whole path on a local chain.
 */
import { afterEach, expect, test } from 'bun:test'
import { DeferredSettlements } from '../../src/payments/deferred'
import type { Authorized, DeferredPayment } from '../../src/payments/gate/gate-contract'
import type { PaymentEventKind } from '../../src/ledger/contract'
import type { SettleOutcome, SettlementInput, Settler } from '../../src/payments/settler'
import { SqliteLedger } from '../../src/ledger/sqlite'
import { waitFor } from '../../support/until'

const PRICE = 30_000n
const NOW = 1_900_000_000
let ledger: SqliteLedger

afterEach(() => ledger?.close())

/** A payment claimed and recorded pending with its answer, as settle.ts leaves an admitted one. */
async function pendingPayment(nonce: number, validBefore: number, payer = '0x00000000000000000000000000000000000000aa') {
  const key = `eip155:84532:usdc:${payer}:${nonce}`
  const claim = {
    key,
    network: 'eip155:84532',
    payer,
    nonce: `0x${nonce}`,
    routeId: 'flights.months',
    fingerprint: 'flights.months|',
    amountAtomic: String(PRICE),
    requestId: `req_${nonce}`,
    validBefore: String(validBefore),
  }
  await ledger.claim(claim, NOW, NOW - 60)
  ledger.park(key, { id: `art_${nonce}`, body: '{}', expiresAt: NOW + 3600 }, NOW)
  await ledger.durable()
  const events: PaymentEventKind[] = []
  const auth = {
    payer,
    terms: { amountAtomic: PRICE },
    proof: { authorization: { validBefore: String(validBefore) } },
  } as unknown as Authorized
  const payment: DeferredPayment & { events: PaymentEventKind[] } = { key, claim, auth, events, emit: (event) => events.push(event) }
  return payment
}

/** A settler whose every call waits until the test answers it. */
function scriptedSettler() {
  const calls: { nonce: string; answer: (outcome: SettleOutcome) => void }[] = []
  const settler: Settler = {
    mode: 'self',
    settle: (input: SettlementInput) =>
      new Promise<SettleOutcome>((answer) => calls.push({ nonce: input.proof.authorization!.nonce, answer })),
  }
  return { settler, calls }
}

const inputOf = (payment: DeferredPayment) => ({ proof: { authorization: { nonce: payment.claim.nonce } } }) as unknown as SettlementInput
const settled = (tx: string): SettleOutcome => ({
  status: 'settled',
  receipt: { success: true, transaction: tx, network: 'eip155:84532', payer: '0x' },
})
const stateOf = async (payment: DeferredPayment) => (await ledger.lookup(payment.key))?.state

function queue(settler: Settler, concurrency = 2, now = () => NOW) {
  return new DeferredSettlements(
    { settler, ledger, reconciler: { check: async () => 'pending', blockOf: async () => undefined }, now },
    { maxUnsettledAtomic: 10n * PRICE, maxPriceAtomic: null, concurrency },
  )
}

test('settles the authorization that expires soonest first, with at most `concurrency` in flight, each exactly once', async () => {
  ledger = new SqliteLedger(':memory:')
  const { settler, calls } = scriptedSettler()
  const deferred = queue(settler, 2)
  const payments = await Promise.all([5, 1, 4, 2, 3].map((n) => pendingPayment(n, NOW + 60 + n)))
  for (const p of payments) {
    expect(deferred.admit(p)).toBe(true)
    deferred.enqueue(p, inputOf(p))
  }
  // The first two enqueued went out at once; the rest wait, soonest expiry first.
  expect(calls.map((c) => c.nonce)).toEqual(['0x5', '0x1'])
  // One payer: its 5 unsettled answers are the largest exposure, against the cap of 10.
  expect(deferred.stats()).toMatchObject({
    queued: 3,
    inFlight: 2,
    unsettledAtomic: 5n * PRICE,
    largestPayerAtomic: 5n * PRICE,
    payerCapAtomic: 10n * PRICE,
  })
  for (let answered = 0; answered < 5; answered++) {
    await waitFor(`settlement ${answered + 1} asked`, () => calls.length > answered)
    calls[answered]!.answer(settled(`0x${answered}`))
  }
  expect(calls.map((c) => c.nonce)).toEqual(['0x5', '0x1', '0x2', '0x3', '0x4'])
  await waitFor('every payment served', async () => (await Promise.all(payments.map(stateOf))).every((s) => s === 'served'))
  expect(payments.map((p) => p.events)).toEqual(payments.map(() => ['settled', 'served']))
  expect(deferred.stats()).toMatchObject({ queued: 0, inFlight: 0, unsettledAtomic: 0n, payersRefused: 0 })
})

test('the payer cap: admitted value counts until the settlement is final, then frees room', async () => {
  ledger = new SqliteLedger(':memory:')
  const { settler, calls } = scriptedSettler()
  const deferred = new DeferredSettlements(
    { settler, ledger, reconciler: { check: async () => 'pending', blockOf: async () => undefined }, now: () => NOW },
    { maxUnsettledAtomic: 2n * PRICE, maxPriceAtomic: PRICE, concurrency: 1 },
  )
  const [a, b, c] = await Promise.all([1, 2, 3].map((n) => pendingPayment(n, NOW + 60)))
  expect([deferred.admit(a!), deferred.admit(b!), deferred.admit(c!)]).toEqual([true, true, 'payer_cap'])
  deferred.enqueue(a!, inputOf(a!))
  deferred.enqueue(b!, inputOf(b!))
  calls[0]!.answer(settled('0xa'))
  await waitFor('room again', () => deferred.admit(c!) === true)
  const dear = { ...c!, auth: { ...c!.auth, terms: { amountAtomic: PRICE + 1n } } } as unknown as DeferredPayment
  expect(deferred.admit(dear)).toBe('route_price')
})

test('an authorization that expires while queued is failed without asking the settler, and its payer is not blamed', async () => {
  ledger = new SqliteLedger(':memory:')
  const { settler, calls } = scriptedSettler()
  let clock = NOW
  const deferred = queue(settler, 1, () => clock)
  const [first, expiring] = await Promise.all([pendingPayment(1, NOW + 5), pendingPayment(2, NOW + 6)])
  for (const p of [first!, expiring!]) {
    deferred.admit(p)
    deferred.enqueue(p, inputOf(p))
  }
  expect(calls).toHaveLength(1)
  // The clock passes the second one's validBefore while the first holds the only slot.
  clock = NOW + 10
  calls[0]!.answer(settled('0xa'))
  await waitFor('failed in the queue', async () => (await stateOf(expiring!)) === 'failed')
  expect(calls).toHaveLength(1)
  expect(expiring!.events).toEqual(['failed'])
  expect(deferred.stats()).toMatchObject({ payersRefused: 0, unsettledAtomic: 0n })
})

test('a definite failure fails the payment and refuses its payer deferral; a payment refused for it clears the payer', async () => {
  ledger = new SqliteLedger(':memory:')
  const { settler, calls } = scriptedSettler()
  const deferred = queue(settler, 1)
  const [a, b] = await Promise.all([pendingPayment(1, NOW + 60), pendingPayment(2, NOW + 60)])
  deferred.admit(a!)
  deferred.enqueue(a!, inputOf(a!))
  calls[0]!.answer({ status: 'failed', reason: 'invalid_exact_evm_insufficient_balance' })
  await waitFor('failed', async () => (await stateOf(a!)) === 'failed')
  expect(deferred.admit(b!)).toBe('payer_failed')
  expect(deferred.stats()).toMatchObject({ payersRefused: 1, unsettledAtomic: 0n })
  deferred.cleared(b!.auth.payer)
  expect(deferred.admit(b!)).toBe(true)
})

test('a facilitator that cannot be reached is asked again, and the payer is not blamed', async () => {
  ledger = new SqliteLedger(':memory:')
  const { settler, calls } = scriptedSettler()
  const deferred = queue(settler, 1)
  const [a] = await Promise.all([pendingPayment(1, NOW + 60)])
  deferred.admit(a!)
  deferred.enqueue(a!, inputOf(a!))
  calls[0]!.answer({ status: 'failed', reason: 'facilitator_unreachable', unavailable: true })
  await waitFor('asked again', () => calls.length === 2, { ms: 10_000 })
  calls[1]!.answer(settled('0xb'))
  await waitFor('served', async () => (await stateOf(a!)) === 'served')
  expect(deferred.stats().payersRefused).toBe(0)
})

test('shutdown: admits nothing more, settles what is in flight, and leaves the rest pending for the reconciler', async () => {
  ledger = new SqliteLedger(':memory:')
  const { settler, calls } = scriptedSettler()
  const deferred = queue(settler, 1)
  const [a, b] = await Promise.all([pendingPayment(1, NOW + 60), pendingPayment(2, NOW + 61)])
  for (const p of [a!, b!]) {
    deferred.admit(p)
    deferred.enqueue(p, inputOf(p))
  }
  const drained = deferred.drain(200)
  expect(deferred.admit(await pendingPayment(3, NOW + 60))).toBe('closing')
  calls[0]!.answer(settled('0xa'))
  await drained
  expect([await stateOf(a!), await stateOf(b!)]).toEqual(['served', 'pending'])
  expect(calls).toHaveLength(2) // b went out after a; the deadline came before its answer
})
