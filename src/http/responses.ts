import { encodePaymentRequiredHeader } from '@x402/core/http'
import { ApiError } from '../core'
import { carriesChallenge, challengedHeader, type GateAnswer } from '../payments'

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' }

/** The constant headers of an error, built once per error object (the cached unpaid 402 of a route is reused). */
const ERROR_HEADERS = new WeakMap<ApiError, Headers>()

/** An error's headers for one request id: its hints as HTTP headers (Retry-After, the v2 PAYMENT-REQUIRED). */
export function errorHeaders(err: ApiError, requestId: string, extra?: Record<string, string>): Headers {
  let constant = ERROR_HEADERS.get(err)
  if (!constant) {
    constant = new Headers(JSON_HEADERS)
    constant.set('vary', 'accept') // a browser gets the same error as a page (error-page.ts): caches must tell them apart
    if (err.retryAfterSeconds !== undefined) constant.set('retry-after', String(err.retryAfterSeconds))
    // An HTTP resource's 402 gets its header per answer (below), with a fresh sign-in challenge.
    if (err.payment && !carriesChallenge(err.payment.v2)) constant.set('PAYMENT-REQUIRED', encodePaymentRequiredHeader(err.payment.v2))
    // No `Connection: close` on a 413: closing while the client still writes makes its kernel reset the
    // connection before it reads the answer (EPIPE). The rest of the body is read and dropped first
    // (upload-rest.ts, up to REQUEST_LIMITS.drainBytes) and the client reads its 413.
    ERROR_HEADERS.set(err, constant)
  }
  const headers = new Headers(constant)
  // Each 402 of an HTTP resource carries a fresh sign-in challenge (sign-in-with-x): the rest of its header is cached (sign-in.ts).
  const challenged = err.payment && challengedHeader(err.payment.v2, Date.now())
  if (challenged) headers.set('PAYMENT-REQUIRED', challenged)
  headers.set('x-request-id', requestId)
  if (extra) for (const name in extra) headers.set(name, extra[name]!)
  return headers
}

export function errorResponse(err: ApiError, requestId: string, extra?: Record<string, string>): Response {
  return new Response(err.toJson(requestId), { status: err.status, headers: errorHeaders(err, requestId, extra) })
}

/**
 * The headers of a paid answer: its own (a CSV or Arrow content type), the settlement receipt under its v1
 * and v2 names, and the replay marker of a retry answered from the stored result.
 */
export function paidAnswerHeaders(answer: GateAnswer): Record<string, string> {
  const headers = { ...answer.headers }
  if (answer.replayed) headers['x-payment-replay'] = 'stored-result'
  if (answer.signedIn) headers['x-payment-replay'] = 'signed-in'
  if (answer.receipt) {
    const encoded = Buffer.from(JSON.stringify(answer.receipt)).toString('base64')
    headers['X-PAYMENT-RESPONSE'] = encoded
    headers['PAYMENT-RESPONSE'] = encoded
  }
  return headers
}

/** A JSON answer; a paid CSV or Arrow answer (bytes as they are) when `headers` name its content type. */
export function jsonResponse(body: unknown, status: number, requestId: string, headers?: Record<string, string>): Response {
  return new Response(typeof body === 'string' || body instanceof Uint8Array ? (body as BodyInit) : JSON.stringify(body), {
    status,
    headers: { ...JSON_HEADERS, 'x-request-id': requestId, ...headers },
  })
}
