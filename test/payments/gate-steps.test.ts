/**
 * The payment gate's steps on their own (claim.ts, paid-work.ts, settle.ts), over a real SQLite ledger
 * in memory: what each one leaves in the ledger, without the gate around them.
 */
import { describe, expect, test } from 'bun:test'
import { DEV_OFFER } from '../../support/offers'
import { routeById } from '../../src/catalog'
import { DEV_PAY_TO } from '../../src/config/config'
import { ApiError } from '../../src/core/errors'
import { claimPayment } from '../../src/payments/claim'
import { PaymentGate } from '../../src/payments/gate'
import type { Authorized, GateContext, GateOptions } from '../../src/payments/gate-contract'
import { GateState, PaymentRun } from '../../src/payments/gate-state'
import { SqliteLedger } from '../../src/ledger/sqlite'
import { runPaidWork } from '../../src/payments/paid-work'
import { Payment } from '../../src/payments/payment'
import { settlePayment } from '../../src/payments/settle'
import type { Settler } from '../../src/payments/settler'
import { createPayer } from '../../support/payer'
import { usdToAtomic } from '../../src/core/usdc'
import { proofFromHeader } from '../../src/payments/proof'

const route = routeById.get('flights.summary')!
const payer = createPayer()
const local: Settler = { mode: 'local', settle: async () => ({ status: 'local' }) }

/** A context as the gate gives its steps, and an authorized payment of `fingerprint`. */
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
  const g: GateContext = {
    options: o,
    now,
    runs: new GateState(),
    refuse: (_req, code, message, details) => new ApiError(code, message, details),
  }
  const payment = new Payment(auth, o, now)
  return { ledger, g, p: payment, header, state: async () => (await ledger.lookup(payment.key))?.state }
}

const running = () => new PaymentRun('r', () => {})

describe('the gate in steps', () => {
  test('claim takes the nonce; work that fails releases it; the proof claims again', async () => {
    const { g, p, state } = await setUp()
    const first = await claimPayment(g, p)
    expect('claimed' in first).toBe(true)
    expect(await state()).toBe('in_progress')
    const failing = runPaidWork(g, p, (first as { claimed: never }).claimed, running(), async () => {
      throw new ApiError('not_found', 'nothing')
    })
    await expect(failing).rejects.toMatchObject({ code: 'not_found' })
    expect(await state()).toBe('failed')
    expect('claimed' in (await claimPayment(g, p))).toBe(true)
  })

  test('work that answers, settled locally, is served; a retry of the same request gets the stored answer from claim alone', async () => {
    const { ledger, g, p, state } = await setUp()
    const claim = (await claimPayment(g, p)) as { claimed: never }
    const r = running()
    const answer = await settlePayment(g, p, r, await runPaidWork(g, p, claim.claimed, r, async () => '{"ok":true}'))
    expect(answer.body).toBe('{"ok":true}')
    // Settled and recorded: the shutdown deadline would leave it as it is.
    expect(r.cutOff(ledger, p.key, g.now())).toBe('served')
    expect(await state()).toBe('served')
    const again = await claimPayment(g, p)
    expect(again).toMatchObject({ stored: { body: '{"ok":true}', replayed: true } })
  })

  test('the same proof for another request is refused by claim as replayed', async () => {
    const { g, p, header } = await setUp()
    await claimPayment(g, p)
    const other = await setUp(`${route.id}|Osaka`, header)
    const shared: GateContext = { ...other.g, options: g.options }
    await expect(claimPayment(shared, new Payment(other.p.auth, g.options, g.now))).rejects.toMatchObject({ code: 'payment_replayed' })
  })
})
