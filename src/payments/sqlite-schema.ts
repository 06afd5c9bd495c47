/** The SQLite ledger's tables (src/payments/sqlite-ledger.ts); PostgreSQL's are in src/postgres/migrations.ts. */
// payments is WITHOUT ROWID: one B-tree keyed by the nonce instead of a table plus its key index.
export const SCHEMA = `
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
  updated_at INTEGER NOT NULL,
  settlement TEXT,
  tx_hash TEXT,
  valid_before TEXT
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS payment_events (
  seq INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  event TEXT NOT NULL,
  payment_key TEXT NOT NULL,
  request_id TEXT NOT NULL,
  route TEXT NOT NULL,
  payer TEXT NOT NULL,
  amount_atomic TEXT NOT NULL,
  nonce TEXT NOT NULL,
  network TEXT NOT NULL,
  tx_hash TEXT,
  detail TEXT
);
CREATE INDEX IF NOT EXISTS payment_events_at ON payment_events(at);
CREATE TABLE IF NOT EXISTS artifacts (
  id TEXT PRIMARY KEY,
  payment_key TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS artifacts_expiry ON artifacts(expires_at);
CREATE TABLE IF NOT EXISTS provider_spend (
  seq INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  request_id TEXT NOT NULL,
  route TEXT NOT NULL,
  provider TEXT NOT NULL,
  role TEXT NOT NULL,
  requests INTEGER NOT NULL,
  input_tokens INTEGER,
  output_tokens INTEGER,
  cost_nano_usd TEXT
);
CREATE INDEX IF NOT EXISTS provider_spend_at ON provider_spend(at);
`

/** Columns added after the first release; a ledger file from before gets them on open. */
export const ADDED_COLUMNS = ['settlement TEXT', 'tx_hash TEXT', 'valid_before TEXT']
/** Columns added to artifacts after the first release (answers in CSV and Arrow carry their headers). */
export const ADDED_ARTIFACT_COLUMNS = ['headers TEXT']
export const PENDING_INDEX = `CREATE INDEX IF NOT EXISTS payments_open ON payments(state) WHERE state IN ('pending', 'in_progress')`
