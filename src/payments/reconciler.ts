import type { PaymentClaim, PaymentEvent, PaymentLedger, PendingPayment } from '../ledger'

/**
 * What the reconciler asks the chain about one EIP-3009 authorization; `network` is the payment's CAIP-2
 * id as the ledger records it (each network is its own chain).
 */
export interface AuthorizationReader {
  /** `authorizationState(payer, nonce)` of the network's USDC contract: true once the transfer has happened. */
  used(network: string, payer: `0x${string}`, nonce: `0x${string}`): Promise<boolean>
  /** Timestamp of the network's latest block: an authorization is dead once this passes its validBefore. */
  chainTime(network: string): Promise<number>
  /** The transaction that used the authorization, when it can be found. */
  transactionOf?(network: string, payer: `0x${string}`, nonce: `0x${string}`): Promise<string | undefined>
  /** The block that included a transaction (deferred settlement's settlements-per-block figure). */
  blockOf?(network: string, transaction: string): Promise<bigint | undefined>
}

export type Verdict = 'settled' | 'failed' | 'pending'

export interface ReconcileSummary {
  checked: number
  settled: number
  failed: number
  pending: number
  errors: number
}

/**
 * Resolves payments whose settlement outcome was unknown (a facilitator timeout, a transaction not yet
 * mined) from the chain itself: the USDC contract records every used authorization, so the transfer
 * either happened (settled: the kept-back answer is released) or, once the authorization's validBefore
 * has passed unused, never can (failed: nothing moved). Nothing is ever submitted again, so nothing can
 * be charged twice.
 */
export class Reconciler {
  private timer: ReturnType<typeof setInterval> | undefined
  private running: Promise<ReconcileSummary> | undefined

  constructor(
    private readonly ledger: PaymentLedger,
    private readonly chain: AuthorizationReader,
    private readonly onEvent: (event: PaymentEvent) => void = () => {},
    private readonly now: () => number = () => Math.floor(Date.now() / 1000),
    /** Batch-settlement vouchers and refunds carry no ERC-3009 nonce: their settler judges them (payments/batch). */
    private readonly batchVerdict?: (claim: PaymentClaim) => Promise<Verdict | undefined>,
  ) {}

  /** The block of a transaction, when the chain reader can tell. */
  blockOf(network: string, transaction: string): Promise<bigint | undefined> {
    return this.chain.blockOf?.(network, transaction) ?? Promise.resolve(undefined)
  }

  /** Checks one pending payment now (a client retrying its request). */
  async check(key: string): Promise<Verdict> {
    const payment = (await this.ledger.pending(this.now())).find((x) => x.claim.key === key)
    if (!payment) {
      const held = await this.ledger.lookup(key)
      return held?.state === 'served' ? 'settled' : held?.state === 'failed' ? 'failed' : 'pending'
    }
    return this.decide(payment)
  }

  /** Whether this authorization was used on chain already, and by which transaction when it can be found. */
  async usedOnChain(claim: PaymentClaim): Promise<{ used: true; txHash?: string } | { used: false }> {
    const payer = claim.payer as `0x${string}`
    const nonce = claim.nonce as `0x${string}`
    if (!(await this.chain.used(claim.network, payer, nonce))) return { used: false }
    const txHash = await this.chain.transactionOf?.(claim.network, payer, nonce).catch(() => undefined)
    return { used: true, ...(txHash ? { txHash } : {}) }
  }

  /** One pass over every open payment. */
  run(): Promise<ReconcileSummary> {
    this.running ??= (async () => {
      const summary: ReconcileSummary = { checked: 0, settled: 0, failed: 0, pending: 0, errors: 0 }
      try {
        for (const payment of await this.ledger.pending(this.now())) {
          summary.checked++
          try {
            summary[await this.decide(payment)]++
          } catch {
            summary.errors++ // RPC trouble: the payment stays pending for the next pass
          }
        }
        await this.ledger.durable()
        return summary
      } finally {
        this.running = undefined
      }
    })()
    return this.running
  }

  /** Passes every `intervalSeconds`, while `leading()` (one reconciler among instances sharing a ledger). */
  start(intervalSeconds: number, onError: (error: unknown) => void = () => {}, leading: () => boolean = () => true): void {
    this.timer = setInterval(() => {
      if (leading()) void this.run().catch(onError)
    }, intervalSeconds * 1000)
    this.timer.unref()
  }

  stop(): void {
    clearInterval(this.timer)
  }

  private async decide(payment: PendingPayment): Promise<Verdict> {
    const claim = payment.claim
    const from = { state: payment.state, requestId: claim.requestId }
    const payer = claim.payer as `0x${string}`
    const nonce = claim.nonce as `0x${string}`
    const event = (detail: 'settled' | 'failed', txHash?: string): PaymentEvent => ({
      event: 'reconciled',
      at: this.now(),
      key: claim.key,
      requestId: claim.requestId,
      routeId: claim.routeId,
      payer: claim.payer,
      amountAtomic: claim.amountAtomic,
      nonce: claim.nonce,
      network: claim.network,
      detail,
      ...(txHash ? { txHash } : {}),
    })
    if (claim.key.includes(':batch:')) {
      const verdict = (await this.batchVerdict?.(claim)) ?? 'pending'
      if (verdict !== 'pending' && (await this.ledger.resolve(claim.key, { settled: verdict === 'settled' }, this.now(), from)))
        this.emit(event(verdict))
      await this.ledger.durable()
      return verdict
    }
    if (await this.chain.used(claim.network, payer, nonce)) {
      const txHash = payment.txHash ?? (await this.chain.transactionOf?.(claim.network, payer, nonce).catch(() => undefined))
      if (await this.ledger.resolve(claim.key, { settled: true, ...(txHash ? { txHash } : {}) }, this.now(), from))
        this.emit(event('settled', txHash))
      await this.ledger.durable()
      return 'settled'
    }
    // Unused: final only once the chain's clock has passed validBefore (no block can include it after).
    if (claim.validBefore !== undefined && BigInt(await this.chain.chainTime(claim.network)) >= BigInt(claim.validBefore)) {
      if (await this.ledger.resolve(claim.key, { settled: false }, this.now(), from)) this.emit(event('failed'))
      await this.ledger.durable()
      return 'failed'
    }
    return 'pending'
  }

  private emit(event: PaymentEvent): void {
    this.ledger.record(event)
    this.onEvent(event)
  }
}
