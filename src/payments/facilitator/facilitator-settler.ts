import type { FacilitatorClient } from '@x402/core/http'
import {
  FacilitatorTimeoutError,
  SettleError,
  VerifyError,
  type PaymentRequirements,
  type SettleResponse,
  type VerifyResponse,
} from '@x402/core/types'
import { FOREIGN_KEPT, foreignText, redactedMessage } from '../../core'
import { FacilitatorAuthError } from './facilitator-client'
import type { FacilitatorHealth } from './facilitator-health'
import { v1Requirements, v2Accept } from '../gate/requirements'
import { payerOf } from '../gate/proof'
import { batchAccept } from '../batch/batch-terms'
import { ChainUnavailableError } from '../chain/rpc-watch'
import type { PaymentMode, SettleOutcome, SettlementInput, Settler, VerifyOutcome } from '../settler'

/** The facilitator's own word for "broadcast, receipt not seen yet" (@x402/evm). */
const SETTLEMENT_PENDING = 'settlement_pending'

/** Redacted: libraries put the URL they called (an RPC's key in its path) into their messages. */
const message = redactedMessage

/**
 * What a facilitator or its client said, as the buyer, the ledger and /ready may see it: @x402/core's
 * "Facilitator settle failed (500): <the whole body>" as the status and a summary of the body (a
 * facilitator's error page may echo our request, its headers and the URL's key), any other text summarised.
 */
function saidBy(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  const http = /^Facilitator \w+ failed \((\d{3})\): ?([\s\S]*)$/.exec(text)
  if (!http) return foreignText(text)
  const body = foreignText(http[2]!)
  return `HTTP ${http[1]}${body ? `: ${body}` : ''}`
}

/** A facilitator's reason code as the buyer's `details.reason`: a machine reason as it is, free text as `invalid`. */
const reasonCode = (reason: string | undefined) => (reason && /^[a-z0-9_]{1,80}$/.test(reason) ? reason : 'invalid')

/** The facilitator's explanation of a refusal, summarised (its free text may hold anything it was sent). */
const refusedBecause = (said: { invalidMessage?: string; invalidReason?: string }) =>
  `The facilitator refused the payment: ${foreignText(said.invalidMessage ?? said.invalidReason ?? 'invalid')}.`

/** A connection that was never made: the facilitator cannot have received the request. */
function neverReached(error: unknown): boolean {
  const code = (error as { code?: string })?.code
  return code === 'ConnectionRefused' || code === 'ECONNREFUSED' || code === 'FailedToOpenSocket' || code === 'ENOTFOUND'
}

/**
 * The HTTP status of a facilitator answer that @x402/core's client turned into a plain Error
 * ("Facilitator settle failed (401): …"); undefined for anything else.
 */
export function refusedStatus(error: unknown): number | undefined {
  const status = /^Facilitator \w+ failed \((\d{3})\)/.exec(message(error))
  return status ? Number(status[1]) : undefined
}

/**
 * Our credentials were not accepted, or could not be made: the facilitator did nothing with the call
 * (it authenticates before it verifies or settles), so nothing moved; not the payer's fault.
 */
function authFailure(error: unknown): string | undefined {
  if (error instanceof FacilitatorAuthError) return 'facilitator_auth_unsigned'
  const status = refusedStatus(error)
  return status === 401 || status === 403 ? `facilitator_auth_rejected (HTTP ${status})` : undefined
}

/**
 * Verifies and settles through any x402 facilitator client: `@x402/core`'s HTTPFacilitatorClient
 * (`facilitator` mode, the standard /verify and /settle API) or an in-process `x402Facilitator` with
 * `@x402/evm`'s exact scheme (`self` mode); both have the same verify/settle interface.
 *
 * The payload is sent exactly as the client signed it, with the requirements of its x402 generation.
 * A settle whose outcome is unknown — a timeout, a broken connection, a 5xx, `settlement_pending` — is
 * `pending`, never `failed`: the transaction may still land, and the reconciler decides from the chain.
 */
export class FacilitatorSettler implements Settler {
  constructor(
    readonly mode: Exclude<PaymentMode, 'local'>,
    private readonly client: Pick<FacilitatorClient, 'verify' | 'settle'>,
    /** Told whether each call got an answer (facilitator mode: /ready reports an outage). */
    private readonly health?: FacilitatorHealth,
  ) {}

  async verify(input: SettlementInput): Promise<VerifyOutcome> {
    const outcome = await this.verifyOnce(input)
    if (outcome.ok || !outcome.unavailable) this.health?.reached()
    else this.health?.unreachable(outcome.message)
    return outcome
  }

  async settle(input: SettlementInput): Promise<SettleOutcome> {
    const outcome = await this.settleOnce(input)
    if (outcome.status === 'failed' && outcome.unavailable) this.health?.unreachable(`settle: ${outcome.reason}`)
    else if (outcome.status === 'pending' && /^facilitator_(timeout|error)/.test(outcome.reason))
      this.health?.unreachable(`settle: ${outcome.reason}`)
    else this.health?.reached()
    return outcome
  }

  private requirements(input: SettlementInput): PaymentRequirements {
    if (input.proof.batch && input.terms.batch) return batchAccept(input.terms, input.terms.batch)
    if (input.proof.x402Version === 1) {
      // x402 v1 requirements carry outputSchema; facilitators accept an empty one.
      return { ...v1Requirements(input.route, input.terms, input.resourceUrl), outputSchema: {} } as unknown as PaymentRequirements
    }
    return v2Accept(input.terms)
  }

  private async verifyOnce(input: SettlementInput): Promise<VerifyOutcome> {
    try {
      const verified: VerifyResponse & { skipHandler?: unknown } = await this.client.verify(input.proof.raw, this.requirements(input))
      // A batch refund: verified, answered without the route (x402ResourceServer's skipHandler directive).
      if (verified.isValid) return verified.skipHandler ? { ok: true, skipHandler: true } : { ok: true }
      return { ok: false, reason: reasonCode(verified.invalidReason), message: refusedBecause(verified) }
    } catch (error) {
      if (error instanceof VerifyError) {
        return { ok: false, reason: reasonCode(error.invalidReason), message: refusedBecause(error) }
      }
      // Verification moves no money: a facilitator that is down, slow or refusing our credentials only means "cannot serve now".
      if (error instanceof ChainUnavailableError) return { ok: false, unavailable: true, reason: 'rpc_unavailable', message: error.message }
      const auth = authFailure(error)
      if (auth) return { ok: false, unavailable: true, reason: auth.split(' ')[0]!, message: auth }
      return {
        ok: false,
        unavailable: true,
        reason: error instanceof FacilitatorTimeoutError ? 'facilitator_timeout' : 'facilitator_unreachable',
        message: saidBy(error),
      }
    }
  }

  private async settleOnce(input: SettlementInput): Promise<SettleOutcome> {
    let settled: SettleResponse
    try {
      settled = await this.client.settle(input.proof.raw, this.requirements(input))
    } catch (error) {
      if (error instanceof SettleError)
        settled = {
          success: false,
          errorReason: error.errorReason,
          errorMessage: error.errorMessage,
          transaction: error.transaction,
          network: error.network,
        }
      else if (neverReached(error)) return { status: 'failed', reason: 'facilitator_unreachable', unavailable: true }
      else if (authFailure(error)) return { status: 'failed', reason: authFailure(error)!, unavailable: true }
      else
        return {
          status: 'pending',
          reason: error instanceof FacilitatorTimeoutError ? 'facilitator_timeout' : `facilitator_error: ${saidBy(error)}`,
        }
    }
    if (settled.success) {
      return {
        status: 'settled',
        receipt: {
          success: true,
          transaction: settled.transaction,
          network: settled.network,
          payer: settled.payer ?? payerOf(input.proof),
          // Batch-settlement: the channel's running total, which the buyer's client keeps (nothing else a facilitator adds).
          ...(input.proof.batch && settled.extra ? { extra: channelExtra(settled.extra) } : {}),
        },
      }
    }
    const tx = settled.transaction ? { transaction: settled.transaction } : {}
    const reason = foreignText(settled.errorReason ?? 'unknown', 2 * FOREIGN_KEPT)
    if (reason === SETTLEMENT_PENDING) return { status: 'pending', reason, ...tx }
    // Facilitators name definite failures with machine reasons (`invalid_exact_evm_insufficient_balance`,
    // `invalid_transaction_state` for a reverted transfer).
    if (/^[a-z0-9_]+$/.test(reason)) return { status: 'failed', reason, ...tx }
    // Free text is an exception they caught (@x402/evm's v1 scheme passes it on as the reason). A revert
    // before any transaction hash is the gas estimate refusing the transfer: nothing was broadcast.
    if (!settled.transaction && /revert/i.test(reason)) return { status: 'failed', reason: `settle_reverted: ${reason.slice(0, 200)}` }
    // Anything else, e.g. a receipt wait that broke after broadcasting: the transfer may still land.
    return { status: 'pending', reason: reason.slice(0, 300), ...tx }
  }
}

/** Of a batch settlement's `extra`, what the buyer's client reads: the channel's state and the charge. */
function channelExtra(extra: Record<string, unknown>): Record<string, unknown> {
  return {
    ...(extra.channelState !== undefined ? { channelState: extra.channelState } : {}),
    ...(typeof extra.chargedAmount === 'string' ? { chargedAmount: extra.chargedAmount } : {}),
  }
}
