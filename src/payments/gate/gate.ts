import type { PaymentRequirements } from '@x402/core/types'
import { paymentRequiredMessage, type RouteSpec } from '../../catalog'
import { ApiError, redactSecrets, type X402Requirements } from '../../core'
import { claimPayment, reachLedger } from './claim'
import type { Authorized, GateAnswer, GateOptions, PaidBody, PaidContext, PaidRequest, RefusalCode } from './gate-contract'
import type { SpendRecord } from '../../ledger'
import { runPaidWork } from './paid-work'
import { Payment, type CutOutcome, type PaymentNeeds } from './payment'
import { readProof, type Proof } from './proof'
import { paymentRequirements, termsFor, type PaymentTerms } from './requirements'
import { settlePayment } from './settle'
import { verifyLocally } from './verify-local'
import { verifyBatchLocally } from '../batch/batch-verify'
import { provenPayer } from './verify-guard'
import { GateState } from './gate-state'
import { readSignIn, SIGN_IN_REFUSALS, type SignInRefusal } from './sign-in'

export type { CutOutcome } from './payment'
export type { Authorized, GateAnswer, GateOptions, PaidBody, PaidContext, PaidRequest, PaymentMetrics } from './gate-contract'

const MAX_CACHED_REQUIREMENTS = 10_000
/** Refusals differ by resource, reason and message; some messages carry what the proof said (its amount). */
const MAX_CACHED_REFUSALS = 4_096

/**
 * The x402 payment gate. Verifies the proof, claims its nonce, runs the paid work, settles only after
 * the work succeeded, and stores the result as an artifact so a retry with the same proof gets it back
 * instead of paying twice. Any failure of the work releases the claim: nothing is charged.
 */
export class PaymentGate {
  /** Each route's terms on every offered network, in the order the 402 offers them. */
  private readonly terms = new Map<string, readonly PaymentTerms[]>()
  /** The unpaid 402 is the most frequent answer: its requirements are built once per resource URL. */
  private readonly unpaid = new Map<RouteSpec, Map<string, ApiError>>()
  /** A refused proof's 402, by resource and refusal: junk repeats a few refusals, each answered as built once. */
  private readonly refusals = new Map<string, ApiError>()
  /** The requirements of a resource on every network, shared by its refusals (only their `error` differs). */
  private readonly requirements = new Map<string, X402Requirements>()
  /** The payments running in this process, and whether the shutdown deadline closed the gate. */
  private readonly runs = new GateState()
  private readonly now: () => number

  /** What each payment's steps read of the gate (claim.ts, paid-work.ts, settle.ts). */
  private readonly needs: PaymentNeeds

  constructor(private readonly options: GateOptions) {
    this.now = options.now ?? (() => Math.floor(Date.now() / 1000))
    const { ledger, settler, reconciler, verifyGuard, deferred, metrics, logger, artifactTtlSeconds } = options
    this.needs = {
      ...{ ledger, settler, reconciler, verifyGuard, deferred, metrics, logger, artifactTtlSeconds },
      now: this.now,
      runs: this.runs,
      refuse: (req, code, message, details) => this.paymentError(req, code, message, details),
      correct: (req, message, reason, accept) => this.correction(req, message, reason, accept),
    }
  }

  private termsOf(route: RouteSpec): readonly PaymentTerms[] {
    let terms = this.terms.get(route.id)
    if (!terms) {
      terms = this.options.offers.map((offer) => termsFor(route, offer))
      this.terms.set(route.id, terms)
    }
    return terms
  }

  /**
   * The terms a proof is checked against: those of the network it names (a v1 proof by its v1 name, a
   * v2 proof by its CAIP-2 id: each only as its facilitator would take it). A
   * network not offered is refused with the list; a proof signed for one network and relabelled as
   * another fails its signature (the EIP-712 domain holds the chain id and the USDC contract).
   */
  private proofTerms(req: PaidRequest, proof: Proof): PaymentTerms {
    const all = this.termsOf(req.route)
    const named = all.find((t) => proof.network === (proof.x402Version === 1 ? t.network.v1 : t.network.caip2))
    if (named) return named
    const offered = all.map((t) => `${t.network.name} (${t.network.caip2})`).join(', ')
    throw this.paymentError(req, 'payment_invalid', `Network "${proof.network}" is not accepted; pay on ${offered}.`, {
      reason: 'wrong_network',
    })
  }

  /**
   * The 402 for a request without (valid) payment, carrying v1 and v2 requirements. A refusal is built
   * once per resource, code, message and details and then reused, with its encoded header and body
   * template (envelope.ts, ApiError.toJson): a flood of junk proofs costs the check, not a new 402 each.
   */
  private paymentError(req: PaidRequest, code: RefusalCode, message: string, details?: Record<string, unknown>) {
    const key = `${req.resourceUrl}\u0000${code}\u0000${message}\u0000${details ? JSON.stringify(details) : ''}`
    let error = this.refusals.get(key)
    if (!error) {
      const base = this.requirementsOf(req)
      // The PaymentRequired repeats the message: redacted as the envelope's (ApiError's) is, whatever a facilitator said.
      const said = redactSecrets(message)
      error = new ApiError(code, said, details, { payment: { v1Accepts: base.v1Accepts, v2: { ...base.v2, error: said } } })
      if (this.refusals.size >= MAX_CACHED_REFUSALS) this.refusals.clear()
      this.refusals.set(key, error)
    }
    return error
  }

  /**
   * Batch-settlement's corrective 402, never cached (it carries one channel's state): the PaymentRequired's
   * `error` is the reason code itself, which is what x402's batch client recovers on.
   */
  private correction(req: PaidRequest, message: string, reason: string, accept: PaymentRequirements): ApiError {
    const base = this.requirementsOf(req)
    const accepts = base.v2.accepts.map((offered) =>
      offered.scheme === accept.scheme && offered.network === accept.network ? accept : offered,
    )
    const said = redactSecrets(message)
    return new ApiError(
      'payment_invalid',
      said,
      { reason },
      { payment: { v1Accepts: base.v1Accepts, v2: { ...base.v2, accepts, error: reason } } },
    )
  }

  private requirementsOf(req: PaidRequest): X402Requirements {
    const key = `${req.route.id}\u0000${req.resourceUrl}`
    let built = this.requirements.get(key)
    if (!built) {
      built = paymentRequirements(req.route, this.termsOf(req.route), req.resourceUrl, '', this.options.service)
      if (this.requirements.size >= MAX_CACHED_REQUIREMENTS) this.requirements.clear()
      this.requirements.set(key, built)
    }
    return built
  }

  /** The same immutable error object answers every unpaid request for one resource (see ApiError.toJson). */
  private paymentRequired(req: PaidRequest): ApiError {
    let byResource = this.unpaid.get(req.route)
    if (!byResource) this.unpaid.set(req.route, (byResource = new Map()))
    let error = byResource.get(req.resourceUrl)
    if (!error) {
      error = this.paymentError(req, 'payment_required', paymentRequiredMessage(req.route))
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
    if (req.payment === undefined) return this.paymentRequired(req)
    let proof
    try {
      proof = readProof(req.payment)
    } catch (error) {
      if (error instanceof ApiError) throw this.paymentError(req, 'payment_invalid', error.message, error.details)
      throw error
    }
    const terms = this.proofTerms(req, proof)
    const contractSignatures = this.options.settler.mode !== 'local'
    const check = (ignoreTime: boolean) =>
      proof.batch
        ? verifyBatchLocally(proof, terms, this.now(), { ignoreTime, contractSignatures })
        : verifyLocally(proof, terms, this.now(), { ignoreTime, contractSignatures })
    const verdict = check(false)
    if (verdict.ok) return { req, proof, terms, payer: verdict.payer }
    const refusal = this.paymentError(req, 'payment_invalid', verdict.message, { reason: verdict.reason })
    if (verdict.reason === 'expired') {
      // An authentic proof past its window can no longer pay, but it may still fetch the result it paid
      // for (a client retrying after a dropped connection): fulfil() serves only a stored result then.
      const authentic = check(true)
      if (authentic.ok) return { req, proof, terms, payer: authentic.payer, storedOnly: refusal }
    }
    throw refusal
  }

  /**
   * A sign-in instead of a payment (sign-in.ts): the stored answer the signing wallet bought for this
   * request (route and normalised parameters), while it is kept, with no payment and no payment row;
   * the challenge's nonce is spent. A refusal is a 402 with the requirements, so the buyer can pay instead.
   */
  async signIn(req: PaidRequest, header: string): Promise<GateAnswer | ApiError> {
    const { ledger, signInVerifier } = this.options
    const chains = this.termsOf(req.route).map((terms) => terms.network.caip2)
    const verdict = await readSignIn(header, { resourceUrl: req.resourceUrl, chains }, this.now() * 1000)
    const refuse = (reason: SignInRefusal) => this.paymentError(req, 'sign_in_refused', SIGN_IN_REFUSALS[reason], { reason })
    if (!verdict.ok) return refuse(verdict.reason)
    const stored = await reachLedger(ledger.boughtAnswer(verdict.payer, req.fingerprint, this.now()))
    // Not an EOA's signature: a smart wallet's is checked on chain, and only for a wallet that bought this
    // answer, so junk never costs an RPC call, and who bought what is never told to an unproven signer.
    if (!verdict.recovered) {
      const contract = stored && signInVerifier ? await signInVerifier(verdict.chainId, verdict.signed).catch(() => false) : false
      if (!contract) return refuse('bad_signature')
    }
    if (!stored) return refuse('not_bought')
    if (!(await reachLedger(ledger.useSignInNonce(verdict.nonce, verdict.expiresAt)))) return refuse('nonce_used')
    const payer = verdict.payer as `0x${string}`
    return { body: stored.body, headers: stored.headers ?? {}, payer, network: verdict.chainId, signedIn: true }
  }

  /**
   * Step 2: claim the nonce (claim.ts), verify and run the paid work (paid-work.ts), settle and record
   * (settle.ts). A retry of the same request with the same proof gets the stored result; the same proof
   * for another request is refused. Only a handler that answered is settled; a failed handler or a
   * failed settlement releases the claim (nothing was charged); a settlement of unknown outcome is parked
   * as pending for the reconciler, its result kept back until the transfer is seen on chain.
   */
  async fulfil(auth: Authorized, work: (paid: PaidContext) => Promise<PaidBody>): Promise<GateAnswer> {
    const payment = new Payment(auth, this.needs)
    const stored = await claimPayment(payment)
    if (stored) return stored
    const end = this.runs.begin(payment)
    let answer: GateAnswer
    try {
      answer = await settlePayment(payment, await runPaidWork(payment, work))
    } finally {
      end()
    }
    this.options.verifyGuard?.served(auth.payer, provenPayer(auth))
    return answer
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
    return this.runs.close(this.now())
  }

  /** Provider spend of a paid request's work: recorded with its payment's next commit (charged or not). */
  spent(requestId: string, routeId: string, spend: readonly Omit<SpendRecord, 'at' | 'requestId' | 'routeId'>[]): void {
    const at = this.now()
    for (const s of spend) this.options.ledger.recordSpend({ at, requestId, routeId, ...s })
    if (spend.length) this.options.metrics?.spent?.(routeId, spend)
  }

  /** A paid request's answer was made (for /metrics: the paid answers the result cache served). */
  answered(routeId: string, cache: 'hit' | 'miss' | undefined): void {
    this.options.metrics?.answered?.(routeId, cache)
  }
}
