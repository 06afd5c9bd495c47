import type { SQL } from 'bun'
import {
  claimOfRow,
  type BusinessReader,
  DEAD_CLAIM_AFTER_SECONDS,
  type ClaimResult,
  type LedgerRetention,
  type PaymentClaim,
  type PaymentEvent,
  type PaymentLedger,
  type PaymentRow as PaymentRowOf,
  type PaymentState,
  type PendingPayment,
  type ServedSettlement,
  type Settlement,
  type SpendRecord,
  type StoredArtifact,
} from './contract'
import { LEASE_SECONDS, Postgres } from '../postgres'
import { readBusiness } from './business'
import { apply, type Op } from './postgres-commit'
import { PostgresChannelBook } from './channels/postgres-channels'

type Taken = Extract<ClaimResult, { status: 'taken' }>

/** How soon a commit that failed is tried again, while nothing else asks for one. */
const RETRY_MS = 1000

type PaymentRow = PaymentRowOf<string>

const takenOf = (row: PaymentRow): Taken => ({
  status: 'taken',
  fingerprint: row.fingerprint,
  state: row.state,
  artifactId: row.artifact_id,
  updatedAt: Number(row.updated_at),
  txHash: row.tx_hash,
})

type ArtifactRow = { id: string; body: Uint8Array; is_text: boolean; headers: string | null; expires_at: string }
const storedOf = (row: ArtifactRow | undefined): StoredArtifact | null =>
  row
    ? {
        id: row.id,
        body: row.is_text ? Buffer.from(row.body).toString('utf8') : new Uint8Array(row.body),
        ...(row.headers ? { headers: JSON.parse(row.headers) as Record<string, string> } : {}),
        expiresAt: Number(row.expires_at),
      }
    : null

const ID_CONFLICT = Symbol('id_conflict')
/** A unique violation of the payment-id index (migration 5): another payload holds the payer's id. */
const isIdConflict = (error: unknown) =>
  (error as { errno?: string }).errno === '23505' && (error as { constraint?: string }).constraint === 'payments_payment_id'

/**
 * The payment ledger in PostgreSQL, shared by every instance. A claim is one statement, committed before
 * the paid work starts: `INSERT … ON CONFLICT DO UPDATE … WHERE <free>` lets exactly one of any number
 * of concurrent claims of a nonce win, on any instance (never check-then-insert). A nonce is free when
 * it was never used, when its last use failed (nothing was charged), or when it is in progress for a
 * request whose instance stopped its heartbeat (died) or that outlived the payment window.
 *
 * Every later change (served, pending, failed, artifacts, events) is queued and committed, together
 * with the others of the same moment, in one transaction by `durable()`. Each update names the claim (a
 * random id per claim) and the states it may leave, so a late or repeated commit (after a timeout the
 * statement may still land) never overwrites another claim. A failed commit stays queued and is retried.
 * Batch-settlement channels come from the base (channels/postgres-channels.ts): each update is a
 * compare-and-set of its own, committed before it resolves.
 */
export class PostgresLedger extends PostgresChannelBook implements PaymentLedger {
  /**
   * The claim id of each claim this instance holds: its later updates are guarded by it. Not the request
   * id, which a client may choose and send again with its retry: a late update of the first attempt
   * must never touch the retry's claim.
   */
  private readonly mine = new Map<string, string>()
  private queue: Op[] = []
  private waiters: { resolve: () => void; reject: (error: unknown) => void }[] = []
  private flushing: Promise<void> | undefined
  private retry: ReturnType<typeof setTimeout> | undefined
  private closed = false

  constructor(
    pg: Postgres,
    /** This instance's id in `instances`: the holder of its claims. */
    private readonly instanceId: string,
  ) {
    super(pg)
  }

  async claim(claim: PaymentClaim, now: number, staleBefore: number): Promise<ClaimResult> {
    // One round trip either way: the claim, or (nothing inserted or updated) who holds the nonce.
    const claimId = crypto.randomUUID()
    const rows = await this.pg
      .run('claim', (sql) =>
        sql
          .unsafe(
            `WITH claimed AS (
           INSERT INTO payments AS p (key, network, payer, nonce, route, fingerprint, amount_atomic, request_id, state, created_at, updated_at, valid_before, holder, claim_id, payment_id, payload_digest)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'in_progress', $9, $9, $10, $11, $14, $15, $16)
           ON CONFLICT (key) DO UPDATE SET route = excluded.route, fingerprint = excluded.fingerprint, amount_atomic = excluded.amount_atomic,
             request_id = excluded.request_id, state = 'in_progress', artifact_id = NULL, updated_at = excluded.updated_at, settlement = NULL,
             tx_hash = NULL, valid_before = excluded.valid_before, holder = excluded.holder, claim_id = excluded.claim_id, taken_over = (p.state = 'in_progress'),
             payment_id = excluded.payment_id, payload_digest = excluded.payload_digest
           WHERE p.state = 'failed' OR (p.state = 'in_progress' AND (p.updated_at < $12 OR NOT EXISTS (
             SELECT 1 FROM instances i WHERE i.id = p.holder AND i.heartbeat_at > extract(epoch from clock_timestamp()) - $13)))
           RETURNING taken_over)
         SELECT true AS claimed, taken_over, NULL::text AS fingerprint, NULL::text AS state, NULL::text AS artifact_id, NULL::bigint AS updated_at,
           NULL::text AS tx_hash, NULL::text AS payment_id, NULL::text AS payload_digest FROM claimed
         UNION ALL
         SELECT false, false, fingerprint, state, artifact_id, updated_at, tx_hash, payment_id, payload_digest FROM payments WHERE key = $1 AND NOT EXISTS (SELECT 1 FROM claimed)`,
            [
              claim.key,
              claim.network,
              claim.payer,
              claim.nonce,
              claim.routeId,
              claim.fingerprint,
              claim.amountAtomic,
              claim.requestId,
              now,
              claim.validBefore ?? null,
              this.instanceId,
              staleBefore,
              LEASE_SECONDS,
              claimId,
              claim.paymentId ?? null,
              claim.payloadDigest ?? null,
            ],
          )
          .catch((error: unknown) => {
            // The payer's id is bound to another payload (the unique index, on whichever instance claimed first).
            if (isIdConflict(error)) return ID_CONFLICT
            throw error
          }),
      )
      .catch((error: unknown) => {
        // The claim may still land after the deadline: free it again once the database answers.
        this.enqueue({ kind: 'state', key: claim.key, claimId, from: ['in_progress'], to: 'failed', now })
        this.scheduleRetry()
        throw error
      })
    if (rows === ID_CONFLICT) return { status: 'id_conflict' }
    const row = rows[0] as (PaymentRow & { claimed: boolean; taken_over: boolean }) | undefined
    if (row?.claimed) {
      this.mine.set(claim.key, claimId)
      return row.taken_over ? { status: 'claimed', takenOver: true } : { status: 'claimed' }
    }
    // Held under the same id with another payload (the same nonce signed twice): the id names the first.
    if (
      row &&
      claim.paymentId &&
      row.payment_id === claim.paymentId &&
      row.payload_digest !== claim.payloadDigest &&
      row.state !== 'failed'
    )
      return { status: 'id_conflict' }
    if (row) return takenOf(row)
    // The holder's row was committed while this statement waited for it, after the statement's snapshot:
    // read it now; or, freed in between (its request failed), claim again.
    return (await this.lookup(claim.key)) ?? this.claim(claim, now, staleBefore)
  }

  /** Claims are in the database before `claim` resolves. */
  persistClaim(): void {}

  async lookup(key: string): Promise<Taken | null> {
    const rows = await this.pg.run('lookup', (sql) => sql<PaymentRow[]>`SELECT * FROM payments WHERE key = ${key}`)
    return rows.length ? takenOf(rows[0]!) : null
  }

  private claimOf(key: string): string {
    const claimId = this.mine.get(key)
    if (!claimId) throw new Error(`ledger: no claim of this instance for ${key}`)
    return claimId
  }

  release(key: string, now: number): void {
    const claimId = this.mine.get(key)
    if (!claimId) return
    this.enqueue({ kind: 'state', key, claimId, from: ['in_progress'], to: 'failed', now })
    this.mine.delete(key)
  }

  complete(key: string, artifact: StoredArtifact, now: number, settlement: ServedSettlement = { kind: 'local' }): void {
    // `served` too: the reconciler may have found the transfer on chain first (then the answer is attached).
    this.attach(key, artifact, now, {
      from: ['in_progress', 'pending', 'served'],
      to: 'served',
      settlement: settlement.kind,
      txHash: settlement.txHash,
    })
  }

  park(key: string, artifact: StoredArtifact, now: number, txHash?: string): void {
    this.attach(key, artifact, now, { from: ['in_progress'], to: 'pending', settlement: 'pending', txHash })
  }

  /** Stores an answer and moves its payment on, in this instance's next commit. */
  private attach(
    key: string,
    artifact: StoredArtifact,
    now: number,
    move: { from: PaymentState[]; to: PaymentState; settlement: Settlement; txHash: string | undefined },
  ): void {
    const claimId = this.claimOf(key)
    this.enqueue({ kind: 'artifact', key, artifact, now })
    this.enqueue({ kind: 'state', key, claimId, ...move, now, artifactId: artifact.id, txHash: move.txHash ?? null })
    this.mine.delete(key)
  }

  async resolve(
    key: string,
    verdict: { settled: true; txHash?: string } | { settled: false },
    now: number,
    from: { state: 'pending' | 'in_progress'; requestId?: string } = { state: 'pending' },
  ): Promise<boolean> {
    await this.durable() // this instance's own queued changes first
    const rows = await this.pg.run('resolve', (sql) =>
      verdict.settled
        ? sql.unsafe(
            `UPDATE payments SET state = 'served', settlement = 'settled', tx_hash = COALESCE($4, tx_hash), updated_at = $5
             WHERE key = $1 AND state = $2 AND ($3::text IS NULL OR request_id = $3) RETURNING key`,
            [key, from.state, from.requestId ?? null, verdict.txHash ?? null, now],
          )
        : sql.unsafe(
            `UPDATE payments SET state = 'failed', settlement = 'failed', updated_at = $4
             WHERE key = $1 AND state = $2 AND ($3::text IS NULL OR request_id = $3) RETURNING key`,
            [key, from.state, from.requestId ?? null, now],
          ),
    )
    return rows.length > 0
  }

  record(event: PaymentEvent): void {
    this.enqueue({ kind: 'event', id: crypto.randomUUID(), e: event })
  }

  recordSpend(record: SpendRecord): void {
    this.enqueue({ kind: 'spend', id: crypto.randomUUID(), s: record })
  }

  async pending(now: number): Promise<PendingPayment[]> {
    const rows = await this.pg.run('pending', (sql) =>
      sql.unsafe(
        `SELECT * FROM payments WHERE state = 'pending'
           OR (state = 'in_progress' AND valid_before IS NOT NULL AND valid_before::numeric < $1)`,
        [now - DEAD_CLAIM_AFTER_SECONDS],
      ),
    )
    return (rows as PaymentRow[]).map((row) => ({
      claim: claimOfRow(row),
      state: row.state as PendingPayment['state'],
      txHash: row.tx_hash,
      updatedAt: Number(row.updated_at),
    }))
  }

  async artifact(id: string, now: number): Promise<StoredArtifact | null> {
    const rows = await this.pg.run('artifact', (sql) =>
      sql.unsafe(
        `SELECT a.id, a.body, a.is_text, a.headers, a.expires_at FROM artifacts a JOIN payments p ON p.key = a.payment_key
         WHERE a.id = $1 AND a.expires_at > $2 AND p.state = 'served' AND p.artifact_id = a.id`,
        [id, now],
      ),
    )
    return storedOf(rows[0])
  }

  async boughtAnswer(payer: string, fingerprint: string, now: number): Promise<StoredArtifact | null> {
    const rows = await this.pg.run('bought answer', (sql) =>
      sql.unsafe(
        `SELECT a.id, a.body, a.is_text, a.headers, a.expires_at FROM artifacts a JOIN payments p ON p.key = a.payment_key
         WHERE a.payer = $1 AND a.fingerprint = $2 AND a.expires_at > $3 AND p.state = 'served' AND p.artifact_id = a.id
         ORDER BY a.expires_at DESC LIMIT 1`,
        [payer, fingerprint, now],
      ),
    )
    return storedOf(rows[0])
  }

  /** One statement: of any number of instances taking one nonce at once, one inserts it. */
  async useSignInNonce(nonce: string, expiresAt: number): Promise<boolean> {
    const rows = await this.pg.run(
      'sign-in nonce',
      (sql) =>
        sql`INSERT INTO sign_in_nonces (nonce, expires_at) VALUES (${nonce}, ${expiresAt}) ON CONFLICT (nonce) DO NOTHING RETURNING nonce`,
    )
    return rows.length === 1
  }

  async purgeExpired(now: number, keep?: LedgerRetention): Promise<number> {
    const rows = await this.pg.run('purge', (sql) => sql`DELETE FROM artifacts WHERE expires_at <= ${now} RETURNING id`)
    const nonces = await this.pg.run('purge', (sql) => sql`DELETE FROM sign_in_nonces WHERE expires_at <= ${now} RETURNING nonce`)
    let dropped = rows.length + nonces.length
    if (!keep) return dropped
    dropped += await this.prune('failed', now - keep.failedSeconds)
    if (keep.servedSeconds !== null) dropped += await this.prune('served', now - keep.servedSeconds)
    return dropped
  }

  /** Payments in `state` last changed before `before`, with their events (and, served, their artifacts and spend), in one transaction. */
  private async prune(state: 'failed' | 'served', before: number): Promise<number> {
    const counts = await this.pg.run('prune', (sql) =>
      sql.begin(async (tx) => {
        // The state written out, so that the planner uses its partial index (migration 3).
        const old =
          state === 'failed'
            ? tx`SELECT key FROM payments WHERE state = 'failed' AND updated_at < ${before}`
            : tx`SELECT key FROM payments WHERE state = 'served' AND updated_at < ${before}`
        const events = await tx`DELETE FROM payment_events WHERE at < ${before} AND payment_key IN (${old}) RETURNING seq`
        const extra =
          state === 'served'
            ? (await tx`DELETE FROM artifacts WHERE payment_key IN (${old}) RETURNING id`).length +
              (await tx`DELETE FROM provider_spend WHERE at < ${before} RETURNING seq`).length
            : 0
        // The state and time again on the row itself: a key reclaimed by another instance meanwhile stays.
        const payments = await tx`DELETE FROM payments WHERE key IN (${old}) AND state = ${state} AND updated_at < ${before} RETURNING key`
        return [events.length + extra + payments.length]
      }),
    )
    return counts[0] as number
  }

  private enqueue(op: Op): void {
    this.queue.push(op)
    this.kick()
  }

  /** Commits at the end of this turn of the event loop, together with whatever else is queued by then. */
  private kick(): void {
    if (this.flushing || this.closed) return
    this.flushing = new Promise<void>((r) => setImmediate(r)).then(() => this.flush())
  }

  private scheduleRetry(): void {
    if (this.retry || this.closed) return
    this.retry = setTimeout(() => {
      this.retry = undefined
      if (this.queue.length > 0) this.kick()
    }, RETRY_MS)
    this.retry.unref()
  }

  private async flush(): Promise<void> {
    const ops = this.queue
    const waiters = this.waiters
    this.queue = []
    this.waiters = []
    let committed = false
    try {
      if (ops.length > 0) await this.pg.run('commit', (sql) => sql.begin((tx) => apply(tx, ops)))
      committed = true
      for (const w of waiters) w.resolve()
    } catch (error) {
      this.queue = ops.concat(this.queue) // kept, in order, for the next attempt
      for (const w of waiters) w.reject(error)
      this.scheduleRetry()
    } finally {
      this.flushing = undefined
      // Changes queued meanwhile are committed next, asked for or not; after a failure, by the retry.
      if (this.waiters.length > 0 || (committed && this.queue.length > 0)) this.kick()
    }
  }

  durable(): Promise<void> {
    if (this.queue.length === 0 && !this.flushing) return Promise.resolve()
    if (this.closed) return Promise.reject(new Error('ledger: closed with changes not committed'))
    return new Promise((resolve, reject) => {
      this.waiters.push({ resolve, reject })
      this.kick()
    })
  }

  businessReader(): BusinessReader {
    const own = new Postgres(this.pg.url, 1)
    return { read: (now) => readBusiness({ postgres: own }, now), close: () => own.close() }
  }

  async close(): Promise<void> {
    await this.flushing
    if (this.queue.length > 0) await this.flush().catch(() => {})
    this.closed = true
    clearTimeout(this.retry)
  }
}
