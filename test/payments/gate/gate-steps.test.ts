/**
 * The payment gate's steps on their own (claim.ts, paid-work.ts, settle.ts), over a real SQLite ledger
 * in memory: what each one leaves in the ledger, without the gate around them.
 */
import { describe, expect, test } from 'bun:test'
import { DEV_OFFER } from '../../../support/offers'
import { routeById } from '../../../src/catalog'
import { DEV_PAY_TO } from '../../../src/config/config'
import { ApiError } from '../../../src/core/errors'
import { claimPayment } from '../../../src/payments/gate/claim'
import { PaymentGate } from '../../../src/payments/gate/gate'
import type { Authorized, GateOptions } from '../../../src/payments/gate/gate-contract'
import { GateState } from '../../../src/payments/gate/gate-state'
import { SqliteLedger } from '../../../src/ledger/sqlite'
import { runPaidWork } from '../../../src/payments/gate/paid-work'
import { Payment, type PaymentNeeds } from '../../../src/payments/gate/payment'
import { settlePayment } from '../../../src/payments/gate/settle'
import type { Settler } from '../../../src/payments/settler'
import { createPayer } from '../../../support/payer'
import { usdToAtomic } from '../../../src/core/usdc'
import { proofFromHeader } from '../../../src/payments/gate/proof'

const route = routeById.get('flights.summary')!
const payer = createPayer()
const local: Settler = { mode: 'local', settle: async () => ({ status: 'local' }) }

/** What the gate gives a payment's steps, and an authorized payment of `fingerprint`. */
async function setUp(fingerprint = `${route.id}|Tokyo`, proof?: string) {
  const ledger = new SqliteLedger(':memory:')
  const o: GateOptions = { offers: [DEV_OFFER], artifactTtlSeconds: 3600, ledger, settler: local }
  const gate = new PaymentGate(o)
  const header = proof ?? (await payer.proof({ value: usdToAtomic(route.priceUsd) }))
  const auth = gate.authorize({
    route,
    payment: proofFromHeader(header),
    resourceUrl: `http://localhost${route.path}`,
    requestId: `req_${fingerprint}`,
    fingerprint,
  }) as Authorized
  const now = () => Math.floor(Date.now() / 1000)
  const needs: PaymentNeeds = {
    ledger,
    settler: local,
    artifactTtlSeconds: o.artifactTtlSeconds,
    now,
    runs: new GateState(),
    refuse: (_req, code, message, details) => new ApiError(code, message, details),
    correct: (_req, message, reason) => new ApiError('payment_invalid', message, { reason }),
  }
  const payment = new Payment(auth, needs)
  return { ledger, needs, p: payment, header, state: async () => (await ledger.lookup(payment.key))?.state }
}

describe('the gate in steps', () => {
  test('claim takes the nonce; work that fails releases it; the proof claims again', async () => {
    const { p, state } = await setUp()
    expect(await claimPayment(p)).toBeUndefined() // claimed: no stored answer
    expect(await state()).toBe('in_progress')
    const failing = runPaidWork(p, async () => {
      throw new ApiError('not_found', 'nothing')
    })
    await expect(failing).rejects.toMatchObject({ code: 'not_found' })
    expect(await state()).toBe('failed')
    expect(await claimPayment(p)).toBeUndefined()
  })

  test('work that answers, settled locally, is served; a retry of the same request gets the stored answer from claim alone', async () => {
    const { needs, p, state } = await setUp()
    expect(await claimPayment(p)).toBeUndefined()
    const answer = await settlePayment(p, await runPaidWork(p, async () => '{"ok":true}'))
    expect(answer.body).toBe('{"ok":true}')
    // Settled and recorded: the shutdown deadline would leave it as it is.
    expect(p.cutOff(needs.now())).toBe('served')
    expect(await state()).toBe('served')
    const again = await claimPayment(new Payment(p.auth, needs))
    expect(again).toMatchObject({ body: '{"ok":true}', replayed: true })
  })

  test('the same proof for another request is refused by claim as replayed', async () => {
    const { needs, p, header } = await setUp()
    await claimPayment(p)
    const other = await setUp(`${route.id}|Osaka`, header)
    await expect(claimPayment(new Payment(other.p.auth, needs))).rejects.toMatchObject({ code: 'payment_replayed' })
  })
})
