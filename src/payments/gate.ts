import type { RouteSpec } from '../catalog'
import { ApiError, facilitatorUnavailable, ledgerUnavailable, settlementPending, shuttingDown } from '../core/errors'
import type { Logger } from '../core/logger'
import { LedgerUnavailable, type ClaimResult, type PaymentClaim, type PaymentEvent, type PaymentEventKind, type PaymentLedger, type SpendRecord, type StoredArtifact } from './ledger'
import type { NetworkName } from './networks'
import { decodeProof, type Proof } from './proof'
import { paymentRequiredParts, termsFor, type PaymentTerms } from './requirements'
import type { PaymentMode, Receipt, SettleOutcome, SettlementInput, Settler } from './settlement'
import { verifyLocally } from './verify-local'

export interface GateOptions {
  network: NetworkName
  payTo: `0x${string}`
  artifactTtlSeconds: number
  ledger: PaymentLedger
  settler: Settler
  /** Checks a pending payment on chain now (facilitator modes), and whether an authorization was used already. */
  reconciler?: { check(key: string): Promise<'settled' | 'failed' | 'pending'>; usedOnChain(c: PaymentClaim): Promise<{ used: true; txHash?: string } | { used: false }> }
  metrics?: PaymentMetrics
  /** Told of a settled payment whose record could not be committed yet (the ledger retries it). */
  logger?: Pick<Logger, 'error'>
  now?: () => number
}

/** What the gate reports to /metrics. */
export interface PaymentMetrics {
  paymentEvent(e: PaymentEvent): void
  settlement(mode: PaymentMode, outcome: SettleOutcome['status']): void
}

export interface PaidRequest {
  route: RouteSpec
  /** The proof header's value (x402-payment, X-PAYMENT or PAYMENT-SIGNATURE; see `readProofHeader`), if any. */
  proofHeader: string | null
  /** Absolute URL of the resource, without the query: the `resource` of the requirements. */
  resourceUrl: string
  requestId: string
  /** Route + normalised parameters; a proof buys exactly one fingerprint. */
  fingerprint: string
}

/** A proof that verified against a route's terms, not yet claimed. */
export interface Authorized {
  req: PaidRequest
  proof: Proof
  terms: PaymentTerms
  payer: `0x${string}`
  /** Set for an authentic but expired proof: only its stored result may be returned, else this error. */
  storedOnly?: ApiError
}

export interface PaidContext {
  payer: `0x${string}`
  artifactPath: string
}

/** What the paid work produced: a JSON envelope as text, or another format's body with its headers. */
export type PaidBody = string | { body: string | Uint8Array; headers: Record<string, string> }

/** Answer of the gate: the body plus headers to add (the answer's own, receipts, replay marker). */
export interface GateAnswer {
  body: string | Uint8Array
  headers: Record<string, string>
  payer: `0x${string}`
}

/** What the shutdown deadline did to a paid request still running: see `PaymentGate.cutOff`. */
export type CutOutcome = 'released' | 'settling' | 'served'

/** A claimed payment whose request is running, and how far it got. */
interface Running {
  requestId: string
  /** Verifying or running the handler, settling, or what the ledger already says once the settlement is known. */
  phase: 'work' | 'settle' | CutOutcome
  /** Built before settling: what a settlement cut off by the deadline is parked with. */
  artifact?: StoredArtifact
  emit(event: PaymentEventKind, extra?: { txHash?: string; detail?: string }): void
  /** Set by `cutOff`: the ledger already says what became of this payment. */
  cut?: CutOutcome
}

const POLL_MS = 200
const MAX_CACHED_REQUIREMENTS = 10_000

/**
 * The x402 payment gate. Verifies the proof, claims its nonce, runs the paid work, settles only after
 * the work succeeded, and stores the result as an artifact so a retry with the same proof gets it back
 * instead of paying twice. Any failure of the work releases the claim: nothing is charged.
 */
export class PaymentGate {
  private readonly terms = new Map<string, PaymentTerms>()
  /** The unpaid 402 is the most frequent answer: its requirements are built once per resource URL. */
  private readonly unpaid = new Map<RouteSpec, Map<string, ApiError>>()
  private readonly inflight = new Map<string, Promise<void>>()
  private readonly running = new Map<string, Running>()
  /** Set by `cutOff`: no payment is claimed any more. */
  private closed = false
  private readonly now: () => number

  constructor(private readonly o: GateOptions) {
    this.now = o.now ?? (() => Math.floor(Date.now() / 1000))
  }

  private termsOf(route: RouteSpec): PaymentTerms {
    let t = this.terms.get(route.id)
    if (!t) {
      t = termsFor(route, this.o.network, this.o.payTo)
      this.terms.set(route.id, t)
    }
    return t
  }

  /** The 402 for a request without (valid) payment, carrying v1 and v2 requirements. */
  private paymentError(req: PaidRequest, code: 'payment_required' | 'payment_invalid' | 'payment_replayed' | 'settlement_failed', message: string, details?: Record<string, unknown>) {
    const parts = paymentRequiredParts(req.route, this.termsOf(req.route), req.resourceUrl, message)
    return new ApiError(code, message, details, parts.headers, parts.body)
  }

  /** The same immutable error object answers every unpaid request for one resource (see ApiError.toJson). */
  private paymentRequired(req: PaidRequest): ApiError {
    let byResource = this.unpaid.get(req.route)
    if (!byResource) this.unpaid.set(req.route, (byResource = new Map()))
    let error = byResource.get(req.resourceUrl)
    if (!error) {
      error = this.paymentError(req, 'payment_required', `Payment required: USD ${req.route.priceUsd} in USDC via x402 (send the proof in the x402-payment header).`)
      if (byResource.size >= MAX_CACHED_REQUIREMENTS) byResource.clear() // path-parameter routes could grow it without bound
      byResource.set(req.resourceUrl, error)
    }
    return error
  }

  /**
   * Step 1, synchronous: is there a proof, is it well-formed, and does it pay this route's terms?
   * An unpaid request gets its 402 back as a value (the hot path: no throw); an invalid proof throws
   * the 402 with the reason. Every mode checks offline first (terms, window, ECDSA signature), so junk never
   * reaches a facilitator; facilitator modes then verify with the facilitator in `fulfil`, which also
   * accepts smart-wallet signatures that only the chain can check.
   */
  authorize(req: PaidRequest): Authorized | ApiError {
    const header = req.proofHeader
    if (!header) return this.paymentRequired(req)
    let proof
    try {
      proof = decodeProof(header)
    } catch (e) {
      if (e instanceof ApiError) throw this.paymentError(req, 'payment_invalid', e.message, e.details)
      throw e
    }
    const terms = this.termsOf(req.route)
    const contractSignatures = this.o.settler.mode !== 'local'
    const verdict = verifyLocally(proof, terms, this.now(), { contractSignatures })
    if (verdict.ok) return { req, proof, terms, payer: verdict.payer }
    const refusal = this.paymentError(req, 'payment_invalid', verdict.message, { reason: verdict.reason })
    if (verdict.reason === 'expired') {
      // An authentic proof past its window can no longer pay, but it may still fetch the result it paid
      // for (a client retrying after a dropped connection): fulfil() serves only a stored result then.
      const authentic = verifyLocally(proof, terms, this.now(), { ignoreTime: true, contractSignatures })
      if (authentic.ok) return { req, proof, terms, payer: authentic.payer, storedOnly: refusal }
    }
    throw refusal
  }

  /**
   * Step 2: claim the nonce, verify with the facilitator (facilitator modes), run the paid work, settle,
   * store the artifact. A retry of the same request with the same proof gets the stored result; the same
   * proof for another request is refused. Only a handler that answered is settled; a failed handler or a
   * failed settlement releases the claim (nothing was charged); a settlement of unknown outcome is parked
   * as pending for the reconciler, its result kept back until the transfer is seen on chain.
   */
  async fulfil(auth: Authorized, work: (paid: PaidContext) => Promise<PaidBody>): Promise<GateAnswer> {
    const { req, proof, terms, payer } = auth
    const a = proof.authorization
    const key = `${terms.network.caip2}:${terms.network.asset}:${a.from}:${a.nonce}`.toLowerCase()
    const claimRow: PaymentClaim = {
      key, network: terms.network.caip2, payer, nonce: a.nonce.toLowerCase(), routeId: req.route.id,
      fingerprint: req.fingerprint, amountAtomic: terms.amountAtomic.toString(), requestId: req.requestId, validBefore: a.validBefore,
    }
    const emit = (event: PaymentEventKind, extra: { txHash?: string; detail?: string } = {}) => {
      const e: PaymentEvent = {
        event, at: this.now(), key, requestId: req.requestId, routeId: req.route.id, payer, amountAtomic: claimRow.amountAtomic,
        nonce: claimRow.nonce, network: claimRow.network, ...extra,
      }
      this.o.ledger.record(e)
      this.o.metrics?.paymentEvent(e)
    }
    const receiptHeaders = (transaction: string | null | undefined): Record<string, string> => {
      if (!transaction) return {}
      const receipt: Receipt = { success: true, transaction, network: proof.x402Version === 1 ? terms.network.name : terms.network.caip2, payer: a.from }
      const encoded = Buffer.from(JSON.stringify(receipt)).toString('base64')
      return { 'X-PAYMENT-RESPONSE': encoded, 'PAYMENT-RESPONSE': encoded }
    }

    let claimed: Extract<ClaimResult, { status: 'claimed' }>
    for (;;) {
      if (this.closed) throw shuttingDown()
      const now = this.now()
      const claim = await reachLedger(
        auth.storedOnly
          ? this.o.ledger.lookup(key).then((held) => held ?? { status: 'claimed' as const })
          : this.o.ledger.claim(claimRow, now, now - terms.maxTimeoutSeconds),
      )
      if (claim.status === 'claimed') {
        if (auth.storedOnly) throw auth.storedOnly
        claimed = claim
        break
      }
      if (claim.fingerprint !== req.fingerprint) {
        throw this.paymentError(req, 'payment_replayed', 'This payment proof was already used for a different request; sign a new one.', { reason: 'nonce_used' })
      }
      if (claim.state === 'served') {
        const stored = claim.artifactId ? await reachLedger(this.o.ledger.artifact(claim.artifactId, now)) : null
        if (!stored) throw this.paymentError(req, 'payment_replayed', 'This payment was already served and its stored result has expired; sign a new payment.', { reason: 'artifact_expired' })
        return { body: stored.body, headers: { ...stored.headers, 'x-payment-replay': 'stored-result', ...receiptHeaders(claim.txHash) }, payer }
      }
      if (claim.state === 'pending') {
        // The client retries the request its payment is settling for: look at the chain now.
        const verdict = this.o.reconciler ? await this.o.reconciler.check(key) : 'pending'
        if (verdict === 'settled') continue // served now: the next turn returns the stored result
        if (verdict === 'failed') throw this.settlementFailed(req, 'authorization_expired_unsettled')
        throw settlementPending(claim.txHash)
      }
      if (claim.state === 'failed') throw auth.storedOnly ?? new Error('ledger: a failed claim was not taken again')
      // Same request still running (a client retry after a dropped connection): wait for it, then look
      // again. Held by another process sharing the ledger: poll; a claim idle for longer than the payment
      // window belongs to a process that died, and the next claim() takes it over.
      const running = this.inflight.get(key)
      if (running) await running
      else if (auth.storedOnly) throw auth.storedOnly
      else await Bun.sleep(POLL_MS)
    }

    let done!: () => void
    this.inflight.set(key, new Promise<void>((r) => (done = r)))
    const running: Running = { requestId: req.requestId, phase: 'work', emit }
    this.running.set(key, running)
    const input: SettlementInput = { proof, terms, route: req.route, resourceUrl: req.resourceUrl }
    try {
      const artifactId = newArtifactId()
      let answer: PaidBody
      let reported = false
      // Taken over from a request whose process died: it may have settled before it died. Then the
      // buyer has paid for this very request, and gets it without a second settlement.
      const paidBefore = claimed.takenOver && this.o.settler.mode !== 'local' && this.o.reconciler
        ? await this.o.reconciler.usedOnChain(claimRow).catch(() => ({ used: false as const })) // unknown: settling again cannot charge twice (the nonce is single-use)
        : { used: false as const }
      try {
        if (this.o.settler.verify && !paidBefore.used) {
          const verdict = await this.o.settler.verify(input)
          if (running.cut) throw shuttingDown()
          if (!verdict.ok) {
            emit('failed', { detail: `verify: ${verdict.reason}` })
            reported = true
            throw verdict.unavailable
              ? facilitatorUnavailable(verdict.message)
              : this.paymentError(req, 'payment_invalid', `The facilitator refused the payment: ${verdict.message}`, { reason: verdict.reason })
          }
        }
        emit('verified')
        answer = await work({ payer, artifactPath: `/v1/artifacts/${artifactId}` })
        // Released by the shutdown deadline while the handler ran: it must not be settled now.
        if (running.cut) throw shuttingDown()
        if (this.o.settler.mode !== 'local' && !paidBefore.used) {
          // Money moves next: the claim goes on disk first, so a process dying mid-settlement leaves it to the reconciler.
          this.o.ledger.persistClaim(key)
          await this.o.ledger.durable().catch((e: unknown) => {
            throw ledgerUnavailable(e)
          })
          if (running.cut) throw shuttingDown()
        }
      } catch (e) {
        if (running.cut) throw e // the deadline released the claim and recorded it; the nonce may be another request's by now
        // Nothing was settled: free the nonce so the proof can still buy a request.
        if (!reported) emit('failed', { detail: `handler: ${e instanceof ApiError ? e.code : String(e instanceof Error ? e.message : e).slice(0, 200)}` })
        // Paid before its first process died: the claim is kept, so the buyer's retry (once the payment
        // window has passed) runs the request again without paying, or the reconciler records the payment.
        if (!paidBefore.used) this.o.ledger.release(key, this.now())
        // The failure is on record before the client hears of it (a disk error here changes nothing: no charge).
        await this.o.ledger.durable().catch(() => {})
        throw e
      }

      const { body, headers } = typeof answer === 'string' ? { body: answer, headers: undefined } : answer
      running.artifact = { id: artifactId, body, ...(headers ? { headers } : {}), expiresAt: this.now() + this.o.artifactTtlSeconds }
      running.phase = 'settle'
      let outcome: SettleOutcome
      if (paidBefore.used) {
        outcome = { status: 'settled', receipt: { success: true, transaction: paidBefore.txHash ?? '', network: terms.network.caip2, payer: a.from } }
      } else {
        try {
          outcome = await this.o.settler.settle(input)
        } catch (e) {
          outcome = { status: 'pending', reason: `settle threw: ${e instanceof Error ? e.message : String(e)}` } // outcome unknown
        }
      }
      this.o.metrics?.settlement(this.o.settler.mode, outcome.status)
      const now = this.now()
      const artifact = { ...running.artifact, expiresAt: now + this.o.artifactTtlSeconds }
      if (running.cut && outcome.status === 'failed') {
        // Parked as pending by the deadline, and now known not to have moved: failed, as the reconciler would find.
        await this.o.ledger.resolve(key, { settled: false }, now).catch(() => false)
        emit('failed', { detail: `settle: ${outcome.reason}`, ...(outcome.transaction ? { txHash: outcome.transaction } : {}) })
        await this.o.ledger.durable().catch(() => {}) // queued: committed once the ledger is back
        throw shuttingDown()
      }
      running.phase = outcome.status === 'failed' ? 'released' : outcome.status === 'pending' ? 'settling' : 'served'
      switch (outcome.status) {
        case 'local':
          this.o.ledger.complete(key, artifact, now, { kind: 'local' })
          emit('served', { detail: 'local' })
          break
        case 'settled': {
          const txHash = outcome.receipt.transaction || undefined // unknown for a transfer found on chain without its transaction
          this.o.ledger.complete(key, artifact, now, { kind: 'settled', ...(txHash ? { txHash } : {}) })
          emit('settled', { ...(txHash ? { txHash } : {}), ...(paidBefore.used ? { detail: 'settled before its process died' } : {}) })
          emit('served', { ...(txHash ? { txHash } : {}), detail: 'settled' })
          break
        }
        case 'failed':
          // Definitely not settled: not served as paid, and the nonce is free again.
          this.o.ledger.release(key, now)
          emit('failed', { detail: `settle: ${outcome.reason}`, ...(outcome.transaction ? { txHash: outcome.transaction } : {}) })
          await this.o.ledger.durable().catch(() => {}) // queued: committed once the ledger is back
          throw outcome.unavailable ? facilitatorUnavailable(outcome.reason) : this.settlementFailed(req, outcome.reason)
        case 'pending':
          this.o.ledger.park(key, artifact, now, outcome.transaction)
          emit('pending', { detail: outcome.reason, ...(outcome.transaction ? { txHash: outcome.transaction } : {}) })
          await this.o.ledger.durable().catch(() => {}) // queued: committed once the ledger is back
          throw settlementPending(outcome.transaction)
      }
      // Never answer before the payment and its result are committed: a retry must find them. Except a
      // payment that has moved money: its buyer gets the answer now, and the ledger keeps the record
      // queued until it commits (if this process dies first, the reconciler finds the transfer on chain).
      try {
        await this.o.ledger.durable()
      } catch (e) {
        if (outcome.status !== 'settled') throw ledgerUnavailable(e, { recording: true })
        this.o.logger?.error('settled payment answered before its record committed; the ledger retries it', { request_id: req.requestId, key, error: String(e) })
      }
      return { body, headers: { ...headers, ...(outcome.status === 'settled' ? receiptHeaders(outcome.receipt.transaction) : {}) }, payer }
    } finally {
      this.inflight.delete(key)
      this.running.delete(key)
      done()
    }
  }

  /**
   * The shutdown deadline: claims nothing more and settles nothing more, and leaves every payment still
   * running in a state its buyer's retry (with the same proof, on the next start) resolves without a
   * second charge. Not yet settling: released, as a failed handler is (nothing moved; the proof buys its
   * request again). Settling: the settlement's outcome is unknown, so it is parked as pending with its
   * answer, as a settle timeout is, for the reconciler or the retry to find on chain (answered once
   * settled, failed once the authorization expires unused). Settlement known: nothing to do (a retry gets
   * the stored answer, or buys the request again after a failed settlement). Returns what happened, by request id; commit with `ledger.durable()` before answering.
   */
  cutOff(): Map<string, CutOutcome> {
    this.closed = true
    const now = this.now()
    const outcomes = new Map<string, CutOutcome>()
    for (const [key, r] of this.running) {
      if (r.cut) continue
      if (r.phase === 'work') {
        r.cut = 'released'
        this.o.ledger.release(key, now)
        r.emit('failed', { detail: 'shutdown: cut off before settlement' })
      } else if (r.phase === 'settle') {
        r.cut = 'settling'
        this.o.ledger.park(key, r.artifact!, now)
        r.emit('pending', { detail: 'shutdown: cut off while settling' })
      } else {
        r.cut = r.phase // the settlement's outcome is in the ledger already, being committed
      }
      outcomes.set(r.requestId, r.cut)
    }
    return outcomes
  }

  /** Provider spend of a paid request's work: recorded with its payment's next commit (charged or not). */
  spent(requestId: string, routeId: string, spend: readonly Omit<SpendRecord, 'at' | 'requestId' | 'routeId'>[]): void {
    const at = this.now()
    for (const s of spend) this.o.ledger.recordSpend({ at, requestId, routeId, ...s })
  }

  private settlementFailed(req: PaidRequest, reason: string): ApiError {
    return this.paymentError(req, 'settlement_failed', 'The payment could not be settled, so the answer is not served; nothing was charged. Sign a new payment (or fund the payer) and retry.', { reason })
  }
}

/**
 * Unguessable (128 random bits: the id is the key to a paid answer), after a hex timestamp so that ids
 * sort by time: each stored answer then lands at the end of the artifacts index, not on a page of its own.
 */
export const newArtifactId = (): string =>
  `art_${Date.now().toString(16).padStart(12, '0')}${Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64url')}`

/** A ledger read or claim; an unreachable ledger refuses the paid request before anything is charged. */
async function reachLedger<T>(p: Promise<T>): Promise<T> {
  try {
    return await p
  } catch (e) {
    throw e instanceof LedgerUnavailable ? ledgerUnavailable(e) : e
  }
}
