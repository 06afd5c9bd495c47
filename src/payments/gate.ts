import type { RouteSpec } from '../catalog'
import { ApiError } from '../http/errors'
import type { PaymentLedger } from './ledger'
import type { NetworkName } from './networks'
import { decodeProof, readProofHeader, type Proof } from './proof'
import { paymentRequiredParts, termsFor, type PaymentTerms } from './requirements'
import type { Settler } from './settlement'
import { verifyLocally } from './verify-local'

export interface GateOptions {
  network: NetworkName
  payTo: `0x${string}`
  artifactTtlSeconds: number
  ledger: PaymentLedger
  settler: Settler
  now?: () => number
}

export interface PaidRequest {
  route: RouteSpec
  headers: Headers
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

/** Answer of the gate: a JSON body plus headers to add (receipts, replay marker). */
export interface GateAnswer {
  body: string
  headers: Record<string, string>
  payer: `0x${string}`
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
  private readonly unpaid = new Map<string, ApiError>()
  private readonly inflight = new Map<string, Promise<void>>()
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
  private paymentError(req: PaidRequest, code: 'payment_required' | 'payment_invalid' | 'payment_replayed', message: string, details?: Record<string, unknown>) {
    const parts = paymentRequiredParts(req.route, this.termsOf(req.route), req.resourceUrl, message)
    return new ApiError(code, message, details, parts.headers, parts.body)
  }

  /** The same immutable error object answers every unpaid request for one resource (see ApiError.toJson). */
  private paymentRequired(req: PaidRequest): ApiError {
    const key = `${req.route.id} ${req.resourceUrl}`
    let error = this.unpaid.get(key)
    if (!error) {
      error = this.paymentError(req, 'payment_required', `Payment required: USD ${req.route.priceUsd} in USDC via x402 (send the proof in the x402-payment header).`)
      if (this.unpaid.size >= MAX_CACHED_REQUIREMENTS) this.unpaid.clear() // path-parameter routes could grow it without bound
      this.unpaid.set(key, error)
    }
    return error
  }

  /**
   * Step 1, synchronous: is there a proof, is it well-formed, and does it pay this route's terms?
   * An unpaid request gets its 402 back as a value (the hot path: no throw); an invalid proof throws
   * the 402 with the reason. Local mode verifies offline; a facilitator's verify call would replace
   * `verifyLocally` here.
   */
  authorize(req: PaidRequest): Authorized | ApiError {
    const header = readProofHeader(req.headers)
    if (!header) return this.paymentRequired(req)
    let proof
    try {
      proof = decodeProof(header)
    } catch (e) {
      if (e instanceof ApiError) throw this.paymentError(req, 'payment_invalid', e.message, e.details)
      throw e
    }
    const terms = this.termsOf(req.route)
    const verdict = verifyLocally(proof, terms, this.now())
    if (verdict.ok) return { req, proof, terms, payer: verdict.payer }
    const refusal = this.paymentError(req, 'payment_invalid', verdict.message, { reason: verdict.reason })
    if (verdict.reason === 'expired') {
      // An authentic proof past its window can no longer pay, but it may still fetch the result it paid
      // for (a client retrying after a dropped connection): fulfil() serves only a stored result then.
      const authentic = verifyLocally(proof, terms, this.now(), { ignoreTime: true })
      if (authentic.ok) return { req, proof, terms, payer: authentic.payer, storedOnly: refusal }
    }
    throw refusal
  }

  /**
   * Step 2: claim the nonce, run the paid work, settle, store the artifact. A retry of the same request
   * with the same proof gets the stored result; the same proof for another request is refused.
   */
  async fulfil(auth: Authorized, work: (paid: PaidContext) => Promise<string>): Promise<GateAnswer> {
    const { req, proof, terms, payer } = auth
    const a = proof.authorization
    const key = `${terms.network.caip2}:${terms.network.asset}:${a.from}:${a.nonce}`.toLowerCase()
    const claimRow = {
      key, network: terms.network.caip2, payer, nonce: a.nonce.toLowerCase(), routeId: req.route.id,
      fingerprint: req.fingerprint, amountAtomic: terms.amountAtomic.toString(), requestId: req.requestId,
    }
    for (;;) {
      const now = this.now()
      const claim = auth.storedOnly
        ? (this.o.ledger.lookup(key) ?? { status: 'claimed' as const })
        : this.o.ledger.claim(claimRow, now, now - terms.maxTimeoutSeconds)
      if (claim.status === 'claimed') {
        if (auth.storedOnly) throw auth.storedOnly
        break
      }
      if (claim.fingerprint !== req.fingerprint) {
        throw this.paymentError(req, 'payment_replayed', 'This payment proof was already used for a different request; sign a new one.', { reason: 'nonce_used' })
      }
      if (claim.state === 'served') {
        const stored = claim.artifactId ? this.o.ledger.artifact(claim.artifactId, now) : null
        if (!stored) throw this.paymentError(req, 'payment_replayed', 'This payment was already served and its stored result has expired; sign a new payment.', { reason: 'artifact_expired' })
        return { body: stored.body, headers: { 'x-payment-replay': 'stored-result' }, payer }
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
    let settled = false
    try {
      const artifactId = `art_${Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64url')}`
      const body = await work({ payer, artifactPath: `/v1/artifacts/${artifactId}` })
      const settlement = await this.o.settler.settle(proof, terms, payer)
      settled = true
      const now = this.now()
      this.o.ledger.complete(key, { id: artifactId, body, expiresAt: now + this.o.artifactTtlSeconds }, now)
      await this.o.ledger.durable() // never answer before the payment and its result are on disk
      const headers: Record<string, string> = {}
      if (settlement.receipt) {
        const encoded = Buffer.from(JSON.stringify(settlement.receipt)).toString('base64')
        headers['X-PAYMENT-RESPONSE'] = encoded
        headers['PAYMENT-RESPONSE'] = encoded
      }
      return { body, headers, payer }
    } catch (e) {
      // Before settlement nothing was charged: free the nonce. After it, the money moved: keep the claim
      // so the proof cannot buy again (reconciling such a payment comes with facilitator settlement).
      if (!settled) this.o.ledger.release(key, this.now())
      throw e
    } finally {
      this.inflight.delete(key)
      done()
    }
  }
}
