/**
 * The gate's first step after authorization: claim the payment's nonce in the ledger. A retry of the
 * same request with the same proof gets its stored answer; the same proof for another request is
 * refused; a payment still settling is looked up on chain; a claim held by a request still running is
 * waited for (in this process) or polled (another process sharing the ledger).
 */
import { ledgerUnavailable, LedgerUnavailable, settlementPending, shuttingDown } from '../../core'
import type { GateAnswer } from './gate-contract'
import type { Payment } from './payment'
import { paymentIdConflict } from './payment-id'

const POLL_MS = 200

/** Claims the payment (undefined: claimed, `payment.takenOver` says from whom), or returns the stored answer a retry is owed. */
export async function claimPayment(payment: Payment): Promise<GateAnswer | undefined> {
  const { req, terms, payer, storedOnly } = payment.auth
  const { ledger, reconciler, runs } = payment.needs
  for (;;) {
    if (runs.closed) throw shuttingDown()
    const now = payment.needs.now()
    const claim = await reachLedger(
      storedOnly
        ? ledger.lookup(payment.key).then((held) => held ?? { status: 'claimed' as const, takenOver: false })
        : ledger.claim(payment.claim, now, now - terms.maxTimeoutSeconds),
    )
    if (claim.status === 'id_conflict') throw paymentIdConflict(payment.claim.paymentId ?? '')
    if (claim.status === 'claimed') {
      if (storedOnly) throw storedOnly
      payment.takenOver = claim.takenOver === true
      return undefined
    }
    if (claim.fingerprint !== req.fingerprint) {
      // A batch voucher's ceiling already bought another request: its client lost the running total (a
      // response it never read). The corrective 402 carries the channel's, which the client resyncs from.
      const correction = await voucherCorrection(payment)
      if (correction) throw correction
      throw payment.refuse('payment_replayed', 'This payment proof was already used for a different request; sign a new one.', {
        reason: 'nonce_used',
      })
    }
    if (claim.state === 'served') {
      const stored = claim.artifactId ? await reachLedger(ledger.artifact(claim.artifactId, now)) : null
      if (!stored)
        throw payment.refuse('payment_replayed', 'This payment was already served and its stored result has expired; sign a new payment.', {
          reason: 'artifact_expired',
        })
      return {
        body: stored.body,
        headers: stored.headers ?? {},
        payer,
        network: payment.network,
        replayed: true,
        ...payment.receipt(claim.txHash),
      }
    }
    if (claim.state === 'pending') {
      // The client retries the request its payment is settling for: look at the chain now.
      const verdict = reconciler ? await reconciler.check(payment.key) : 'pending'
      if (verdict === 'settled') continue // served now: the next turn returns the stored result
      if (verdict === 'failed') throw payment.settlementFailed('authorization_expired_unsettled')
      throw settlementPending(claim.txHash)
    }
    if (claim.state === 'failed') throw storedOnly ?? new Error('ledger: a failed claim was not taken again')
    // Same request still running (a client retry after a dropped connection): wait for it, then look
    // again. Held by another process sharing the ledger: poll; a claim idle for longer than the payment
    // window belongs to a process that died, and the next claim() takes it over.
    const running = runs.runOf(payment.key)
    if (running) await running
    else if (storedOnly) throw storedOnly
    else await Bun.sleep(POLL_MS)
  }
}

const MISMATCH = 'invalid_batch_settlement_evm_cumulative_amount_mismatch'

async function voucherCorrection(payment: Payment) {
  const { proof, terms, req } = payment.auth
  const settler = payment.needs.settler
  if (proof.batch?.type !== 'voucher' || !settler.correct) return undefined
  const input = { proof, terms, route: req.route, resourceUrl: req.resourceUrl }
  const accept = await settler.correct(input, MISMATCH).catch(() => undefined)
  return (
    accept && payment.correct('This voucher was already spent on another request; the channel stands as this 402 says.', MISMATCH, accept)
  )
}

/** A ledger read or claim; an unreachable ledger refuses the paid request before anything is charged. */
export async function reachLedger<T>(operation: Promise<T>): Promise<T> {
  try {
    return await operation
  } catch (error) {
    throw error instanceof LedgerUnavailable ? ledgerUnavailable(error) : error
  }
}
