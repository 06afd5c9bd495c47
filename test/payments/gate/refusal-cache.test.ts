/**
 * A refused proof's 402 is built once per resource and refusal and then reused, with its encoded
 * PAYMENT-REQUIRED header and body (a flood of junk proofs repeats a few refusals). What must not happen:
 * one refusal's reason or message answered for another, or one resource's requirements for another's.
 */
import { expect, test } from 'bun:test'
import { decodePaymentRequiredHeader } from '@x402/core/http'
import { DEV_OFFER } from '../../../support/offers'
import { routeById } from '../../../src/catalog'
import { ApiError } from '../../../src/core/errors'
import { errorHeaders } from '../../../src/http/responses'
import { PaymentGate, type PaidRequest } from '../../../src/payments/gate/gate'
import { usdToAtomic } from '../../../src/core/usdc'
import { SqliteLedger } from '../../../src/ledger/sqlite'
import type { Settler } from '../../../src/payments/settler'
import { createPayer, editProof } from '../../../support/payer'
import { proofFromHeader } from '../../../src/payments/gate/proof'
import { forgetSecrets, keepSecret } from '../../../src/core/redact'
import { challengeFixed } from '../../../support/sign-in-challenge'

const settler: Settler = {
  mode: 'local',
  verify: async () => ({ ok: true }),
  settle: async () => ({ status: 'settled', receipt: { success: true, transaction: '', network: 'eip155:84532', payer: '0x' } }),
}
const gate = new PaymentGate({ offers: [DEV_OFFER], artifactTtlSeconds: 3600, ledger: new SqliteLedger(':memory:'), settler })
const payer = createPayer()
const summary = routeById.get('flights.summary')!
const months = routeById.get('flights.months')!

function refusal(route: typeof summary, proof: string, requestId: string): ApiError {
  const req: PaidRequest = {
    route,
    payment: proofFromHeader(proof),
    resourceUrl: `http://localhost${route.path}`,
    requestId,
    fingerprint: `${route.id}|x`,
  }
  try {
    const auth = gate.authorize(req)
    throw new Error(`not refused: ${auth instanceof ApiError ? auth.code : 'authorized'}`)
  } catch (e) {
    if (!(e instanceof ApiError)) throw e
    return e
  }
}
const price = (route: typeof summary) => usdToAtomic(route.priceUsd)
const badSignature = async (route: typeof summary) =>
  editProof(await payer.proof({ value: price(route) }), (p) => {
    p.payload.signature = `0x${'11'.repeat(65)}`
  })

test('the same refusal of the same resource is one 402, built once: body template and header reused', async () => {
  const first = refusal(summary, await payer.proof({ value: price(summary) + 1n }), 'r1')
  const second = refusal(summary, await payer.proof({ value: price(summary) + 1n }), 'r2')
  expect(second).toBe(first)
  // The same header but for the sign-in challenge each 402 has of its own.
  const header = (error: ApiError, id: string) => challengeFixed(errorHeaders(error, id).get('payment-required'))
  expect(header(second, 'r2')).toBe(header(first, 'r1'))
  expect(JSON.parse(second.toJson('r2')).meta.request_id).toBe('r2')
})

test('each refusal keeps its own reason and message, in the body and in the v2 header; each resource its own requirements', async () => {
  const wrongAmount = refusal(summary, await payer.proof({ value: price(summary) + 1n }), 'a')
  const forged = refusal(summary, await badSignature(summary), 'b')
  const otherRoute = refusal(months, await badSignature(months), 'c')
  for (const [error, reason, route] of [
    [wrongAmount, 'wrong_amount', summary],
    [forged, 'invalid_signature', summary],
    [otherRoute, 'invalid_signature', months],
  ] as const) {
    const body = JSON.parse(error.toJson('id'))
    expect([body.error.code, body.error.details.reason]).toEqual(['payment_invalid', reason])
    const v2 = decodePaymentRequiredHeader(errorHeaders(error, 'id').get('payment-required')!)
    expect(v2.error).toBe(body.error.message)
    expect(v2.resource.url).toBe(`http://localhost${route.path}`)
    expect(body.accepts[0]).toMatchObject({ resource: `http://localhost${route.path}`, maxAmountRequired: price(route).toString() })
    expect(v2.accepts[0]!.amount).toBe(price(route).toString())
  }
  expect(new Set([wrongAmount.message, forged.message]).size).toBe(2)
})

test('a refusal whose reason quotes a secret: redacted in the envelope and in the PaymentRequired alike', async () => {
  const secret = 'sk-refusal-echo-9f3a7c'
  keepSecret(secret)
  try {
    const echoing = new PaymentGate({
      offers: [DEV_OFFER],
      artifactTtlSeconds: 3600,
      ledger: new SqliteLedger(':memory:'),
      settler: {
        ...settler,
        mode: 'facilitator',
        verify: async () => ({ ok: false, reason: 'invalid', message: `refused; key=${secret}` }),
      },
    })
    const req: PaidRequest = {
      route: summary,
      payment: proofFromHeader(await payer.proof({ value: price(summary) })),
      resourceUrl: `http://localhost${summary.path}`,
      requestId: 'req_echo',
      fingerprint: `${summary.id}|x`,
    }
    const auth = echoing.authorize(req)
    if (auth instanceof ApiError) throw new Error(`not authorized: ${auth.code}`)
    const refused = await echoing
      .fulfil(auth, async () => '{}')
      .then(
        () => undefined,
        (error: unknown) => error as ApiError,
      )
    expect(refused?.code).toBe('payment_invalid')
    expect(refused!.message).not.toContain(secret)
    expect(refused!.payment!.v2.error).toBe(refused!.message)
    expect(decodePaymentRequiredHeader(errorHeaders(refused!, 'req_echo').get('PAYMENT-REQUIRED')!).error).not.toContain(secret)
  } finally {
    forgetSecrets()
  }
})
