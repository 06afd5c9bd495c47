import {
  claimOfRow,
  type BusinessReader,
  isOpen,
  type ClaimResult,
  type LedgerRetention,
  type LedgerWriteState,
  type PaymentClaim,
  type PaymentEvent,
  type PaymentLedger,
  type PaymentRow,
  type PaymentState,
  type PendingPayment,
  type ServedSettlement,
  type Settlement,
  type SpendRecord,
  type StoredArtifact,
} from './contract'
import { ledgerStatements, openLedgerFile, SERVED_INDEX, type LedgerStatements } from './sqlite-schema'
import { prune } from './sqlite-retention'
import { readBusiness } from './business'
import { eventRow, spendRow } from './rows'
import { SqliteChannelBook } from './channels/sqlite-channels'

const taken = (row: Row): Extract<ClaimResult, { status: 'taken' }> => ({
  status: 'taken',
  fingerprint: row.claim.fingerprint,
  state: row.state,
  artifactId: row.artifactId,
  updatedAt: row.updatedAt,
  txHash: row.txHash,
})

interface Row {
  claim: PaymentClaim
  state: PaymentState
  artifactId: string | null
  createdAt: number
  updatedAt: number
  settlement: Settlement | null
  txHash: string | null
}

/** A held nonce may be claimed again once its claim failed, or went stale in progress (its process died). */
const claimable = (held: Row, staleBefore: number) =>
  held.state === 'failed' || (held.state === 'in_progress' && held.updatedAt < staleBefore)

/** The row of a new claim; a nonce claimed before keeps when it was first claimed. */
const claimedRow = (claim: PaymentClaim, held: Row | null | undefined, now: number): Row => ({
  claim,
  state: 'in_progress',
  artifactId: null,
  createdAt: held?.createdAt ?? now,
  updatedAt: now,
  settlement: null,
  txHash: null,
})

/** A claim whose payment id its payer bound to another payload, still held (`bound`): refused, nothing taken. */
const idConflict = (claim: PaymentClaim, bound: Row | null): boolean =>
  bound !== null && (bound.claim.key !== claim.key || bound.claim.payloadDigest !== claim.payloadDigest)

const claimedResult = (held: Row | null | undefined): ClaimResult =>
  held?.state === 'in_progress' ? { status: 'claimed', takenOver: true } : { status: 'claimed' }

const storedOf = (row: { id: string; body: string | Uint8Array; headers: string | null; expires_at: number }): StoredArtifact => ({
  id: row.id,
  body: row.body,
  ...(row.headers ? { headers: JSON.parse(row.headers) as Record<string, string> } : {}),
  expiresAt: row.expires_at,
})

const fromDb = (row: PaymentRow<number>): Row => ({
  claim: claimOfRow(row),
  state: row.state,
  artifactId: row.artifact_id,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  settlement: row.settlement,
  txHash: row.tx_hash,
})

/**
 * SQLite ledger with group commit. Claims are decided in memory (atomic: one JS thread) against the rows
 * written since the last commit and the file; changes are written in one transaction per event-loop turn,
 * and `durable()` lets the gate send a paid answer only once its claim, state and artifact are committed.
 * Two commits per request cost ~80 µs of file I/O; one commit for all the requests of a turn costs a
 * fraction of that under load. A claim is written with its outcome, once (each write of a payment row
 * dirties a page of its own: the nonces are random), or earlier when `persistClaim` asks for it. A crash
 * before a commit loses only requests that were not answered yet, and moved no money.
 * One instance per file, unless opened `shared` (REUSE_PORT): then each claim is decided and written
 * inside the file's write lock, so a second process sees it at once (one more commit per paid request).
 * Batch-settlement channels come from the base (channels/sqlite-channels.ts): each update commits by itself.
 */
export class SqliteLedger extends SqliteChannelBook implements PaymentLedger {
  private readonly stmts: LedgerStatements
  private readonly commitTx: () => void
  /** Rows changed since the last commit, and rows still in progress. */
  private readonly live = new Map<string, Row>()
  /** The key of each live row claimed with a payment id, by `payer id` (checked against the row: a hint). */
  private readonly liveIds = new Map<string, string>()
  private readonly dirty = new Set<string>()
  private readonly pendingArtifacts = new Map<string, { key: string; artifact: StoredArtifact; createdAt: number }>()
  private events: PaymentEvent[] = []
  private spends: SpendRecord[] = []
  private waiters: { resolve: () => void; reject: (error: unknown) => void }[] = []
  private scheduled = false

  /** Opened `shared`: claims are decided in the file, under its write lock. */
  private readonly shared: boolean
  private readonly claimShared: (claim: PaymentClaim, now: number, staleBefore: number) => ClaimResult

  /** `prunesServed`: LEDGER_KEEP_SERVED_DAYS is set, so the index its pass needs is built now, at start-up, not during a pass. */
  constructor(path: string, options: { shared?: boolean; prunesServed?: boolean } = {}) {
    super(openLedgerFile(path))
    if (options.prunesServed) this.db.exec(SERVED_INDEX)
    this.stmts = ledgerStatements(this.db)
    this.commitTx = this.db.transaction(() => this.writeChanges())
    this.shared = options.shared === true
    // BEGIN IMMEDIATE: the file's row is read and the claim written under one write lock, across processes.
    const claimTx = this.db.transaction((claim: PaymentClaim, now: number, staleBefore: number): ClaimResult => {
      const mine = this.live.get(claim.key)
      const file = this.stmts.holder.get({ key: claim.key })
      const held = mine ?? (file ? fromDb(file) : null)
      if (idConflict(claim, this.boundTo(claim))) return { status: 'id_conflict' }
      if (held && !claimable(held, staleBefore)) return taken(held)
      const row = claimedRow(claim, held, now)
      this.upsert(claim.key, row)
      this.setLive(claim.key, row) // written already; kept (not dirty) as the base of this process's next change
      return claimedResult(held)
    })
    this.claimShared = (c, now, staleBefore) => claimTx.immediate(c, now, staleBefore)
  }

  /** Writes what changed since the last commit: payment rows, artifacts, events and provider spend (inside the commit transaction). */
  private writeChanges(): void {
    for (const key of this.dirty) this.upsert(key, this.live.get(key)!)
    for (const [id, p] of this.pendingArtifacts) {
      const headers = p.artifact.headers ? JSON.stringify(p.artifact.headers) : null
      const buyer = p.artifact.buyer
      this.stmts.store.run({
        ...{ id, key: p.key, body: p.artifact.body, headers, now: p.createdAt, expiresAt: p.artifact.expiresAt },
        ...{ payer: buyer?.payer ?? null, fingerprint: buyer?.fingerprint ?? null },
      })
    }
    for (const paymentEvent of this.events) this.stmts.event.run(eventRow(paymentEvent))
    for (const spend of this.spends) this.stmts.spend.run(spendRow(spend))
  }

  private upsert(key: string, row: Row): void {
    const claim = row.claim
    this.stmts.upsert.run({
      key,
      network: claim.network,
      payer: claim.payer,
      nonce: claim.nonce,
      route: claim.routeId,
      fingerprint: claim.fingerprint,
      amount: claim.amountAtomic,
      requestId: claim.requestId,
      state: row.state,
      artifactId: row.artifactId,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      settlement: row.settlement,
      txHash: row.txHash,
      validBefore: claim.validBefore ?? null,
      paymentId: claim.paymentId ?? null,
      payloadDigest: claim.payloadDigest ?? null,
    })
  }

  /** The payment (not failed) its payer's id names, as this process knows it: its own rows first, then the file's. */
  private boundTo(claim: PaymentClaim): Row | null {
    if (!claim.paymentId) return null
    const idKey = `${claim.payer}\u0000${claim.paymentId}`
    const hint = this.liveIds.get(idKey)
    const keys = this.stmts.boundTo.all({ payer: claim.payer, paymentId: claim.paymentId }).map((bound) => bound.key)
    for (const key of hint ? [hint, ...keys] : keys) {
      const row = this.row(key)
      if (row && row.state !== 'failed' && row.claim.payer === claim.payer && row.claim.paymentId === claim.paymentId) return row
    }
    return null
  }

  private setLive(key: string, row: Row): void {
    this.live.set(key, row)
    if (row.claim.paymentId) this.liveIds.set(`${row.claim.payer}\u0000${row.claim.paymentId}`, key)
  }

  private dropLive(key: string): void {
    const row = this.live.get(key)
    this.live.delete(key)
    const idKey = row?.claim.paymentId && `${row.claim.payer}\u0000${row.claim.paymentId}`
    if (idKey && this.liveIds.get(idKey) === key) this.liveIds.delete(idKey)
  }

  private row(key: string): Row | null {
    const live = this.live.get(key)
    if (live) return live
    const holder = this.stmts.holder.get({ key })
    return holder ? fromDb(holder) : null
  }

  private schedule(): void {
    if (!this.scheduled) {
      this.scheduled = true
      setImmediate(() => this.commit())
    }
  }

  private change(key: string, row: Row): void {
    this.live.set(key, row)
    this.dirty.add(key)
    this.schedule()
  }

  private get changed(): boolean {
    return this.dirty.size > 0 || this.pendingArtifacts.size > 0 || this.events.length > 0 || this.spends.length > 0
  }

  /** The first failed commit since the last one that succeeded (what /ready reports), or null. */
  private writeFailure: { since: number; error: string } | null = null

  /** Writes every change since the last commit in one transaction, then wakes `durable()` callers. */
  commit(): void {
    this.scheduled = false
    const waiters = this.waiters
    this.waiters = []
    try {
      if (this.changed) {
        this.commitTx()
        for (const key of this.dirty) if (this.live.get(key)!.state !== 'in_progress') this.dropLive(key)
        this.dirty.clear()
        this.pendingArtifacts.clear()
        this.events = []
        this.spends = []
        this.writeFailure = null
      }
    } catch (error) {
      // Disk full, file gone...: the waiting requests fail (and are not charged); changes stay queued.
      this.failedWrite(error)
      for (const w of waiters) w.reject(error)
      return
    }
    for (const w of waiters) w.resolve()
  }

  private failedWrite(error: unknown): void {
    const text = String(error instanceof Error ? error.message : error).slice(0, 300)
    this.writeFailure = { since: this.writeFailure?.since ?? Date.now(), error: text }
  }

  writable(): LedgerWriteState {
    if (this.writeFailure) {
      // Try again: the queued changes if there are any, else one probe row.
      if (this.changed) this.commit()
      else {
        try {
          this.stmts.probe.run({ now: Math.floor(Date.now() / 1000) })
          this.writeFailure = null
        } catch (error) {
          this.failedWrite(error)
        }
      }
    }
    return this.writeFailure ? { ok: false, sinceMs: Date.now() - this.writeFailure.since, error: this.writeFailure.error } : { ok: true }
  }

  durable(): Promise<void> {
    if (!this.scheduled) return Promise.resolve()
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }))
  }

  async claim(claim: PaymentClaim, now: number, staleBefore: number): Promise<ClaimResult> {
    if (this.shared) return this.claimShared(claim, now, staleBefore)
    const held = this.row(claim.key)
    if (idConflict(claim, this.boundTo(claim))) return { status: 'id_conflict' }
    if (held && !claimable(held, staleBefore)) return taken(held)
    // Not dirty: written with the request's outcome, or by persistClaim.
    this.setLive(claim.key, claimedRow(claim, held, now))
    return claimedResult(held)
  }

  persistClaim(key: string): void {
    if (this.shared) return // written in the file when claimed
    if (this.live.get(key)?.state === 'in_progress') {
      this.dirty.add(key)
      this.schedule()
    }
  }

  async lookup(key: string): Promise<Extract<ClaimResult, { status: 'taken' }> | null> {
    const row = this.row(key)
    return row ? taken(row) : null
  }

  release(key: string, now: number): void {
    const row = this.row(key)
    if (row?.state === 'in_progress') this.change(key, { ...row, state: 'failed', updatedAt: now })
  }

  forget(key: string, now: number): void {
    // A claim is written with its outcome (or by persistClaim): not yet written, it can simply go.
    const row = this.live.get(key)
    if (row?.state === 'in_progress' && !this.dirty.has(key) && !this.stmts.holder.get({ key })) this.dropLive(key)
    else this.release(key, now)
  }

  complete(key: string, artifact: StoredArtifact, now: number, settlement: ServedSettlement = { kind: 'local' }): void {
    const row = this.row(key)
    if (!row) throw new Error(`ledger: complete without a claim for ${key}`)
    this.pendingArtifacts.set(artifact.id, { key, artifact, createdAt: now })
    this.change(key, {
      ...row,
      state: 'served',
      artifactId: artifact.id,
      updatedAt: now,
      settlement: settlement.kind,
      txHash: settlement.txHash ?? null,
    })
  }

  park(key: string, artifact: StoredArtifact, now: number, txHash?: string): void {
    const row = this.row(key)
    if (!row) throw new Error(`ledger: park without a claim for ${key}`)
    this.pendingArtifacts.set(artifact.id, { key, artifact, createdAt: now })
    this.change(key, { ...row, state: 'pending', artifactId: artifact.id, updatedAt: now, settlement: 'pending', txHash: txHash ?? null })
  }

  async resolve(
    key: string,
    verdict: { settled: true; txHash?: string } | { settled: false },
    now: number,
    from: { state: 'pending' | 'in_progress'; requestId?: string } = { state: 'pending' },
  ): Promise<boolean> {
    const row = this.row(key)
    if (row?.state !== from.state || (from.requestId !== undefined && row.claim.requestId !== from.requestId)) return false
    if (verdict.settled)
      this.change(key, { ...row, state: 'served', settlement: 'settled', txHash: verdict.txHash ?? row.txHash, updatedAt: now })
    else this.change(key, { ...row, state: 'failed', settlement: 'failed', updatedAt: now })
    return true
  }

  record(event: PaymentEvent): void {
    this.events.push(event)
    this.schedule()
  }

  recordSpend(spend: SpendRecord): void {
    this.spends.push(spend)
    this.schedule()
  }

  async pending(now: number): Promise<PendingPayment[]> {
    const rows = new Map(this.stmts.open.all().map((h) => [h.key, fromDb(h)]))
    for (const [key, r] of this.live) rows.set(key, r) // newer than the file
    return [...rows.values()]
      .filter((r) => isOpen(r.state, r.claim.validBefore, now))
      .map((r) => ({ claim: r.claim, state: r.state as PendingPayment['state'], txHash: r.txHash, updatedAt: r.updatedAt }))
  }

  async artifact(id: string, now: number): Promise<StoredArtifact | null> {
    const pending = this.pendingArtifacts.get(id)
    if (pending) return pending.artifact.expiresAt > now && this.row(pending.key)?.state === 'served' ? pending.artifact : null
    const row = this.stmts.artifact.get({ id, now })
    return row ? storedOf(row) : null
  }

  /** Answers are sent once committed, so the file holds every answer a buyer could sign in for. */
  async boughtAnswer(payer: string, fingerprint: string, now: number): Promise<StoredArtifact | null> {
    const row = this.stmts.bought.get({ payer, fingerprint, now })
    return row ? storedOf(row) : null
  }

  /** Written at once, outside the group commit: a sign-in is answered only once its nonce is spent. */
  async useSignInNonce(nonce: string, expiresAt: number): Promise<boolean> {
    return this.stmts.useNonce.run({ nonce, expiresAt }).changes === 1
  }

  async purgeExpired(now: number, keep?: LedgerRetention): Promise<number> {
    let dropped = this.stmts.purge.run({ now }).changes + this.stmts.purgeNonces.run({ now }).changes
    if (!keep) return dropped
    this.commit() // what is queued is on disk before anything is dropped
    if (this.writeFailure) return dropped // not now: the queued events would lose their payment
    dropped += await prune(this.db, this.stmts, 'failed', now - keep.failedSeconds)
    if (keep.servedSeconds !== null) dropped += await prune(this.db, this.stmts, 'served', now - keep.servedSeconds)
    return dropped
  }

  /** Synchronous: a console read holds the event loop for its duration (kept short by the indexes on time). */
  businessReader(): BusinessReader {
    return { read: async (now) => readBusiness({ sqlite: this.db }, now), close: async () => {} }
  }

  close(): void {
    this.commit()
    this.db.close()
  }
}
