import { Database } from 'bun:sqlite'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'

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
}

export type PaymentState = 'in_progress' | 'served' | 'failed'

export type ClaimResult =
  | { status: 'claimed' }
  | { status: 'taken'; fingerprint: string; state: PaymentState; artifactId: string | null; updatedAt: number }

export interface StoredArtifact {
  id: string
  body: string
  expiresAt: number
}

/**
 * Durable record of used nonces, accepted payments and paid results. Behind an interface so that several
 * instances can later share one (Redis); the default is a local SQLite file.
 */
export interface PaymentLedger {
  /**
   * Atomically takes the nonce for this request, or reports who holds it. A `failed` claim may be taken
   * again, and so may an `in_progress` one not touched since `staleBefore` (its process died mid-request).
   */
  claim(c: PaymentClaim, now: number, staleBefore: number): ClaimResult
  /** Who holds a nonce, without taking it. */
  lookup(key: string): Extract<ClaimResult, { status: 'taken' }> | null
  /** The handler failed: nothing was charged, and the authorization may buy the same or another request later. */
  release(key: string, now: number): void
  /** The handler answered: mark the payment served and keep the result until `artifact.expiresAt`. */
  complete(key: string, artifact: StoredArtifact, now: number): void
  artifact(id: string, now: number): StoredArtifact | null
  /** Drops expired artifacts; payment rows are kept (they are the nonce ledger and the revenue record). */
  purgeExpired(now: number): number
  close(): void
}

// Every paid request writes here twice (claim, then served + artifact), so the schema keeps page writes
// low: payments is WITHOUT ROWID (one B-tree keyed by the nonce instead of a table plus its key index).
const SCHEMA = `
CREATE TABLE IF NOT EXISTS payments (
  key TEXT PRIMARY KEY,
  network TEXT NOT NULL,
  payer TEXT NOT NULL,
  nonce TEXT NOT NULL,
  route TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  amount_atomic TEXT NOT NULL,
  request_id TEXT NOT NULL,
  state TEXT NOT NULL,
  artifact_id TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS artifacts (
  id TEXT PRIMARY KEY,
  payment_key TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS artifacts_expiry ON artifacts(expires_at);
`

export class SqliteLedger implements PaymentLedger {
  private readonly db: Database
  private readonly stmts
  private readonly completeTx: (key: string, a: StoredArtifact, now: number) => void

  constructor(path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
    this.db = new Database(path, { create: true, strict: true })
    // WAL + NORMAL: a committed claim survives a process crash; fsync per request would cap paid throughput.
    this.db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;')
    this.db.exec(SCHEMA)
    this.stmts = {
      claim: this.db.query<{ key: string }, Record<string, string | number>>(
        `INSERT INTO payments (key, network, payer, nonce, route, fingerprint, amount_atomic, request_id, state, created_at, updated_at)
         VALUES ($key, $network, $payer, $nonce, $route, $fingerprint, $amount, $requestId, 'in_progress', $now, $now)
         ON CONFLICT(key) DO UPDATE SET route = excluded.route, fingerprint = excluded.fingerprint, amount_atomic = excluded.amount_atomic,
           request_id = excluded.request_id, state = 'in_progress', updated_at = excluded.updated_at
         WHERE payments.state = 'failed' OR (payments.state = 'in_progress' AND payments.updated_at < $staleBefore)
         RETURNING key`,
      ),
      holder: this.db.query<{ fingerprint: string; state: PaymentState; artifact_id: string | null; updated_at: number }, { key: string }>(
        'SELECT fingerprint, state, artifact_id, updated_at FROM payments WHERE key = $key',
      ),
      release: this.db.query(`UPDATE payments SET state = 'failed', updated_at = $now WHERE key = $key AND state = 'in_progress'`),
      serve: this.db.query(`UPDATE payments SET state = 'served', artifact_id = $id, updated_at = $now WHERE key = $key`),
      store: this.db.query('INSERT INTO artifacts (id, payment_key, body, created_at, expires_at) VALUES ($id, $key, $body, $now, $expiresAt)'),
      artifact: this.db.query<{ id: string; body: string; expires_at: number }, { id: string; now: number }>(
        'SELECT id, body, expires_at FROM artifacts WHERE id = $id AND expires_at > $now',
      ),
      purge: this.db.query('DELETE FROM artifacts WHERE expires_at <= $now'),
    }
    this.completeTx = this.db.transaction((key: string, a: StoredArtifact, now: number) => {
      this.stmts.store.run({ id: a.id, key, body: a.body, now, expiresAt: a.expiresAt })
      this.stmts.serve.run({ id: a.id, key, now })
    })
  }

  claim(c: PaymentClaim, now: number, staleBefore: number): ClaimResult {
    const won = this.stmts.claim.get({
      key: c.key, network: c.network, payer: c.payer, nonce: c.nonce, route: c.routeId, fingerprint: c.fingerprint,
      amount: c.amountAtomic, requestId: c.requestId, now, staleBefore,
    })
    if (won) return { status: 'claimed' }
    const holder = this.lookup(c.key)
    if (!holder) throw new Error(`ledger: claim lost but no holder for ${c.key}`)
    return holder
  }

  lookup(key: string): Extract<ClaimResult, { status: 'taken' }> | null {
    const h = this.stmts.holder.get({ key })
    return h ? { status: 'taken', fingerprint: h.fingerprint, state: h.state, artifactId: h.artifact_id, updatedAt: h.updated_at } : null
  }

  release(key: string, now: number): void {
    this.stmts.release.run({ key, now })
  }

  complete(key: string, artifact: StoredArtifact, now: number): void {
    this.completeTx(key, artifact, now)
  }

  artifact(id: string, now: number): StoredArtifact | null {
    const row = this.stmts.artifact.get({ id, now })
    return row ? { id: row.id, body: row.body, expiresAt: row.expires_at } : null
  }

  purgeExpired(now: number): number {
    return this.stmts.purge.run({ now }).changes
  }

  close(): void {
    this.db.close()
  }
}
