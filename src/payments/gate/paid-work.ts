/**
 * The gate's second step, once the nonce is claimed: verify with the facilitator (facilitator modes),
 * run the paid work, and put the claim on disk before any money moves. Any failure releases the claim:
 * nothing was settled, so the proof can still buy a request.
 */
import { ApiError, facilitatorUnavailable, ledgerUnavailable, settlementUnavailable, shuttingDown } from '../../core'
import type { PaidBody, PaidContext } from './gate-contract'
import type { Payment } from './payment'
import type { SettlementInput } from '../settler'
import { provenPayer } from './verify-guard'
import { VALID_BEFORE_MARGIN_SECONDS } from './verify-local'
import type { Proof } from './proof'
import type { PaymentTerms } from './requirements'
import { refundAnswer } from '../batch/refund-answer'
import { BATCH_RESERVATION_MAX_SECONDS } from '../batch/batch-terms'

/** What the work produced, and whether the buyer had paid before (a claim taken over from a process that died). */
export interface PaidWork {
  answer: PaidBody
  artifactId: string
  paidBefore: { used: true; txHash?: string } | { used: false }
  input: SettlementInput
}

export async function runPaidWork(payment: Payment, work: (paid: PaidContext) => Promise<PaidBody>): Promise<PaidWork> {
  const { req, proof, terms, payer } = payment.auth
  const { settler, reconciler, ledger, verifyGuard } = payment.needs
  const input: SettlementInput = { proof, terms, route: req.route, resourceUrl: req.resourceUrl }
  const artifactId = newArtifactId()
  const paidBefore = await paidBeforeItsProcessDied(payment, input)
  let reported = false
  /** Refused before or by the verification: with a SQLite ledger, a junk proof leaves nothing in it (below). */
  let refused = false
  /** Verified: a batch channel is reserved for this request until it is charged or cancelled. */
  let verified = false
  let skipHandler = false
  try {
    if (settler.verify && !paidBefore.used) {
      // Only a request about to call the facilitator is admitted (verify-guard.ts): retries served from
      // the ledger never reach here, and the slot is held only for the call itself.
      const proven = provenPayer(payment.auth)
      const slot = verifyGuard?.admit(
        payer,
        proven,
        (reason, message) => payment.refuse('payment_invalid', message, { reason }),
        req.clientKey,
      )
      if (slot instanceof ApiError) {
        reported = true
        refused = !payment.takenOver
        throw slot
      }
      const verdict = await settler.verify(input).finally(() => slot?.release())
      verified = verdict.ok // set before the deadline's check: a channel reserved by this verdict is freed below
      if (payment.cut) throw shuttingDown()
      if (!verdict.ok) {
        reported = true
        if (verdict.unavailable) {
          payment.emit('failed', { detail: `verify: ${verdict.reason}` })
          throw unavailable(verdict)
        }
        refused = !payment.takenOver
        if (refused) payment.refused(`verify: ${verdict.reason}`)
        else payment.emit('failed', { detail: `verify: ${verdict.reason}` })
        verifyGuard?.refused(payer, proven, verdict)
        if (verdict.correction) throw payment.correct(verdict.message, verdict.reason, verdict.correction)
        throw payment.refuse('payment_invalid', verdict.message, { reason: verdict.reason })
      }
      skipHandler = verdict.skipHandler === true
    }
    payment.emit('verified')
    const artifactPath = `/v1/artifacts/${artifactId}`
    const answer = skipHandler
      ? refundAnswer(req.requestId, proof.batch?.channelId ?? '')
      : await work({ payer, artifactPath, deadlineMs: workDeadlineMs(proof, terms) })
    // Released by the shutdown deadline while the handler ran: it must not be settled now.
    if (payment.cut) throw shuttingDown()
    if (settler.mode !== 'local' && !paidBefore.used) {
      // Money moves next: the claim goes on disk first, so a process dying mid-settlement leaves it to the reconciler.
      ledger.persistClaim(payment.key)
      await ledger.durable().catch((e: unknown) => {
        throw ledgerUnavailable(e)
      })
      if (payment.cut) throw shuttingDown()
    }
    return { answer, artifactId, paidBefore, input }
  } catch (error) {
    // A batch channel reserved for this request is free again at once (not when its reservation expires).
    if (verified && !paidBefore.used) await settler.cancel?.(input).catch(() => {})
    if (payment.cut) throw error // the deadline released the claim and recorded it; the nonce may be another request's by now
    // Nothing was settled: free the nonce so the proof can still buy a request.
    if (!reported)
      payment.emit('failed', {
        detail: `handler: ${error instanceof ApiError ? error.code : String(error instanceof Error ? error.message : error).slice(0, 200)}`,
      })
    // Paid before its first process died: the claim is kept, so the buyer's retry (once the payment
    // window has passed) runs the request again without paying, or the reconciler records the payment.
    if (refused && ledger.forget) ledger.forget(payment.key, payment.needs.now())
    else if (!paidBefore.used) ledger.release(payment.key, payment.needs.now())
    // The failure is on record before the client hears of it (a disk error here changes nothing: no charge).
    await ledger.durable().catch(() => {})
    throw error
  }
}

/**
 * Taken over from a request whose process died: it may have settled before it died. Then the buyer has
 * paid for this very request, and gets it without a second settlement. A batch voucher is charged to its
 * channel, not on chain: the channel knows whether it was.
 */
async function paidBeforeItsProcessDied(payment: Payment, input: SettlementInput): Promise<PaidWork['paidBefore']> {
  const { settler, reconciler } = payment.needs
  if (!payment.takenOver || settler.mode === 'local') return { used: false }
  if (input.proof.batch?.type === 'voucher')
    return { used: settler.chargedBefore ? await settler.chargedBefore(input).catch(() => false) : false }
  // Unknown: settling again cannot charge twice (the nonce is single-use).
  return reconciler ? reconciler.usedOnChain(payment.claim).catch(() => ({ used: false as const })) : { used: false }
}

/** A verification that could not be made: whose trouble it was (the chain, the ledger, the facilitator). */
function unavailable(verdict: { reason: string; message: string }): ApiError {
  if (verdict.reason === 'rpc_unavailable') return settlementUnavailable(verdict.message)
  if (verdict.reason === 'ledger_unavailable') return ledgerUnavailable(new Error(verdict.message))
  return facilitatorUnavailable(verdict.message)
}

/**
 * When the work must be done: before the authorization expires (exact, a deposit), or before a batch
 * channel's reservation for this request lapses (x402's batch server holds it for the payment window, at
 * most 10 minutes): a voucher charged after that would be refused as a busy channel.
 */
function workDeadlineMs(proof: Proof, terms: PaymentTerms): number {
  const margin = VALID_BEFORE_MARGIN_SECONDS * 1000
  if (!proof.batch) return Number(proof.authorization.validBefore) * 1000 - margin
  const reservedUntil = Date.now() + Math.min(terms.maxTimeoutSeconds, BATCH_RESERVATION_MAX_SECONDS) * 1000
  return (proof.batch.deposit ? Math.min(Number(proof.batch.deposit.validBefore) * 1000, reservedUntil) : reservedUntil) - margin
}

/**
 * Unguessable (128 random bits: the id is the key to a paid answer), after a hex timestamp so that ids
 * sort by time: each stored answer then lands at the end of the artifacts index, not on a page of its own.
 */
export const newArtifactId = (): string =>
  `art_${Date.now().toString(16).padStart(12, '0')}${Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64url')}`
