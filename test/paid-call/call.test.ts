/**
 * The paid call without a transport: a route id, the raw input, the payment payload as an object and the
 * client's context in; one tagged result out. HTTP and MCP only translate to and from it.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { routeById } from '../../src/catalog'
import { createHandlers } from '../../src/composition/handler-map'
import type { HandlerMap } from '../../src/core/route-handler'
import { usdToAtomic } from '../../src/core/usdc'
import { type PaidCall, type PaidCaller, type PaidResult, paidCaller } from '../../src/paid-call/call'
import { MAX_PROOF_BYTES, proofFromHeader, proofFromObject, UnreadableProof } from '../../src/payments/gate/proof'
import { createPayer } from '../../support/payer'
import { testRuntime } from '../../support/runtime'

let rt: Awaited<ReturnType<typeof testRuntime>>
let paid: PaidCaller
let handlers: HandlerMap
const payer = createPayer()

beforeAll(async () => {
  rt = await testRuntime()
  handlers = createHandlers({ market: rt.market, signals: rt.signals, intelligence: rt.intelligence })
  paid = paidCaller({ gate: rt.gate, handlers })
})
afterAll(() => rt.close())

const call = (routeId: string, input: unknown, extra: Partial<PaidCall> = {}): PaidCall => ({
  routeId,
  input,
  payment: undefined,
  resourceUrl: `https://api.example/${routeId}`,
  requestId: `req_${routeId}`,
  clientIp: () => undefined,
  ...extra,
})

/** A fresh proof for the route's price, as the payload object a client signs (no base64, no header). */
const payload = async (routeId: string) =>
  JSON.parse(Buffer.from(await payer.proof({ value: usdToAtomic(routeById.get(routeId)!.priceUsd) }), 'base64').toString())

const refusal = (result: PaidResult | Promise<PaidResult>) => {
  if (result instanceof Promise) throw new Error('a refusal before payment must come back without a promise')
  if (result.kind !== 'refused') throw new Error(`expected a refusal, got ${result.kind}`)
  return result.error
}

test('unpaid: the 402 with the requirements for the resource it was asked for, synchronously', () => {
  const error = refusal(paid(call('flights.summary', { destination: 'Tokyo' })))
  expect(error.code).toBe('payment_required')
  expect(error.payment!.v2.resource).toMatchObject({ url: 'https://api.example/flights.summary' })
  expect(error.payment!.v2.accepts[0]!.amount).toBe(usdToAtomic('0.10').toString())
})

test('the input is checked by the call: text converted where the schema says so, the first problem named', () => {
  expect(refusal(paid(call('flights.top_routes', { destination: 'Tokyo', limit: '5' }))).code).toBe('payment_required')
  const notInteger = refusal(paid(call('flights.top_routes', { destination: 'Tokyo', limit: '2.5' })))
  expect(notInteger.code).toBe('invalid_parameter')
  expect(notInteger.details).toMatchObject({ parameter: 'limit' })
  const tooMany = refusal(paid(call('flights.top_routes', { destination: 'Tokyo', limit: 51 })))
  expect(tooMany.details).toMatchObject({ parameter: 'limit' })
  const unknown = refusal(paid(call('flights.summary', { destination: 'Tokyo', destinaton: 'Osaka' })))
  expect(unknown.details).toMatchObject({ parameter: 'destinaton' })
  const notObject = refusal(paid(call('flights.summary', null, { inputFrom: 'body' })))
  expect([notObject.code, notObject.details?.parameter]).toEqual(['invalid_parameter', 'body'])
})

test('`format` is a parameter only where the transport sells tables; not found and not served are free errors', () => {
  expect(refusal(paid(call('flights.months', { format: 'csv' }))).details).toMatchObject({ parameter: 'format' })
  expect(refusal(paid(call('flights.months', { format: 'csv' }, { tables: { accepted: 'json' } }))).code).toBe('payment_required')
  expect(refusal(paid(call('flights.months', { format: 'xml' }, { tables: { accepted: 'json' } }))).details).toMatchObject({
    parameter: 'format',
  })
  expect(refusal(paid(call('no.such_route', {}))).code).toBe('not_found')
  const { 'flights.summary': _, ...others } = handlers
  expect(refusal(paidCaller({ gate: rt.gate, handlers: others })(call('flights.summary', { destination: 'Tokyo' }))).code).toBe(
    'not_implemented',
  )
})

test('a payload that cannot be read is refused as malformed, with the requirements; JSON null is not "no payment"', () => {
  const unreadable = refusal(
    paid(call('flights.summary', { destination: 'Tokyo' }, { payment: new UnreadableProof('not base64-encoded JSON') })),
  )
  expect(unreadable.code).toBe('payment_invalid')
  expect(unreadable.message).toContain('not base64-encoded JSON')
  expect(unreadable.payment!.v2.accepts.length).toBeGreaterThan(0)
  expect(refusal(paid(call('flights.summary', { destination: 'Tokyo' }, { payment: null }))).details).toMatchObject({
    reason: 'malformed_proof',
  })
})

test('paid with the payload object: the answer, its receipt, and the same answer for the same payment again', async () => {
  const payment = await payload('flights.summary')
  const first = await paid(call('flights.summary', { destination: 'Tokyo' }, { payment }))
  if (first.kind !== 'paid') throw new Error(`not paid: ${first.error.code} ${first.error.message}`)
  const envelope = JSON.parse(first.answer.body as string)
  expect(envelope).toMatchObject({ success: true, meta: { request_id: 'req_flights.summary' }, pricing: { payment_status: 'paid' } })
  expect(first.answer.payer.toLowerCase()).toBe(payer.address.toLowerCase())
  expect(first.answer.receipt).toMatchObject({ success: true })
  const again = await paid(call('flights.summary', { destination: 'Tokyo' }, { payment, requestId: 'req_retry' }))
  if (again.kind !== 'paid') throw new Error('a retry with the same payment must get the stored answer')
  expect(again.answer.replayed).toBe(true)
  expect(again.answer.body).toBe(first.answer.body)
  const other = await paid(call('flights.summary', { destination: 'Osaka' }, { payment }))
  expect(other.kind === 'refused' && other.error.code).toBe('payment_replayed')
})

test('a table bought as CSV is written as CSV; the handler never sees `format`', async () => {
  const payment = await payload('flights.months')
  const result = await paid(call('flights.months', {}, { payment, tables: { accepted: 'csv' } }))
  if (result.kind !== 'paid') throw new Error(`not paid: ${result.error.code}`)
  expect(String(result.answer.body).split('\r\n')[0]).toBe('month') // RFC 4180: CRLF
  expect(result.answer.headers['content-type']).toContain('text/csv')
})

test('a payment over the size bound is refused as malformed before decoding, as a header and as an object alike', () => {
  const header = proofFromHeader('A'.repeat(MAX_PROOF_BYTES + 1))
  expect(header).toEqual(new UnreadableProof(`header longer than ${MAX_PROOF_BYTES} bytes`))
  const huge = { x402Version: 2, padding: 'x'.repeat(MAX_PROOF_BYTES) }
  expect(proofFromObject(huge)).toBeInstanceOf(UnreadableProof)
  const small = { x402Version: 2 }
  expect(proofFromObject(small)).toBe(small)
  const refused = refusal(paid(call('flights.summary', { destination: 'Tokyo' }, { payment: proofFromObject(huge) })))
  expect([refused.code, refused.details?.reason]).toEqual(['payment_invalid', 'malformed_proof'])
})
