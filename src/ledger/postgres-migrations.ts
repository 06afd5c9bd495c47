import { type Postgres, SchemaTooNew } from '../postgres'

/**
 * The shared ledger's schema, as numbered migrations applied in order and recorded in
 * `schema_migrations`. Never edit a released migration: add the next one. The ledger's own tables
 * (payments, payment_events, artifacts, provider_spend, sign_in_nonces, batch_channels, batch_redemptions) are declared in src/ledger/tables.ts, for both
 * engines: a change to them is made there and brought here as a migration; a test reads a migrated
 * database back against that declaration. Times are unix seconds
 * (`bigint`) as in the SQLite ledger, except the liveness columns, which compare against the database's
 * own clock (`double precision` seconds) so that instances with skewed clocks agree.
 */
export const MIGRATIONS: { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'ledger, sessions, rate limits, instances and leases',
    sql: `
CREATE TABLE payments (
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
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  settlement TEXT,
  tx_hash TEXT,
  valid_before TEXT,
  holder TEXT,
  claim_id TEXT,
  taken_over BOOLEAN NOT NULL DEFAULT false
);
CREATE INDEX payments_open ON payments (state) WHERE state IN ('pending', 'in_progress');
CREATE TABLE payment_events (
  seq BIGSERIAL PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  at BIGINT NOT NULL,
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
CREATE INDEX payment_events_at ON payment_events (at);
CREATE TABLE artifacts (
  id TEXT PRIMARY KEY,
  payment_key TEXT NOT NULL,
  body BYTEA NOT NULL,
  is_text BOOLEAN NOT NULL,
  headers TEXT,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX artifacts_expiry ON artifacts (expires_at);
CREATE TABLE instances (
  id TEXT PRIMARY KEY,
  host TEXT NOT NULL,
  pid INTEGER NOT NULL,
  version TEXT NOT NULL,
  started_at DOUBLE PRECISION NOT NULL,
  heartbeat_at DOUBLE PRECISION NOT NULL
);
CREATE TABLE leases (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  expires_at DOUBLE PRECISION NOT NULL
);
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  expires_at BIGINT NOT NULL
);
CREATE INDEX sessions_expiry ON sessions (expires_at);
CREATE TABLE session_legs (
  session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  leg TEXT NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (session_id, leg)
);
CREATE TABLE rate_buckets (
  key TEXT PRIMARY KEY,
  tokens DOUBLE PRECISION NOT NULL,
  at DOUBLE PRECISION NOT NULL,
  took BOOLEAN NOT NULL
);
`,
  },
  {
    version: 2,
    name: 'provider spend per request, shared live answers',
    sql: `
CREATE TABLE provider_spend (
  seq BIGSERIAL PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  at BIGINT NOT NULL,
  request_id TEXT NOT NULL,
  route TEXT NOT NULL,
  provider TEXT NOT NULL,
  role TEXT NOT NULL,
  requests INTEGER NOT NULL,
  input_tokens INTEGER,
  output_tokens INTEGER,
  cost_nano_usd NUMERIC
);
CREATE INDEX provider_spend_at ON provider_spend (at);
CREATE TABLE live_answers (
  key TEXT PRIMARY KEY,
  body TEXT,
  expires_at DOUBLE PRECISION NOT NULL DEFAULT 0,
  holder TEXT,
  lease_until DOUBLE PRECISION NOT NULL DEFAULT 0
);
CREATE INDEX live_answers_expiry ON live_answers (expires_at);
`,
  },
  {
    version: 3,
    name: 'retention finds old failed payments by index',
    sql: `
CREATE INDEX payments_failed_at ON payments (updated_at) WHERE state = 'failed';
`,
  },
  {
    version: 4,
    name: 'the console reads the last 30 days of payments by index',
    sql: `
CREATE INDEX IF NOT EXISTS payments_by_time ON payments (created_at) INCLUDE (state, settlement, route, network, payer, amount_atomic);
`,
  },
  {
    version: 5,
    name: "x402 payment-identifier: a payer's id names one payload",
    sql: `
ALTER TABLE payments ADD COLUMN payment_id TEXT, ADD COLUMN payload_digest TEXT;
CREATE UNIQUE INDEX payments_payment_id ON payments (payer, payment_id) WHERE payment_id IS NOT NULL AND state <> 'failed';
`,
  },
  {
    version: 6,
    name: 'x402 sign-in-with-x: answers by buyer, used challenge nonces',
    sql: `
ALTER TABLE artifacts ADD COLUMN payer TEXT, ADD COLUMN fingerprint TEXT;
CREATE INDEX artifacts_by_buyer ON artifacts (payer, fingerprint);
CREATE TABLE sign_in_nonces (nonce TEXT PRIMARY KEY, expires_at BIGINT NOT NULL);
CREATE INDEX sign_in_nonces_expiry ON sign_in_nonces (expires_at);
`,
  },
  {
    version: 7,
    name: 'x402 batch-settlement: payment channels and what was redeemed on chain',
    sql: `
CREATE TABLE batch_channels (
  channel_id TEXT PRIMARY KEY,
  network TEXT NOT NULL,
  receiver TEXT NOT NULL,
  token TEXT NOT NULL,
  payer TEXT NOT NULL,
  config TEXT NOT NULL,
  charged_cumulative TEXT NOT NULL,
  signed_max_claimable TEXT NOT NULL,
  signature TEXT NOT NULL,
  balance TEXT NOT NULL,
  total_claimed TEXT NOT NULL,
  refund_nonce TEXT NOT NULL,
  withdraw_requested_at BIGINT NOT NULL,
  onchain_synced_ms BIGINT,
  last_request_ms BIGINT NOT NULL,
  pending_id TEXT,
  pending_max_claimable TEXT,
  pending_expires_ms BIGINT,
  version BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX batch_channels_by_network ON batch_channels (network, channel_id);
CREATE INDEX batch_channels_unclaimed ON batch_channels (network) WHERE charged_cumulative <> total_claimed;
CREATE TABLE batch_redemptions (
  seq BIGSERIAL PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  at BIGINT NOT NULL,
  kind TEXT NOT NULL,
  network TEXT NOT NULL,
  tx_hash TEXT,
  amount_atomic TEXT NOT NULL,
  channels INTEGER NOT NULL,
  detail TEXT
);
CREATE INDEX batch_redemptions_at ON batch_redemptions (at);
`,
  },
]

/** How long the migrations of one start may take (an index over every payment, at tens of millions). */
const MIGRATION_DEADLINE_MS = 300_000

/** Any constant shared by every instance: the advisory lock that serialises migrations. */
const MIGRATION_LOCK = 0x636d69 // "cmi"

/**
 * Brings the schema up to date, in one transaction under an advisory lock: instances starting at once
 * take turns, and the second finds the work done. A schema newer than this release is refused (an
 * older executable must not write to tables it does not know).
 */
export async function migrate(pg: Postgres): Promise<{ applied: number[]; version: number }> {
  // A migration may build an index over every payment (4: about 1.5 s a million here): more than one
  // statement's deadline, and the instances' payment writes wait for it (docs/operations.md, upgrading).
  return pg.run(
    'migrate',
    (sql) =>
      sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`
        await tx`CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`
        const done = new Set<number>((await tx`SELECT version FROM schema_migrations`).map((r: { version: number }) => r.version))
        const latest = MIGRATIONS[MIGRATIONS.length - 1]!.version
        const newest = Math.max(0, ...done)
        if (newest > latest)
          throw new SchemaTooNew(
            `the ledger's schema is at version ${newest}, newer than this release knows (${latest}): run the newer release`,
          )
        const applied: number[] = []
        for (const migration of MIGRATIONS) {
          if (done.has(migration.version)) continue
          await tx.unsafe(migration.sql)
          await tx`INSERT INTO schema_migrations (version, name) VALUES (${migration.version}, ${migration.name})`
          applied.push(migration.version)
        }
        return { applied, version: latest }
      }),
    MIGRATION_DEADLINE_MS,
  )
}
