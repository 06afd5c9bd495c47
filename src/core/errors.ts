import type { PaymentRequired } from '@x402/core/types'
import { redactDeep, redactedMessage, redactSecrets } from './redact'

/** The stable error codes of the API. The README's error table is generated from this list. */
export const ERROR_CODES = {
  invalid_parameter: {
    status: 400,
    meaning: 'A parameter is missing, malformed or not allowed; `details` names it, the reason and the allowed values. Never charged.',
  },
  not_found: {
    status: 404,
    meaning:
      'Unknown route, destination, country, slug or artifact; a name nothing is known by or with no evidence (a near miss of a known name lists what it may mean in details.did_you_mean). Never charged.',
  },
  payload_too_large: {
    status: 413,
    meaning:
      'The request body or query string is larger than the documented limit (`details.limit_bytes`); the rest was dropped unread. Never charged.',
  },
  method_not_allowed: { status: 405, meaning: 'The path exists but not with this HTTP method; `details.allowed` lists the methods.' },
  payment_required: {
    status: 402,
    meaning: 'No payment proof was sent. The body and the `PAYMENT-REQUIRED` header carry the payment requirements.',
  },
  payment_invalid: {
    status: 402,
    meaning: 'The proof is malformed, badly signed, expired, or for another amount, asset, network or payee; `details.reason` says which.',
  },
  payment_replayed: {
    status: 402,
    meaning:
      'The proof was already used for a different request. (The same request retried with the same proof gets its stored result instead.)',
  },
  payment_id_conflict: {
    status: 409,
    meaning:
      "The payment's x402 `payment-identifier` was already used by the same payer with a different payment payload (`details.payment_id`). Nothing was claimed or charged: send that payload again to get its answer, or a new id with a new payment.",
  },
  sign_in_refused: {
    status: 402,
    meaning:
      'A `SIGN-IN-WITH-X` header did not grant the answer: malformed, for another origin or chain, expired, badly signed, its challenge used already, or its wallet bought no answer for this request that is still kept (`details.reason`). Nothing was charged; the 402 carries the requirements and a fresh challenge.',
  },
  settlement_failed: {
    status: 402,
    meaning:
      'The handler answered but the payment could not be settled on chain (e.g. insufficient USDC); the answer is not served and nothing was charged. `details.reason` says why.',
  },
  settlement_pending: {
    status: 202,
    meaning:
      'The answer is ready but the settlement is still unconfirmed (facilitator timeout). Retry the same request with the same proof after `Retry-After` seconds to receive it; never charged twice.',
  },
  rate_limited: {
    status: 429,
    meaning:
      'Too many requests from this client IP or payer address; retry after `Retry-After` seconds. Checked before payment: never charged.',
  },
  not_implemented: { status: 501, meaning: 'The route is in the catalog but not served by this release. Never charged.' },
  shutting_down: {
    status: 503,
    meaning:
      'The service is stopping and this request did not finish within `SHUTDOWN_TIMEOUT_SECONDS`. Retry it with the same proof: `details.payment` says `not_charged` (the proof buys the request again), `settling` (the answer is returned once the settlement is seen on chain) or `served` (the stored answer is returned); never charged twice.',
  },
  ledger_unavailable: {
    status: 503,
    meaning:
      'The payment ledger cannot be reached (PostgreSQL, `LEDGER_URL`) or written (the SQLite file, e.g. a full disk), so the payment cannot be claimed or recorded; refused before any charge, nothing settled. Retry after `Retry-After` seconds with the same proof.',
  },
  dataset_unavailable: { status: 503, meaning: 'The dataset behind the route is not loaded. Never charged.' },
  native_provider_required: {
    status: 422,
    meaning:
      'A KOL route on a service whose live providers are web search only: creators (authors, followers, engagement) come only from a native platform provider, and none is configured (for the `platform` asked). `details.configured` lists the providers. Refused before payment: never charged.',
  },
  provider_unavailable: {
    status: 502,
    meaning:
      'No live evidence provider could answer (down, HTTP error or malformed answer); `details.providers` says which and why. Never charged: the proof stays unused.',
  },
  provider_rate_limited: {
    status: 503,
    meaning:
      'Every live evidence provider that could answer is rate-limiting this service; `details.providers` says which and `Retry-After` when to retry. Never charged: the proof stays unused.',
  },
  provider_timeout: {
    status: 504,
    meaning:
      'The live evidence providers did not answer within their timeouts; `details.providers` names them. Never charged: the proof stays unused.',
  },
  facilitator_unavailable: {
    status: 502,
    meaning:
      "The payment facilitator could not be reached, did not answer in time, or refused this service's credentials (`details.reason` `facilitator_auth_rejected`); nothing was served or charged. Retry later.",
  },
  settlement_unavailable: {
    status: 503,
    meaning:
      "The chain's JSON-RPC endpoint this service verifies and settles over (`self` payment mode) did not answer: refused, timed out, or not JSON-RPC. Nothing was served or charged and the proof is not spent: retry it after `Retry-After` seconds.",
  },
  verification_busy: {
    status: 503,
    meaning:
      'Payments from payers this service has not yet served are being verified at the rate the facilitator allows; `Retry-After` says when to retry with the same proof. Payers it has served before are not held back. Never charged.',
  },
  internal_error: { status: 500, meaning: 'An unexpected server failure; quote `meta.request_id` to support. Never charged.' },
} as const

export type ErrorCode = keyof typeof ERROR_CODES

/**
 * What a 402 asks for, as x402 defines it: the v1 `accepts` list (carried in the error body) and the v2
 * PaymentRequired (http/ sends it in the PAYMENT-REQUIRED header, mcp/ as the tool result).
 */
export interface X402Requirements {
  v1Accepts: readonly Record<string, unknown>[]
  v2: PaymentRequired
}

/** What an error tells a client beyond its code, message and details; each adapter (http/, mcp/) carries it its own way. */
export interface ErrorHints {
  /** When to try again (HTTP: `Retry-After`). */
  retryAfterSeconds?: number
  /** The x402 requirements of a 402. */
  payment?: X402Requirements
}

/** An answer that is not a success: a stable code (its status in ERROR_CODES), a readable message, details and hints. */
export class ApiError extends Error {
  readonly status: number
  readonly retryAfterSeconds?: number
  readonly payment?: X402Requirements
  readonly details?: Record<string, unknown>

  constructor(
    readonly code: ErrorCode,
    message: string,
    details?: Record<string, unknown>,
    hints: ErrorHints = {},
  ) {
    // Every error a buyer, a page or the MCP adapter shows is built here: no configured secret passes.
    super(redactSecrets(message))
    if (details) this.details = redactDeep(details)
    this.status = ERROR_CODES[code].status
    if (hints.retryAfterSeconds !== undefined) this.retryAfterSeconds = hints.retryAfterSeconds
    if (hints.payment) this.payment = hints.payment
  }

  private template?: [string, string]

  /**
   * The error envelope as JSON for one request id (a 402 also carries the x402 v1 `accepts`). The rest is
   * serialised once per error object, so a reused error (the cached unpaid 402 of a route) costs one
   * string concatenation per request.
   */
  toJson(requestId: string): string {
    if (!this.template) {
      const placeholder = '\u0000request_id\u0000'
      const marker = JSON.stringify(placeholder)
      const json = JSON.stringify({
        success: false,
        error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) },
        meta: { request_id: placeholder },
        ...(this.payment ? { x402Version: 1, accepts: this.payment.v1Accepts } : {}),
      })
      const at = json.indexOf(marker)
      this.template = [json.slice(0, at), json.slice(at + marker.length)]
    }
    // Request ids are safe tokens (request-id.ts): no quoting needed.
    return `${this.template[0]}"${requestId}"${this.template[1]}`
  }
}

export const invalidParameter = (parameter: string, reason: string, allowed?: readonly unknown[]) =>
  new ApiError('invalid_parameter', `Invalid parameter "${parameter}": ${reason}`, {
    parameter,
    reason,
    ...(allowed ? { allowed } : {}),
  })

export const notFound = (what: string, value: string, parameter?: string, known?: readonly string[]) =>
  new ApiError('not_found', `Unknown ${what} "${value}"`, {
    ...(parameter ? { parameter } : {}),
    value,
    ...(known ? { known } : {}),
  })

/** Seconds a buyer is told to wait before retrying while the ledger is unreachable. */
const LEDGER_RETRY_SECONDS = 5

/**
 * The ledger cannot be reached (PostgreSQL) or written (SQLite): a paid request is refused before anything is claimed or charged
 * (`recording`: the answer was made but could not be recorded; the retry with the same proof receives it).
 */
export const ledgerUnavailable = (error: unknown, options: { recording?: boolean } = {}) =>
  new ApiError(
    'ledger_unavailable',
    options.recording
      ? 'The payment ledger stopped answering before this answer could be recorded; nothing was charged. Retry the same request with the same proof to receive it (never charged twice).'
      : 'The payment ledger cannot be reached, so the payment was not taken; nothing was claimed or charged. Retry the same request with the same proof.',
    { reason: redactedMessage(error).slice(0, 200) },
    { retryAfterSeconds: LEDGER_RETRY_SECONDS },
  )

/** What a client is told to wait before retrying a payment whose settlement is pending. */
const PENDING_RETRY_SECONDS = 5

/** Answers of the payment gate (src/payments/gate/gate.ts) that are not about the proof itself. */
export function shuttingDown(): ApiError {
  return new ApiError(
    'shutting_down',
    'The service is shutting down; retry the same request, with the same payment proof if you sent one: it is never charged twice.',
  )
}

export function verificationBusy(retryAfterSeconds: number): ApiError {
  return new ApiError(
    'verification_busy',
    `Too many new payers are being verified right now; nothing was charged. Retry after ${retryAfterSeconds} s with the same proof.`,
    {},
    { retryAfterSeconds },
  )
}

export function facilitatorUnavailable(reason: string): ApiError {
  return new ApiError('facilitator_unavailable', 'The payment facilitator cannot be reached; nothing was charged. Retry later.', { reason })
}

/** Seconds a buyer is asked to wait when the chain's RPC is down: hosted RPC outages last minutes, not hours. */
export const RPC_RETRY_SECONDS = 30

export function settlementUnavailable(reason: string): ApiError {
  return new ApiError(
    'settlement_unavailable',
    `The blockchain cannot be reached to verify the payment; nothing was charged and the proof is still good. Retry after ${RPC_RETRY_SECONDS} s with the same proof.`,
    { reason },
    { retryAfterSeconds: RPC_RETRY_SECONDS },
  )
}

export function settlementPending(transaction: string | null | undefined): ApiError {
  return new ApiError(
    'settlement_pending',
    'The answer is ready and the payment is settling on chain. Retry the same request with the same proof to receive it once settled; it is never charged twice.',
    transaction ? { transaction } : undefined,
    { retryAfterSeconds: PENDING_RETRY_SECONDS },
  )
}
