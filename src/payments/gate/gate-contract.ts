import type { VerifyGuard } from './verify-guard'
/** What the payment gate (gate.ts) and its steps (claim.ts, paid-work.ts, settle.ts) share. */
import type { RouteSpec, ServiceMetadata } from '../../catalog'
import type { ApiError, Logger } from '../../core'
import type { PaymentClaim, PaymentEvent, PaymentEventKind, PaymentLedger, SpendRecord, StoredArtifact } from '../../ledger'
import type { PaymentOffer } from '../networks'
import type { Proof, ProofInput } from './proof'
import type { SignInVerifier } from './sign-in'
import type { PaymentTerms } from './requirements'
import type { PaymentMode, Receipt, SettleOutcome, SettlementInput, Settler } from '../settler'

export interface GateOptions {
  /** The networks a 402 offers, in order, each with the address paid there. */
  offers: readonly PaymentOffer[]
  artifactTtlSeconds: number
  /** What every PaymentRequired says of the service (name, tags, icon); without it, name and tags alone. */
  service?: ServiceMetadata
  ledger: PaymentLedger
  settler: Settler
  /** Checks a pending payment on chain now (facilitator modes), and whether an authorization was used already. */
  reconciler?: {
    check(key: string): Promise<'settled' | 'failed' | 'pending'>
    usedOnChain(claim: PaymentClaim): Promise<{ used: true; txHash?: string } | { used: false }>
  }
  metrics?: PaymentMetrics
  /** Facilitator modes: bounds the verification calls junk proofs could cause (verify-guard.ts). */
  verifyGuard?: VerifyGuard
  /** SETTLE_MODE=deferred: answers released on verification, settled in the background (deferred.ts). */
  deferred?: DeferredGate
  /** A smart wallet's sign-in signature, checked over its chain's RPC (absent: EOA signatures only). */
  signInVerifier?: SignInVerifier
  /** Told of a settled payment whose record could not be committed yet (the ledger retries it). */
  logger?: Pick<Logger, 'error'>
  now?: () => number
}

/** What the gate reports to /metrics. */
export interface PaymentMetrics {
  paymentEvent(event: PaymentEvent): void
  settlement(mode: PaymentMode, outcome: SettleOutcome['status']): void
  /** What a paid request's work cost at providers (charged or not). */
  spent?(routeId: string, spend: readonly Omit<SpendRecord, 'at' | 'requestId' | 'routeId'>[]): void
  /** A paid request's answer was made: from the result cache (`hit`), computed (`miss`), or neither said. */
  answered?(routeId: string, cache: 'hit' | 'miss' | undefined): void
}

export interface PaidRequest {
  route: RouteSpec
  /** The payment payload as the transport delivered it (see proof.ts's ProofInput): undefined for none. */
  payment: ProofInput
  /** Absolute URL of the resource, without the query: the `resource` of the requirements. */
  resourceUrl: string
  requestId: string
  /** Route + normalised parameters; a proof buys exactly one fingerprint. */
  fingerprint: string
  /** The client's address as rate limits key it (an IPv6 client by its prefix), looked up when first asked: its share of the new payers' budget. */
  clientKey?: () => string | undefined
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
  /** When the work must be done (epoch ms): the authorization's validBefore less the margin settlement needs. */
  deadlineMs: number
}

/** What the paid work produced: a JSON envelope as text, or another format's body with its headers. */
export type PaidBody = string | { body: string | Uint8Array; headers: Record<string, string> }

/** Answer of the gate: the paid body with its own headers, and what the adapters tell the buyer about the payment. */
export interface GateAnswer {
  body: string | Uint8Array
  /** The answer's own headers (a CSV or Arrow answer's content type). */
  headers: Record<string, string>
  payer: `0x${string}`
  /** The network paid on, as the proof's x402 version names it. */
  network: string
  /** The settlement receipt, when the payment moved on chain with a known transaction. */
  receipt?: Receipt
  /** A retry with the same proof, answered with the result stored for it. */
  replayed?: true
  /** A wallet that signed in (sign-in-with-x), answered with the result it bought: no payment, no receipt. */
  signedIn?: true
}

/** The 402 refusals the gate answers with its route's requirements. */
export type RefusalCode = 'payment_required' | 'payment_invalid' | 'payment_replayed' | 'settlement_failed' | 'sign_in_refused'

/** A claimed payment as deferred settlement sees it (payment.ts's Payment). */
export interface DeferredPayment {
  readonly key: string
  readonly claim: PaymentClaim
  readonly auth: Authorized
  emit(event: PaymentEventKind, extra?: { txHash?: string; detail?: string }): void
}

/** Why a payment is settled before its answer in SETTLE_MODE=deferred (`payer_failed`: an earlier deferred settlement of its payer failed). */
export type NotDeferred = 'route_price' | 'payer_cap' | 'payer_failed' | 'queue_full' | 'closing'

/** What the gate asks of deferred settlement (deferred.ts). */
export interface DeferredGate {
  /** True when the payment may be answered before it settles; else why not. */
  admit(payment: DeferredPayment): true | NotDeferred
  withdraw(payment: DeferredPayment): void
  enqueue(payment: DeferredPayment, input: SettlementInput): void
  cleared(payer: string): void
}
