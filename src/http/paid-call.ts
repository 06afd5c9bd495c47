import type { RouteSpec } from '../catalog'
import type { GateAnswer, PaymentGate } from '../payments/gate'
import { buildSuccess } from './envelope'
import { ApiError } from './errors'
import type { Prepared } from './handler'
import { overLimit, type RateLimits } from './rate-limit'

export interface PaidCall {
  route: RouteSpec
  /** The request, checked and resolved before payment. */
  prepared: Prepared
  proofHeader: string | null
  resourceUrl: string
  requestId: string
  /** The caller's address, asked for only when a proof is present (looking it up has a cost). */
  clientIp: () => string | undefined
}

/**
 * The paid part of a request, the same for HTTP routes and MCP tools: the per-IP limit before the
 * proof's signature is recovered (the first expensive step), verification, the per-payer limit, then
 * claim, run, settle and store. Synchronous until the payment is verified: a 402 or 429 comes back as
 * a value (the hot path: no promise, no throw); an invalid proof throws its ApiError.
 */
export function payFor(gate: PaymentGate, limits: RateLimits | undefined, c: PaidCall): ApiError | Promise<GateAnswer> {
  if (c.proofHeader && limits?.ip.enabled) {
    const limited = overLimit(limits, 'ip', c.clientIp())
    if (limited) return limited
  }
  const auth = gate.authorize({ route: c.route, proofHeader: c.proofHeader, resourceUrl: c.resourceUrl, requestId: c.requestId, fingerprint: `${c.route.id}|${c.prepared.key}` })
  if (auth instanceof ApiError) return auth
  const limited = overLimit(limits, 'payer', auth.payer)
  if (limited) return limited
  return gate.fulfil(auth, async ({ artifactPath }) => JSON.stringify(buildSuccess(c.route, c.requestId, await c.prepared.run(), artifactPath)))
}
