/**
 * The storage a ledger test runs on and the rows it writes: what the ledger contract (ledger-contract.ts)
 * and the suites around it share.
 */
import { expect } from 'bun:test'
import type { PaymentClaim, PaymentEventKind, PaymentLedger } from '../src/ledger/contract'

/** Fresh storage for one test. */
export interface LedgerStore {
  /** A ledger on this storage; each call opens another one (another connection, as another instance would). */
  open(): Promise<PaymentLedger>
  /** The payment's row as stored (after `durable()`), or null. */
  payment(key: string): Promise<{ state: string; settlement: string | null; tx_hash: string | null } | null>
  /** The payment's events as stored, oldest first. */
  events(key: string): Promise<{ event: string; tx_hash: string | null }[]>
  /** Closes every ledger it opened and frees the storage. */
  dispose(): Promise<void>
}

export interface LedgerBackend {
  name: string
  /** Whether two ledgers opened on one store see each other's commits (not so for SQLite's ':memory:'). */
  sharedStorage: boolean
  fresh(): Promise<LedgerStore>
}

export const claimOf = (key: string, overrides: Partial<PaymentClaim> = {}): PaymentClaim => ({
  key,
  network: 'eip155:84532',
  payer: '0xabc',
  nonce: `0x${key}`,
  routeId: 'flights.summary',
  fingerprint: `fp-${key}`,
  amountAtomic: '100000',
  requestId: `req-${key}`,
  ...overrides,
})
export const artifactOf = (id: string) => ({ id, body: `{"answer":"${id}"}`, expiresAt: 10_000 })
export const eventOf = (key: string, kind: PaymentEventKind, at = 1000) => ({
  event: kind,
  at,
  key,
  requestId: `req-${key}`,
  routeId: 'flights.summary',
  payer: '0xabc',
  amountAtomic: '100000',
  nonce: `0x${key}`,
  network: 'eip155:84532',
})

/**
 * What a ledger other than the writer reads of `key` once claimed at 1000 and completed at 1001 with
 * `artifactOf(artifactId)`: the payment served, and its result.
 */
export async function expectReadsServed(reader: PaymentLedger, key: string, artifactId: string): Promise<void> {
  expect(await reader.lookup(key)).toEqual({
    status: 'taken',
    fingerprint: `fp-${key}`,
    state: 'served',
    artifactId,
    updatedAt: 1001,
    txHash: null,
  })
  expect((await reader.artifact(artifactId, 1002))?.body).toBe(`{"answer":"${artifactId}"}`)
}

/** Fresh storage for each test of the contract, disposed after it. */
export interface Storage {
  fresh(): Promise<LedgerStore>
  /** A ledger on fresh storage, for the tests that need only one. */
  freshLedger(): Promise<PaymentLedger>
}
