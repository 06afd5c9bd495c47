import type { SQL } from 'bun'
import type { PaymentEvent, PaymentState, SpendRecord, StoredArtifact } from './contract'
import { eventRow, spendRow } from './rows'

/** A change queued until the next commit: guarded so that it applies only to the claim it was made for. */
export type Op =
  | {
      kind: 'state'
      key: string
      claimId: string
      from: PaymentState[]
      to: PaymentState
      now: number
      artifactId?: string
      settlement?: string
      txHash?: string | null
    }
  | { kind: 'artifact'; key: string; artifact: StoredArtifact; now: number }
  | { kind: 'event'; id: string; e: PaymentEvent }
  | { kind: 'spend'; id: string; s: SpendRecord }

/** One commit: artifacts and events in bulk, then each state change under its guard. */
export async function apply(tx: SQL, ops: Op[]): Promise<void> {
  const artifacts = ops.filter((o): o is Extract<Op, { kind: 'artifact' }> => o.kind === 'artifact')
  if (artifacts.length > 0) {
    const rows = artifacts.map((op) => ({
      id: op.artifact.id,
      payment_key: op.key,
      body: typeof op.artifact.body === 'string' ? Buffer.from(op.artifact.body, 'utf8') : Buffer.from(op.artifact.body),
      is_text: typeof op.artifact.body === 'string',
      headers: op.artifact.headers ? JSON.stringify(op.artifact.headers) : null,
      created_at: op.now,
      expires_at: op.artifact.expiresAt,
      payer: op.artifact.buyer?.payer ?? null,
      fingerprint: op.artifact.buyer?.fingerprint ?? null,
    }))
    await tx`INSERT INTO artifacts ${tx(rows)} ON CONFLICT (id) DO NOTHING`
  }
  for (const op of ops) {
    if (op.kind !== 'state') continue
    await tx.unsafe(
      `UPDATE payments SET state = $3, updated_at = $4, artifact_id = COALESCE($5, artifact_id), settlement = COALESCE($6, settlement),
         tx_hash = COALESCE($7, tx_hash)
       WHERE key = $1 AND claim_id = $2 AND state = ANY($8::text[]) AND (state <> 'served' OR artifact_id IS NULL)`,
      [op.key, op.claimId, op.to, op.now, op.artifactId ?? null, op.settlement ?? null, op.txHash ?? null, `{${op.from.join(',')}}`],
    )
  }
  const events = ops.filter((o): o is Extract<Op, { kind: 'event' }> => o.kind === 'event')
  if (events.length > 0) {
    const rows = events.map(({ id, e }) => ({ id, ...eventRow(e) }))
    // A commit cut off by the deadline may have landed: its events are not written twice.
    await tx`INSERT INTO payment_events ${tx(rows)} ON CONFLICT (id) DO NOTHING`
  }
  const spends = ops.filter((o): o is Extract<Op, { kind: 'spend' }> => o.kind === 'spend')
  if (spends.length > 0) {
    const rows = spends.map(({ id, s }) => ({ id, ...spendRow(s) }))
    await tx`INSERT INTO provider_spend ${tx(rows)} ON CONFLICT (id) DO NOTHING`
  }
}
