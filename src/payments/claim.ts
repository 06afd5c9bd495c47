/**
 * The gate's first step after authorization: claim the payment's nonce in the ledger. A retry of the
 * same request with the same proof gets its stored answer; the same proof for another request is
 * refused; a payment still settling is looked up on chain; a claim held by a request still running is
 * waited for (in this process) or polled (another process sharing the ledger).
 */
import { ledgerUnavailable, settlementPending, shuttingDown } from '../core/errors'
import type { GateAnswer, GateContext } from './gate-contract'
import { type ClaimResult } from '../ledger/contract'
import { LedgerUnavailable } from '../core/stores'
import { settlementFailed, type Payment } from './payment'

const POLL_MS = 200

export type Claimed = Extract<ClaimResult, { status: 'claimed' }>

/** The claim, or the stored answer a retry is owed. */
export async function claimPayment(context: GateContext, payment: Payment): Promise<{ claimed: Claimed } | { stored: GateAnswer }> {
  const { req, terms, payer, storedOnly } = payment.auth
  for (;;) {
    if (context.runs.closed) throw shuttingDown()
    const now = context.now()
    const claim = await reachLedger(
      storedOnly
        ? context.options.ledger.lookup(payment.key).then((held) => held ?? { status: 'claimed' as const })
        : context.options.ledger.claim(payment.claim, now, now - terms.maxTimeoutSeconds),
    )
    if (claim.status === 'claimed') {
      if (storedOnly) throw storedOnly
      return { claimed: claim }
    }
    if (claim.fingerprint !== req.fingerprint) {
      throw context.refuse(req, 'payment_replayed', 'This payment proof was already used for a different request; sign a new one.', {
        reason: 'nonce_used',
      })
    }
    if (claim.state === 'served') {
      const stored = claim.artifactId ? await reachLedger(context.options.ledger.artifact(claim.artifactId, now)) : null
      if (!stored)
        throw context.refuse(
          req,
          'payment_replayed',
          'This payment was already served and its stored result has expired; sign a new payment.',
          {
            reason: 'artifact_expired',
          },
        )
      return {
        stored: {
          body: stored.body,
          headers: stored.headers ?? {},
          payer,
          network: payment.network,
          replayed: true,
          ...payment.receipt(claim.txHash),
        },
      }
    }
    if (claim.state === 'pending') {
      // The client retries the request its payment is settling for: look at the chain now.
      const verdict = context.options.reconciler ? await context.options.reconciler.check(payment.key) : 'pending'
      if (verdict === 'settled') continue // served now: the next turn returns the stored result
      if (verdict === 'failed') throw settlementFailed(context, req, 'authorization_expired_unsettled')
      throw settlementPending(claim.txHash)
    }
    if (claim.state === 'failed') throw storedOnly ?? new Error('ledger: a failed claim was not taken again')
    // Same request still running (a client retry after a dropped connection): wait for it, then look
    // again. Held by another process sharing the ledger: poll; a claim idle for longer than the payment
    // window belongs to a process that died, and the next claim() takes it over.
    const running = context.runs.runOf(payment.key)
    if (running) await running
    else if (storedOnly) throw storedOnly
    else await Bun.sleep(POLL_MS)
  }
}

/** A ledger read or claim; an unreachable ledger refuses the paid request before anything is charged. */
async function reachLedger<T>(operation: Promise<T>): Promise<T> {
  try {
    return await operation
  } catch (error) {
    throw error instanceof LedgerUnavailable ? ledgerUnavailable(error) : error
  }
}
