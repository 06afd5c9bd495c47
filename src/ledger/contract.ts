/** The payment ledger's contract: what the gate records and asks (SQLite: sqlite.ts; PostgreSQL: postgres.ts). */
import type { ChannelStorage } from '@x402/evm/batch-settlement/server'
import type { Business } from './business'
import type { PAYMENTS, SharedColumn } from './tables'

/** The seller's console's reader of the ledger's 30-day figures (business.ts), closed with the console. */
export interface BusinessReader {
  read(now: number): Promise<Business>
  close(): Promise<void>
}

/** What the gate records about one payment authorization (one EIP-3009 nonce). */
export interface PaymentClaim {
  /** `<caip2>:<asset>:<payer>:<nonce>`, lower case: EIP-3009 nonces are unique per payer and token. */
  key: string
  network: string
  payer: string
  nonce: string
  routeId: string
  /** Route + normalised parameters: the same proof may only ever buy this one request. */
  fingerprint: string
  amountAtomic: string
  requestId: string
  /** The authorization's validBefore (unix seconds): after it, an unsettled authorization can never move money. */
  validBefore?: string
  /**
   * x402's payment-identifier, when the buyer sent one, with a digest of the whole payload: per payer, an
   * id names one payload while its payment is not failed; another payload under it is `id_conflict`.
   */
  paymentId?: string
  payloadDigest?: string
}

/**
 * in_progress: claimed, handler running. served: answered (and settled, outside local mode). pending:
 * answered by the handler but the settlement's outcome is unknown; its result is kept back until the
 * reconciler finds the transfer on chain (-> served) or the authorization expired unused (-> failed).
 * failed: nothing was charged; the authorization may be used again.
 */
export type PaymentState = 'in_progress' | 'served' | 'pending' | 'failed'

/**
 * How a payment was settled: offline-verified only (local mode), on chain, charged to a batch-settlement
 * channel (`voucher`: on chain once claimed, with others), or not (yet).
 */
export type Settlement = 'local' | 'settled' | 'voucher' | 'pending' | 'failed'

/**
 * A row of the `payments` table as both engines keep it (tables.ts; PostgreSQL adds its claim
 * bookkeeping). SQLite returns its times as numbers; PostgreSQL its BIGINT times as text.
 */
export interface PaymentRow<Time extends number | string = number | string> {
  key: string
  network: string
  payer: string
  nonce: string
  route: string
  fingerprint: string
  amount_atomic: string
  request_id: string
  state: PaymentState
  artifact_id: string | null
  created_at: Time
  updated_at: Time
  settlement: Settlement | null
  tx_hash: string | null
  valid_before: string | null
  payment_id: string | null
  payload_digest: string | null
}

type Same<Left, Right> = [Left] extends [Right] ? ([Right] extends [Left] ? true : false) : false
type Holds<Claim extends true> = Claim
/** A column declared in PAYMENTS and missing here, or the other way round, fails to compile. */
export type PaymentRowIsTheTable = Holds<Same<keyof PaymentRow, SharedColumn<typeof PAYMENTS>>>

/** The claim a payments row records, read the same from either engine. */
export function claimOfRow(row: PaymentRow): PaymentClaim {
  return {
    key: row.key,
    network: row.network,
    payer: row.payer,
    nonce: row.nonce,
    routeId: row.route,
    fingerprint: row.fingerprint,
    amountAtomic: row.amount_atomic,
    requestId: row.request_id,
    ...(row.valid_before ? { validBefore: row.valid_before } : {}),
    ...(row.payment_id ? { paymentId: row.payment_id, payloadDigest: row.payload_digest ?? '' } : {}),
  }
}

export type ClaimResult =
  /** `takenOver`: the nonce was held `in_progress` by a request whose process died; it may have settled before it died. */
  | { status: 'claimed'; takenOver?: boolean }
  | { status: 'taken'; fingerprint: string; state: PaymentState; artifactId: string | null; updatedAt: number; txHash: string | null }
  /** The claim's payment id names another payload of this payer, whose payment is not failed: nothing was claimed. */
  | { status: 'id_conflict' }

/** One line of the revenue record: what happened to a payment, when, for which request. */
export type PaymentEventKind = 'verified' | 'served' | 'settled' | 'failed' | 'pending' | 'reconciled'
export interface PaymentEvent {
  event: PaymentEventKind
  at: number
  key: string
  requestId: string
  routeId: string
  payer: string
  amountAtomic: string
  nonce: string
  network: string
  txHash?: string
  /** Why, for failed/pending; the settlement for served. */
  detail?: string
}

/**
 * A payment whose settlement is still open, as the reconciler reads it: `pending`, or `in_progress` well
 * past its authorization's validBefore (its process died; it may have settled before it did).
 */
export interface PendingPayment {
  claim: PaymentClaim
  state: 'pending' | 'in_progress'
  txHash: string | null
  updatedAt: number
}

/**
 * What a request cost the seller at one live provider (search requests, model tokens): kept beside the
 * payments so `payments report` sets provider spend against revenue per route. Written whether or not
 * the request was charged (a failed request's provider calls are spent all the same).
 */
export interface SpendRecord {
  at: number
  requestId: string
  routeId: string
  provider: string
  role: string
  requests: number
  inputTokens?: number
  outputTokens?: number
  /** nano-USD (1e-9); null when the seller configured no price for this provider. */
  costNanoUsd: bigint | null
}

/** How a served answer's payment stands: verified here (`local`) or settled on chain. */
export type ServedSettlement = { kind: Extract<Settlement, 'local' | 'settled' | 'voucher'>; txHash?: string }

export interface StoredArtifact {
  id: string
  /** The answer's bytes: JSON or CSV text, or an Arrow stream. */
  body: string | Uint8Array
  /** Headers the answer was sent with besides the JSON default (content type, dataset version, ...), sent again with it. */
  headers?: Record<string, string>
  expiresAt: number
  /** Who bought it (lower case) and for which request (route + normalised parameters): what a sign-in asks for. */
  buyer?: { payer: string; fingerprint: string }
}

/** An in_progress claim this long past its authorization's validBefore belongs to a process that died. */
export const DEAD_CLAIM_AFTER_SECONDS = 60

/**
 * Durable record of used nonces, accepted payments and paid results: a local SQLite file for one
 * instance (the default), or PostgreSQL shared by several (src/postgres). Reads and claims are async (a
 * network round trip for PostgreSQL); state changes are queued and committed together by `durable()`.
 * A ledger that cannot be reached rejects with `LedgerUnavailable`.
 */
export interface PaymentLedger {
  /**
   * Atomically takes the nonce for this request, or reports who holds it. A `failed` claim may be taken
   * again, and so may an `in_progress` one not touched since `staleBefore` (its process died mid-request).
   * A claim with a payment id bound to another payload of its payer (not failed) takes nothing: `id_conflict`.
   */
  claim(claim: PaymentClaim, now: number, staleBefore: number): Promise<ClaimResult>
  /**
   * The claim goes on disk at the next commit (await `durable()`), before its payment can move money: a
   * process that dies mid-settlement leaves it for the reconciler. Until then a claim may live only in
   * this process, and be written once, with its outcome.
   */
  persistClaim(key: string): void
  /** Who holds a nonce, without taking it. */
  lookup(key: string): Promise<Extract<ClaimResult, { status: 'taken' }> | null>
  /** The handler failed: nothing was charged, and the authorization may buy the same or another request later. */
  release(key: string, now: number): void
  /**
   * The payment was refused before any work (its verification failed: an empty wallet, a wrong network):
   * as `release`, but a claim that lives only in this process leaves nothing on disk. Junk proofs cost no
   * ledger bytes. Absent: `release` (the claim is on disk already, PostgreSQL; the pruning job removes it).
   */
  forget?(key: string, now: number): void
  /** The handler answered (and, outside local mode, the payment settled): served; the result is kept until `artifact.expiresAt`. */
  complete(key: string, artifact: StoredArtifact, now: number, settlement?: ServedSettlement): void
  /** The handler answered but the settlement's outcome is unknown: keep the result back until `resolve`. */
  park(key: string, artifact: StoredArtifact, now: number, txHash?: string): void
  /**
   * The reconciler's verdict on an open payment: settled (its result is released) or failed (nothing moved).
   * No-op (false) unless the payment is still in state `from` (default pending), for `requestId` when given.
   */
  resolve(
    key: string,
    verdict: { settled: true; txHash?: string } | { settled: false },
    now: number,
    from?: { state: 'pending' | 'in_progress'; requestId?: string },
  ): Promise<boolean>
  /** Appends to the event record (same commit as the state change it accompanies). */
  record(event: PaymentEvent): void
  /** Appends provider spend of a request, committed with the next `durable()`. */
  recordSpend(spend: SpendRecord): void
  /** Payments whose settlement is open (see PendingPayment), as of `now`. */
  pending(now: number): Promise<PendingPayment[]>
  /**
   * A reader of the business figures for the seller's console. SQLite reads on the ledger's own
   * connection (it sees what this process committed, also in memory); PostgreSQL on a client of one
   * connection of its own, so a slow console read never holds the ledger's pool nor marks the ledger
   * unreachable for /ready.
   */
  businessReader(): BusinessReader
  /** Resolves once everything recorded so far is on disk; a paid answer is sent only after this. */
  durable(): Promise<void>
  /** A stored result, only once its payment is served (a pending payment's result is kept back). */
  artifact(id: string, now: number): Promise<StoredArtifact | null>
  /** The newest stored result of a served payment by `payer` (lower case) for the request `fingerprint`: what signing in returns. */
  boughtAnswer(payer: string, fingerprint: string, now: number): Promise<StoredArtifact | null>
  /** Takes a sign-in challenge's nonce for good (false: used already), kept until `expiresAt`; on disk when it resolves. */
  useSignInNonce(nonce: string, expiresAt: number): Promise<boolean>
  /**
   * Drops expired artifacts and sign-in nonces and, with `keep`, the payments past their retention with their events:
   * failed ones (nothing was charged) after `keep.failedSeconds`, served ones (the revenue record, with
   * their provider spend) after `keep.servedSeconds` when set. Pending and in-progress payments are never
   * dropped: money may have moved. Returns the rows dropped.
   */
  purgeExpired(now: number, keep?: LedgerRetention): Promise<number>
  /**
   * x402 batch-settlement's payment channels of one network (CAIP-2), as the scheme's ChannelStorage:
   * `list()` returns this network's channels alone. Each `updateChannel` is atomic across every instance
   * sharing the ledger, and on disk when it resolves: it commits by itself, not with `durable()`'s group.
   */
  channelStorage(network: string): ChannelStorage
  /** Appends a chain action of batch settlement (`batch_redemptions`); on disk when it resolves. */
  recordRedemption(entry: RedemptionEntry): Promise<void>
  /** Per network, the channels on record now, with what they hold, were charged and were claimed. */
  channelSummary(): Promise<ChannelSummary[]>
  /** Per network and kind, the chain actions recorded since `since` (unix seconds, inclusive). */
  redemptionTotals(since: number): Promise<RedemptionTotal[]>
  /**
   * Whether the ledger takes writes, for /ready: after a failed commit, it tries again (the queued changes,
   * or a probe row) before saying. Absent: a ledger whose reachability is reported elsewhere (PostgreSQL).
   */
  writable?(): LedgerWriteState
  close(): void | Promise<void>
}

/** How long settled history is kept (LEDGER_KEEP_FAILED_DAYS, LEDGER_KEEP_SERVED_DAYS). */
export interface LedgerRetention {
  failedSeconds: number
  /** null: served payments are kept for ever. */
  servedSeconds: number | null
}

export type LedgerWriteState = { ok: true } | { ok: false; sinceMs: number; error: string }

/** Pending, or in_progress so long past its authorization's validBefore that no live request holds it. */
export const isOpen = (state: PaymentState, validBefore: string | null | undefined, now: number): boolean =>
  state === 'pending' || (state === 'in_progress' && validBefore != null && Number(validBefore) < now - DEAD_CLAIM_AFTER_SECONDS)

/** A chain action of x402 batch settlement, as `batch_redemptions` keeps it. */
export type RedemptionKind = 'deposit' | 'claim' | 'settle' | 'refund' | 'withdraw_seen'
export interface RedemptionEntry {
  /** Unix seconds. */
  at: number
  kind: RedemptionKind
  /** CAIP-2. */
  network: string
  txHash?: string
  /** What moved, in the token's atomic units (decimal). */
  amountAtomic: string
  /** How many channels the action covered (a claim carries up to 100). */
  channels: number
  detail?: string
}

/** A network's batch-settlement channels as the ledger holds them now; sums in atomic units (decimal). */
export interface ChannelSummary {
  network: string
  /** Channels on record (a channel refunded in full is dropped). */
  channels: number
  /** Of them, those with charges not claimed yet. */
  unclaimedChannels: number
  /** What the buyers hold in them on chain (as last seen). */
  balance: string
  charged: string
  claimed: string
  /** Charged and not yet claimed, per channel never below 0: what withdrawals could still take back. */
  unclaimed: string
}

/** The chain actions of one kind on one network over a time. */
export interface RedemptionTotal {
  network: string
  kind: RedemptionKind
  /** Actions recorded. */
  count: number
  amountAtomic: string
  channels: number
}
