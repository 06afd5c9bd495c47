/**
 * The gate's last step, once the work answered: settle (or find it settled before), record the outcome
 * in the ledger with the stored answer, commit, and answer with the receipt. A failed settlement releases
 * the claim (nothing was charged); one of unknown outcome is parked as pending for the reconciler, its
 * answer kept back until the transfer is seen on chain.
 */
import { facilitatorUnavailable, foreignText, ledgerUnavailable, settlementPending, shuttingDown } from '../../core'
import type { GateAnswer } from './gate-contract'
import type { PaidWork } from './paid-work'
import type { Payment } from './payment'
import type { SettleOutcome, SettlementInput } from '../settler'
import { payerOf } from './proof'

export async function settlePayment(payment: Payment, { answer, artifactId, paidBefore, input }: PaidWork): Promise<GateAnswer> {
  const { ledger, settler, artifactTtlSeconds, deferred, metrics, logger } = payment.needs
  const { body, headers } = typeof answer === 'string' ? { body: answer, headers: undefined } : answer
  // A batch refund's acknowledgement is no answer of the route: a sign-in to the route must not get it.
  const refund = payment.auth.proof.batch?.type === 'refund'
  const buyer = refund ? undefined : { payer: payment.claim.payer.toLowerCase(), fingerprint: payment.claim.fingerprint }
  payment.keep({
    id: artifactId,
    body,
    ...(headers ? { headers } : {}),
    expiresAt: payment.needs.now() + artifactTtlSeconds,
    ...(buyer ? { buyer } : {}),
  })
  // Batch payments are never deferred: a voucher is charged at once without the chain, a deposit is the channel's opening.
  const admitted = deferred && !paidBefore.used && !payment.auth.proof.batch ? deferred.admit(payment) : undefined
  if (admitted === true) {
    return answerDeferred(payment, { body, headers, artifactPath: `/v1/artifacts/${artifactId}`, input })
  }
  payment.settling()
  const outcome = await settlementOf(payment, paidBefore, input)
  metrics?.settlement(settler.mode, outcome.status)
  const now = payment.needs.now()
  const artifact = { ...payment.artifact, expiresAt: now + artifactTtlSeconds }
  if (payment.cut && outcome.status === 'failed') {
    // Parked as pending by the deadline, and now known not to have moved: failed, as the reconciler would find.
    await ledger.resolve(payment.key, { settled: false }, now).catch(() => false)
    payment.emit('failed', { detail: `settle: ${outcome.reason}`, ...(outcome.transaction ? { txHash: outcome.transaction } : {}) })
    await ledger.durable().catch(() => {}) // queued: committed once the ledger is back
    throw shuttingDown()
  }
  payment.settled(outcome.status === 'failed' ? 'released' : outcome.status === 'pending' ? 'settling' : 'served')
  switch (outcome.status) {
    case 'local':
      ledger.complete(payment.key, artifact, now, { kind: 'local' })
      payment.emit('served', { detail: 'local' })
      break
    case 'settled': {
      if (payment.auth.proof.batch?.type === 'voucher') {
        // Charged to the buyer's channel, in the ledger: on chain only once the redeemer claims it.
        ledger.complete(payment.key, artifact, now, { kind: 'voucher' })
        payment.emit('served', { detail: 'voucher' })
        break
      }
      const txHash = outcome.receipt.transaction || undefined // unknown for a transfer found on chain without its transaction
      ledger.complete(payment.key, artifact, now, { kind: 'settled', ...(txHash ? { txHash } : {}) })
      payment.emit('settled', { ...(txHash ? { txHash } : {}), ...(paidBefore.used ? { detail: 'settled before its process died' } : {}) })
      payment.emit('served', { ...(txHash ? { txHash } : {}), detail: 'settled' })
      // Settled first because an earlier deferred settlement of this payer failed: it may defer again.
      if (admitted === 'payer_failed') deferred!.cleared(payment.auth.payer)
      break
    }
    case 'failed':
      // Definitely not settled: not served as paid, and the nonce is free again.
      ledger.release(payment.key, now)
      payment.emit('failed', { detail: `settle: ${outcome.reason}`, ...(outcome.transaction ? { txHash: outcome.transaction } : {}) })
      await ledger.durable().catch(() => {}) // queued: committed once the ledger is back
      throw outcome.unavailable ? facilitatorUnavailable(outcome.reason) : payment.settlementFailed(outcome.reason)
    case 'pending':
      ledger.park(payment.key, artifact, now, outcome.transaction)
      payment.emit('pending', { detail: outcome.reason, ...(outcome.transaction ? { txHash: outcome.transaction } : {}) })
      await ledger.durable().catch(() => {}) // queued: committed once the ledger is back
      throw settlementPending(outcome.transaction)
  }
  // Never answer before the payment and its result are committed: a retry must find them. Except a
  // payment that has moved money: its buyer gets the answer now, and the ledger keeps the record
  // queued until it commits (if this process dies first, the reconciler finds the transfer on chain).
  try {
    await ledger.durable()
  } catch (error) {
    if (outcome.status !== 'settled') throw ledgerUnavailable(error, { recording: true })
    logger?.error('settled payment answered before its record committed; the ledger retries it', {
      request_id: payment.req.requestId,
      key: payment.key,
      error: String(error),
    })
  }
  return {
    body,
    headers: headers ?? {},
    payer: payment.auth.payer,
    network: payment.network,
    ...payment.receipt(
      outcome.status === 'settled' ? outcome.receipt.transaction : null,
      outcome.status === 'settled' ? outcome.receipt : undefined,
    ),
  }
}

/**
 * SETTLE_MODE=deferred, admitted: the verified payment's claim is on disk already (paid-work.ts); its answer
 * is recorded as pending (kept back from /v1/artifacts until settled) and committed, then released with a
 * pending receipt while deferred.ts settles it in the background.
 */
async function answerDeferred(
  payment: Payment,
  answer: { body: string | Uint8Array; headers: Record<string, string> | undefined; artifactPath: string; input: SettlementInput },
): Promise<GateAnswer> {
  const { ledger, deferred } = payment.needs
  const now = payment.needs.now()
  payment.settled('settling') // the shutdown deadline leaves it as the ledger says: pending
  ledger.park(payment.key, payment.artifact, now)
  payment.emit('pending', { detail: 'deferred: answered on verification, settling in the background' })
  try {
    await ledger.durable()
  } catch (error) {
    // Not answered and not queued: the record commits once the ledger is back, and the reconciler fails it unused.
    deferred!.withdraw(payment)
    throw ledgerUnavailable(error, { recording: true })
  }
  deferred!.enqueue(payment, answer.input)
  return {
    body: answer.body,
    headers: answer.headers ?? {},
    payer: payment.auth.payer,
    network: payment.network,
    ...payment.pendingReceipt(answer.artifactPath),
  }
}

/** The settlement: found on chain before (a taken-over claim), or the settler's; a settler that throws is an unknown outcome. */
async function settlementOf(payment: Payment, paidBefore: PaidWork['paidBefore'], input: PaidWork['input']): Promise<SettleOutcome> {
  if (paidBefore.used)
    return {
      status: 'settled',
      receipt: {
        success: true,
        transaction: paidBefore.txHash ?? '',
        network: payment.auth.terms.network.caip2,
        payer: payerOf(payment.auth.proof),
      },
    }
  try {
    return await payment.needs.settler.settle(input)
  } catch (error) {
    return { status: 'pending', reason: `settle threw: ${foreignText(error instanceof Error ? error.message : String(error))}` } // outcome unknown
  }
}
