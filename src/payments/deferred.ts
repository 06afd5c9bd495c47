/**
 * Deferred settlement (SETTLE_MODE=deferred): a verified payment whose claim is durable is answered at
 * once, and its transfer is settled here in the background, through the same settler and ledger states
 * as a synchronous one (pending until the transfer is seen, then served or failed; the reconciler
 * resolves whatever this process leaves open, e.g. when it dies). The seller's risk is bounded:
 *
 * - per payer, at most `maxUnsettledAtomic` answered and not yet settled (more is settled before its answer);
 * - routes priced above `maxPriceAtomic` are always settled before their answer;
 * - a payer whose deferred settlement failed is settled before its answers until one of those settles.
 *
 * An authorization is valid for about a minute, so the queue is settled oldest first (by validBefore)
 * with several settlements in flight; in `self` mode the settler's account hands them consecutive nonces.
 */
import type { Logger } from '../core'
import type { PaymentLedger } from '../ledger'
import type { DeferredGate, DeferredPayment as Payment, NotDeferred, PaymentMetrics } from './gate/gate-contract'
import type { Reconciler } from './reconciler'
import type { SettleOutcome, SettlementInput, Settler } from './settler'

export interface DeferredPolicy {
  /** Answered-but-unsettled value allowed per payer (atomic USDC units). */
  maxUnsettledAtomic: bigint
  /** Routes priced above this settle before their answer; null: every route may be deferred. */
  maxPriceAtomic: bigint | null
  /** Settlements in flight at once. */
  concurrency: number
}

/** Beyond this many queued settlements, answers wait for their own settlement (bounds memory and exposure). */
const MAX_QUEUED = 10_000
/** A facilitator that could not be reached is asked again after this long, while the authorization is valid. */
const RETRY_MS = 2_000
/** A settlement of unknown outcome (receipt not seen in time) is looked up on chain this often. */
const WATCH_MS = 3_000
/** Settlements whose block is remembered for the settlements-per-block figure. */
const BLOCK_WINDOW = 256

interface Job {
  payment: Payment
  input: SettlementInput
  amount: bigint
  validBefore: number
  queuedAt: number
}

export interface DeferredDeps {
  settler: Settler
  ledger: PaymentLedger
  /** Looks a settlement of unknown outcome up on chain, and the block of a transaction (settlements per block). */
  reconciler: Pick<Reconciler, 'check' | 'blockOf'>
  metrics?: PaymentMetrics
  logger?: Pick<Logger, 'warn' | 'error' | 'info'>
  now?: () => number
}

/** What /metrics reports of the background settlements. */
export interface DeferredStats {
  queued: number
  inFlight: number
  /** Age of the oldest queued settlement, seconds (0 when none). */
  oldestAgeSeconds: number
  /** Seconds left before the most urgent queued authorization expires (null when none). */
  soonestExpirySeconds: number | null
  unsettledAtomic: bigint
  /** The most any one payer has answered and unsettled, and the cap on it (DEFERRED_MAX_UNSETTLED_USD). */
  largestPayerAtomic: bigint
  payerCapAtomic: bigint
  /** Mean settlements per block over the last settlements (null before two blocks are known). */
  settlementsPerBlock: number | null
  payersRefused: number
}

export class DeferredSettlements implements DeferredGate {
  private readonly queue: Job[] = []
  private readonly unsettled = new Map<string, bigint>()
  private readonly failedPayers = new Set<string>()
  private readonly blocks: bigint[] = []
  private readonly watching = new Set<ReturnType<typeof setTimeout>>()
  private inFlight = 0
  private closing = false
  private idle: (() => void)[] = []
  private readonly now: () => number

  constructor(
    private readonly deps: DeferredDeps,
    private readonly policy: DeferredPolicy,
  ) {
    this.now = deps.now ?? (() => Math.floor(Date.now() / 1000))
  }

  /**
   * Whether this payment may be answered before it settles; if so its amount counts against its payer's
   * cap until the settlement is final. Otherwise the reason, and it is settled before its answer.
   */
  admit(payment: Payment): true | NotDeferred {
    const amount = payment.auth.terms.amountAtomic
    const payer = payment.auth.payer.toLowerCase()
    if (this.closing) return 'closing'
    if (this.policy.maxPriceAtomic !== null && amount > this.policy.maxPriceAtomic) return 'route_price'
    if (this.failedPayers.has(payer)) return 'payer_failed'
    if (this.queue.length >= MAX_QUEUED) return 'queue_full'
    const owed = (this.unsettled.get(payer) ?? 0n) + amount
    if (owed > this.policy.maxUnsettledAtomic) return 'payer_cap'
    this.unsettled.set(payer, owed)
    return true
  }

  /** An admitted payment that will not be queued after all (its record could not be committed). */
  withdraw(payment: Payment): void {
    this.release(payment.auth.payer, payment.auth.terms.amountAtomic)
  }

  /** Queues an admitted payment whose answer is recorded (pending) and committed. */
  enqueue(payment: Payment, input: SettlementInput): void {
    const job: Job = {
      payment,
      input,
      amount: payment.auth.terms.amountAtomic,
      validBefore: Number(payment.claim.validBefore ?? 0),
      queuedAt: Date.now(),
    }
    // Oldest first: the authorization that expires soonest is settled first.
    let at = this.queue.length
    while (at > 0 && this.queue[at - 1]!.validBefore > job.validBefore) at--
    this.queue.splice(at, 0, job)
    this.pump()
  }

  /** A payment refused deferral for its payer's failed settlement has settled before its answer: the payer may defer again. */
  cleared(payer: string): void {
    this.failedPayers.delete(payer.toLowerCase())
  }

  stats(): DeferredStats {
    const oldest = this.queue.reduce((min, j) => Math.min(min, j.queuedAt), Number.POSITIVE_INFINITY)
    const distinct = new Set(this.blocks).size
    return {
      queued: this.queue.length,
      inFlight: this.inFlight,
      oldestAgeSeconds: this.queue.length ? (Date.now() - oldest) / 1000 : 0,
      soonestExpirySeconds: this.queue.length ? this.queue[0]!.validBefore - this.now() : null,
      unsettledAtomic: [...this.unsettled.values()].reduce((a, b) => a + b, 0n),
      largestPayerAtomic: [...this.unsettled.values()].reduce((a, b) => (b > a ? b : a), 0n),
      payerCapAtomic: this.policy.maxUnsettledAtomic,
      settlementsPerBlock: distinct >= 2 ? this.blocks.length / distinct : null,
      payersRefused: this.failedPayers.size,
    }
  }

  /**
   * Shutdown: admits nothing more and settles what is queued until `deadlineMs` has passed; what is left
   * stays pending in the ledger for the reconciler (settled if it moved, failed once it expires unused).
   */
  async drain(deadlineMs: number): Promise<void> {
    this.closing = true
    if (this.queue.length === 0 && this.inFlight === 0) return this.stopWatching()
    let timer: ReturnType<typeof setTimeout> | undefined
    await Promise.race([
      new Promise<void>((resolve) => this.idle.push(resolve)),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, deadlineMs))),
    ])
    clearTimeout(timer)
    const left = this.queue.splice(0)
    if (left.length) this.deps.logger?.warn('deferred settlements left for the reconciler at shutdown', { count: left.length })
    this.stopWatching()
  }

  private stopWatching(): void {
    for (const t of this.watching) clearTimeout(t)
    this.watching.clear()
  }

  private pump(): void {
    while (this.inFlight < this.policy.concurrency && this.queue.length > 0) {
      const job = this.queue.shift()!
      this.inFlight++
      void this.settle(job)
        .catch((e: unknown) =>
          this.deps.logger?.error('deferred settlement failed unexpectedly', { key: job.payment.key, error: String(e) }),
        )
        .finally(() => {
          this.inFlight--
          this.pump()
          if (this.queue.length === 0 && this.inFlight === 0) for (const done of this.idle.splice(0)) done()
        })
    }
  }

  private async settle(job: Job): Promise<void> {
    const { settler } = this.deps
    if (this.now() >= job.validBefore) return this.finish(job, { status: 'failed', reason: 'authorization_expired_in_queue' }, false)
    let outcome: SettleOutcome
    try {
      outcome = await settler.settle(job.input)
    } catch (error) {
      outcome = { status: 'pending', reason: `settle threw: ${error instanceof Error ? error.message : String(error)}` }
    }
    this.deps.metrics?.settlement(settler.mode, outcome.status)
    if (outcome.status === 'failed' && outcome.unavailable && !this.closing && this.now() + RETRY_MS / 1000 < job.validBefore) {
      // Not the payer's doing, and nothing moved: ask again while the authorization is valid.
      await Bun.sleep(RETRY_MS)
      return this.settle(job)
    }
    if (outcome.status === 'pending') return this.watch(job, outcome.transaction)
    return this.finish(job, outcome, !(outcome.status === 'failed' && outcome.unavailable))
  }

  /** A settlement of unknown outcome: looked up on chain until it is final (the reconciler would find it too). */
  private watch(job: Job, transaction: string | undefined): void {
    const { reconciler } = this.deps
    const payment = job.payment
    payment.emit('pending', {
      detail: 'deferred: settlement outcome unknown, watching the chain',
      ...(transaction ? { txHash: transaction } : {}),
    })
    const look = () => {
      const timer = setTimeout(async () => {
        this.watching.delete(timer)
        const verdict = await reconciler.check(payment.key).catch(() => 'pending' as const)
        if (verdict === 'pending') return this.closing ? this.release(payment.auth.payer, job.amount) : look()
        // The reconciler recorded the verdict and its event; only the payer's standing is ours.
        this.release(payment.auth.payer, job.amount)
        if (verdict === 'failed') this.failedPayers.add(payment.auth.payer.toLowerCase())
      }, WATCH_MS)
      this.watching.add(timer)
    }
    look()
  }

  /** Records a final outcome: served with its transaction, or failed (and the payer refused deferral when it was theirs). */
  private async finish(job: Job, outcome: Exclude<SettleOutcome, { status: 'pending' }>, payersFault: boolean): Promise<void> {
    const { ledger } = this.deps
    const { payment } = job
    const now = this.now()
    const from = { state: 'pending' as const, requestId: payment.claim.requestId }
    if (outcome.status === 'settled' || outcome.status === 'local') {
      const txHash = outcome.status === 'settled' ? outcome.receipt.transaction || undefined : undefined
      if (await ledger.resolve(payment.key, { settled: true, ...(txHash ? { txHash } : {}) }, now, from)) {
        payment.emit('settled', { ...(txHash ? { txHash } : {}), detail: 'deferred' })
        payment.emit('served', { ...(txHash ? { txHash } : {}), detail: 'settled' })
      }
      if (txHash) void this.noteBlock(payment.claim.network, txHash)
    } else {
      if (await ledger.resolve(payment.key, { settled: false }, now, from))
        payment.emit('failed', {
          detail: `deferred settle: ${outcome.reason}`,
          ...(outcome.transaction ? { txHash: outcome.transaction } : {}),
        })
      if (payersFault) {
        this.failedPayers.add(payment.auth.payer.toLowerCase())
        this.deps.logger?.warn('deferred settlement failed: the payer is settled before its answers until one settles', {
          payer: payment.auth.payer,
          reason: outcome.reason,
        })
      }
    }
    this.release(payment.auth.payer, job.amount)
    await ledger
      .durable()
      .catch((e: unknown) => this.deps.logger?.error('deferred settlement not committed yet; the ledger retries it', { error: String(e) }))
  }

  private async noteBlock(network: string, transaction: string): Promise<void> {
    const block = await this.deps.reconciler.blockOf(network, transaction).catch(() => undefined)
    if (block === undefined) return
    this.blocks.push(block)
    if (this.blocks.length > BLOCK_WINDOW) this.blocks.shift()
  }

  private release(payer: string, amount: bigint): void {
    const key = payer.toLowerCase()
    const left = (this.unsettled.get(key) ?? 0n) - amount
    if (left > 0n) this.unsettled.set(key, left)
    else this.unsettled.delete(key)
  }
}
