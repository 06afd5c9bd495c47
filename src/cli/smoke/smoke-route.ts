import { encodeProofV2, type PayerAccount, signAuthorization, usdcDomain } from '../../payments'
import { checkPaidAnswer, checkPaymentRequired, describeAnswer } from './smoke-checks'
import { requestInit, type ExampleRequest } from './smoke-requests'

export type Outcome = 'OK' | 'FAIL' | 'PLANNED'

/** One line of the smoke report. */
export interface SmokeResult {
  route: string
  method: string
  path: string
  price_usd: string
  unpaid_status: number | null
  paid_status: number | null
  /** Of the paid call, request sent to body read. */
  latency_ms: number | null
  result: Outcome
  reason: string
}

/** validAfter lies this far in the past, as x402 clients do, so a server clock slightly behind still accepts. */
const CLOCK_SKEW_SECONDS = 600n

interface Answer {
  status: number
  headers: Headers
  body: unknown
  ms: number
}

async function call(req: ExampleRequest, headers: Record<string, string>, timeoutMs: number): Promise<Answer> {
  const started = performance.now()
  try {
    const res = await fetch(req.url, requestInit(req, headers, AbortSignal.timeout(timeoutMs)))
    const text = await res.text()
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      body = text
    }
    return { status: res.status, headers: res.headers, body, ms: Math.round(performance.now() - started) }
  } catch (error) {
    if (error instanceof Error && error.name === 'TimeoutError') throw new Error(`no answer within ${timeoutMs / 1000} s`)
    throw new Error(`request failed: ${error instanceof Error ? ((error as { code?: string }).code ?? error.message) : String(error)}`)
  }
}

/**
 * Calls one route unpaid (expects 402 with this route's requirements, or 501 for a planned route), then
 * pays exactly those requirements with a fresh EIP-3009 authorization (expects 200, paid, at the price).
 */
export async function smokeRoute(req: ExampleRequest, payer: PayerAccount, timeoutMs: number): Promise<SmokeResult> {
  const result: SmokeResult = {
    route: req.route.id,
    method: req.method,
    path: req.route.path,
    price_usd: req.route.priceUsd,
    unpaid_status: null,
    paid_status: null,
    latency_ms: null,
    result: 'FAIL',
    reason: '',
  }
  const fail = (reason: string) => ({ ...result, result: 'FAIL' as const, reason })
  let unpaid: Answer
  try {
    unpaid = await call(req, {}, timeoutMs)
  } catch (error) {
    return fail(`unpaid call: ${(error as Error).message}`)
  }
  result.unpaid_status = unpaid.status
  const code = (unpaid.body as { error?: { code?: unknown } } | null)?.error?.code
  if (unpaid.status === 501 && code === 'not_implemented')
    return { ...result, result: 'PLANNED', reason: '501 not_implemented: not served by this release' }
  if (unpaid.status === 200) return fail('answered 200 without asking for payment')
  if (unpaid.status !== 402) return fail(`unpaid call answered ${describeAnswer(unpaid.status, unpaid.body)}, expected 402`)
  const offer = checkPaymentRequired(req, unpaid.headers, unpaid.body)
  if (!offer.ok) return fail(offer.problems.join('; '))

  const { accepted, network } = offer.value
  const now = BigInt(Math.floor(Date.now() / 1000))
  const signed = await signAuthorization(payer, usdcDomain(network), {
    to: accepted.payTo as `0x${string}`,
    value: BigInt(accepted.amount),
    validAfter: now - CLOCK_SKEW_SECONDS,
    validBefore: now + BigInt(accepted.maxTimeoutSeconds),
  })
  let paid: Answer
  try {
    paid = await call(req, { 'x402-payment': encodeProofV2(accepted, signed) }, timeoutMs)
  } catch (error) {
    return fail(`paid call: ${(error as Error).message}`)
  }
  result.paid_status = paid.status
  result.latency_ms = paid.ms
  const problems = checkPaidAnswer(req, paid.status, paid.body)
  return problems.length > 0 ? fail(problems.join('; ')) : { ...result, result: 'OK', reason: '' }
}
