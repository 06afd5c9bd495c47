import { limitKeyOf } from '../core/ip-address'
import type { RouteSpec } from '../catalog'
import type { AnswerFormat } from '../catalog/table'
import { tableAnswer } from '../formats/table-answer'
import type { GateAnswer, PaymentGate } from '../payments/gate'
import { buildSuccess } from './success'
import { ApiError } from '../core/errors'
import type { Prepared } from '../core/route-handler'
import type { ProviderSpend } from '../core/provider-spend'
import { overLimit, type RateLimits } from './rate-limit'
import { withinDeadline } from '../core/work-deadline'
import { redactSecrets } from '../core/redact'

export interface PaidCall {
  route: RouteSpec
  /** The request, checked and resolved before payment. */
  prepared: Prepared
  proofHeader: string | null
  resourceUrl: string
  requestId: string
  /** The caller's address, asked for only when a proof is present (looking it up has a cost). */
  clientIp: () => string | undefined
  /** CSV or Arrow for a table route (HTTP only); the JSON envelope otherwise. A proof buys one answer in one format. */
  format?: AnswerFormat
}

/**
 * What a paid call comes to, for the adapter to translate: refused, with the 402's requirements and the
 * reason (or the 404, 429 or 5xx that stands for it) as an `ApiError`; or paid, with the answer and its
 * receipt. Only an internal failure is thrown.
 */
export type PaidOutcome = ApiError | GateAnswer

/**
 * The paid part of a request, the same for HTTP routes and MCP tools: the per-IP limit before the
 * proof's signature is recovered (the first expensive step), verification, the per-payer limit, then
 * claim, run, settle and store. Synchronous until the payment is verified: a 402 or 429 comes back as
 * a value (the hot path: no promise, no throw); what needs the ledger or a facilitator, as a promise.
 */
export function payFor(gate: PaymentGate, limits: RateLimits | undefined, call: PaidCall): ApiError | Promise<PaidOutcome> {
  // The client, keyed as rate limits key it, looked up once and only when asked: for the IP limit, and for
  // its share of the new payers' verification budget (a payer already served never asks).
  let looked = false
  let client: string | undefined
  const clientKey = () => {
    if (!looked) {
      looked = true
      const ip = call.clientIp()
      client = ip === undefined ? undefined : limitKeyOf(ip, limits?.ipv6Prefix ?? 64)
    }
    return client
  }
  if (call.proofHeader && limits?.ip.enabled) {
    const limited = overLimit(limits, 'ip', clientKey()) as ApiError | null // the IP limit is always this process's
    if (limited) return limited
  }
  // Nothing to sell, and known already (intelligence/known-misses.ts): the free 404, before any 402.
  const known = call.prepared.known?.()
  if (known) return known
  const format = call.format ?? 'json'
  const fingerprint = format === 'json' ? `${call.route.id}|${call.prepared.key}` : `${call.route.id}|${call.prepared.key}|${format}`
  let auth
  try {
    auth = gate.authorize({
      route: call.route,
      proofHeader: call.proofHeader,
      resourceUrl: call.resourceUrl,
      requestId: call.requestId,
      fingerprint,
      clientKey,
    })
  } catch (error) {
    return refusal(error) // a proof that cannot pay: malformed, badly signed, for other terms
  }
  if (auth instanceof ApiError) return auth
  const fulfil = (): Promise<PaidOutcome> =>
    gate
      .fulfil(auth, async ({ artifactPath, deadlineMs }) => {
        // What the answer cost at live providers is recorded whether or not it is charged in the end.
        const spend: ProviderSpend[] = []
        try {
          const result = await withinDeadline(deadlineMs, () => call.prepared.run(spend))
          gate.answered(call.route.id, result.cacheStatus)
          const envelope = buildSuccess(call.route, call.requestId, result, artifactPath)
          // The answer as sold, stored and replayed: no configured secret in it, whatever a provider echoed.
          if (format === 'json') return redactSecrets(JSON.stringify(envelope))
          const table = await tableAnswer(call.route, format, envelope)
          return typeof table.body === 'string' ? { ...table, body: redactSecrets(table.body) } : table
        } finally {
          gate.spent(call.requestId, call.route.id, spend)
        }
      })
      .catch(refusal)
  const limited = overLimit(limits, 'payer', auth.payer)
  if (limited instanceof Promise) {
    // Shared with other instances: the limit is known after a round trip to the ledger.
    return limited.then((limit) => limit ?? fulfil())
  }
  if (limited) return limited
  return fulfil()
}

/** A refusal the steps threw (an ApiError) as the outcome; anything else stays an internal failure. */
function refusal(error: unknown): ApiError {
  if (error instanceof ApiError) return error
  throw error
}
