import { describe, expect, test } from 'bun:test'
import { DEV_OFFER } from '../../../support/offers'
import { routeById } from '../../../src/catalog'
import { checkPaidAnswer, checkPaymentRequired } from '../../../src/cli/smoke/smoke-checks'
import { exampleRequests } from '../../../src/cli/smoke/smoke-requests'
import { DEV_PAY_TO } from '../../../src/config/config'
import { ApiError } from '../../../src/core/errors'
import { errorHeaders } from '../../../src/http/responses'
import { NETWORKS } from '../../../src/payments/networks'
import { paymentRequirements, termsFor, type PaymentTerms } from '../../../src/payments/gate/requirements'

const route = routeById.get('flights.summary')!
const [req] = exampleRequests(route, 'http://127.0.0.1:3000')

/** A 402 as the server builds it (requirements.ts), optionally with other terms or a different resource URL. */
function answer402(edit: (t: PaymentTerms) => PaymentTerms = (t) => t, resource = `http://localhost:3000${req!.path}`) {
  const payment = paymentRequirements(route, [edit(termsFor(route, DEV_OFFER))], resource, 'Payment required')
  const error = new ApiError('payment_required', 'Payment required', undefined, { payment })
  return { headers: errorHeaders(error, 'req_1'), body: JSON.parse(error.toJson('req_1')) }
}

const decodeV2 = (h: Headers) => JSON.parse(Buffer.from(h.get('payment-required')!, 'base64').toString())
const encodeV2 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64')

describe('smoke checks of a 402', () => {
  test("the server's own requirements pass, and the offer is the v2 requirement to sign", () => {
    const { headers, body } = answer402()
    const verdict = checkPaymentRequired(req!, headers, body)
    expect(verdict).toEqual({
      ok: true,
      value: expect.objectContaining({
        accepted: expect.objectContaining({ amount: '100000', payTo: DEV_PAY_TO, network: 'eip155:84532' }),
      }),
    })
  })

  test('a wrong amount is named in both generations', () => {
    const { headers, body } = answer402((t) => ({ ...t, amountAtomic: 30_000n }))
    const verdict = checkPaymentRequired(req!, headers, body)
    expect(verdict.ok).toBe(false)
    const problems = (verdict as { problems: string[] }).problems
    expect(problems).toContain('v1 maxAmountRequired is "30000", expected 100000 (USD 0.10)')
    expect(problems).toContain('v2 amount is "30000", expected 100000 (USD 0.10)')
  })

  test('a v2 header that disagrees with v1 (network, payTo) or a missing header is refused', () => {
    const { headers, body } = answer402()
    const payTo = decodeV2(headers)
    payTo.accepts[0].payTo = '0x1111111111111111111111111111111111111111'
    expect(
      (checkPaymentRequired(req!, new Headers({ 'payment-required': encodeV2(payTo) }), body) as { problems: string[] }).problems,
    ).toEqual([`v1 payTo ${DEV_PAY_TO} differs from v2 payTo 0x1111111111111111111111111111111111111111`])
    // The network the v2 header offers first must be offered to v1 clients too (when x402 v1 names it).
    const network = decodeV2(headers)
    network.accepts[0] = { ...network.accepts[0], network: 'eip155:8453', asset: NETWORKS.base.asset, extra: NETWORKS.base.eip712 }
    expect(
      (checkPaymentRequired(req!, new Headers({ 'payment-required': encodeV2(network) }), body) as { problems: string[] }).problems,
    ).toEqual(['v1 accepts offers no "exact" scheme on base, which the v2 header offers'])
    expect(checkPaymentRequired(req!, new Headers(), body)).toEqual({ ok: false, problems: ['no PAYMENT-REQUIRED header (x402 v2)'] })
  })

  test('several networks: the first v2 entry is paid, and v1 is checked on that network (none for one x402 v1 has no name for)', () => {
    const offers = [
      { network: NETWORKS.arbitrum, payTo: DEV_PAY_TO as `0x${string}` },
      { network: NETWORKS.base, payTo: DEV_PAY_TO as `0x${string}` },
    ]
    const payment = paymentRequirements(
      route,
      offers.map((offer) => termsFor(route, offer)),
      `http://localhost:3000${req!.path}`,
      'Payment required',
    )
    const error = new ApiError('payment_required', 'Payment required', undefined, { payment })
    const verdict = checkPaymentRequired(req!, errorHeaders(error, 'req_1'), JSON.parse(error.toJson('req_1')))
    expect(verdict).toMatchObject({ ok: true, value: { network: { name: 'arbitrum' }, accepted: { network: 'eip155:42161' } } })
  })

  test("an asset other than the network's USDC, or a resource of another route, is refused", () => {
    const other = answer402(
      (t) => ({ ...t, network: { ...t.network, asset: '0x2222222222222222222222222222222222222222' } }),
      'http://localhost:3000/v1/market-data/flights/months',
    )
    const problems = (checkPaymentRequired(req!, other.headers, other.body) as { problems: string[] }).problems
    expect(problems.filter((p) => p.includes('asset'))).toHaveLength(2)
    expect(problems.filter((p) => p.includes('is not an absolute URL of /v1/market-data/flights/summary'))).toHaveLength(2)
  })

  test('a body that is not the payment_required envelope is refused', () => {
    const { headers } = answer402()
    expect(checkPaymentRequired(req!, headers, 'Payment Required')).toEqual({
      ok: false,
      problems: ['402 body is not an error envelope with error.code payment_required'],
    })
  })
})

describe('smoke checks of a paid answer', () => {
  const envelope = (pricing: unknown) => ({ success: true, data: {}, meta: { request_id: 'req_1' }, pricing })

  test('200, paid, at the catalog price passes; anything else is named', () => {
    expect(checkPaidAnswer(req!, 200, envelope({ amount_usd: '0.10', payment_status: 'paid' }))).toEqual([])
    expect(checkPaidAnswer(req!, 200, envelope({ amount_usd: '0.03', payment_status: 'free' }))).toEqual([
      'pricing.payment_status is "free", expected "paid"',
      'pricing.amount_usd is "0.03", expected "0.10"',
    ])
    const refused = { success: false, error: { code: 'payment_invalid', message: 'x', details: { reason: 'wrong_amount' } } }
    expect(checkPaidAnswer(req!, 402, refused)).toEqual(['paid call answered 402 payment_invalid (wrong_amount), expected 200'])
  })
})
