/**
 * When a payment's claim reaches the SQLite file: before any money can move (a settling process that dies
 * leaves it for the reconciler), and otherwise once, with the request's outcome (each write of a payment
 * row costs a page of its own: the nonces are random). Read from a second connection, as another process
 * (`payments report`, the next start) would.
 */
import { Database } from 'bun:sqlite'
import { DEV_OFFER } from '../../../support/offers'
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { routeById } from '../../../src/catalog'
import { DEV_PAY_TO } from '../../../src/config/config'
import { ApiError } from '../../../src/core/errors'
import { PaymentGate } from '../../../src/payments/gate/gate'
import { newArtifactId } from '../../../src/payments/gate/paid-work'
import { SqliteLedger } from '../../../src/ledger/sqlite'
import { usdToAtomic } from '../../../src/core/usdc'
import { localSettler, type SettleOutcome, type Settler } from '../../../src/payments/settler'
import { createPayer } from '../../../support/payer'
import { proofFromHeader } from '../../../src/payments/gate/proof'

const dir = mkdtempSync(join(tmpdir(), 'cmi-claim-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const route = routeById.get('flights.summary')!
const payer = createPayer()

/** The payment rows as committed in the file, by state (or the events, by kind). */
function onDisk(file: string, table: 'payments' | 'payment_events' = 'payments'): string[] {
  const db = new Database(file, { readonly: true })
  try {
    const column = table === 'payments' ? 'state' : 'event'
    return db
      .query<{ v: string }, []>(`SELECT ${column} AS v FROM ${table}`)
      .all()
      .map((r) => r.v)
  } finally {
    db.close()
  }
}

/** A facilitator-mode settler whose settle calls `onSettle`, then settles with `transaction`. */
function settlingWith(transaction: `0x${string}`, onSettle: () => void): Settler {
  return {
    mode: 'facilitator',
    verify: async () => ({ ok: true }),
    settle: async (): Promise<SettleOutcome> => {
      onSettle()
      return { status: 'settled', receipt: { success: true, transaction, network: 'eip155:84532', payer: payer.address } }
    },
  }
}

/** One paid request for flights.summary through `gate` with `proof`, its paid work done by `work`. */
function request(gate: PaymentGate, proof: string, work: () => Promise<string>) {
  const auth = gate.authorize({
    route,
    payment: proofFromHeader(proof),
    resourceUrl: `http://localhost${route.path}`,
    requestId: 'req_1',
    fingerprint: `${route.id}|Tokyo`,
  })
  if (auth instanceof ApiError) throw auth
  return gate.fulfil(auth, work)
}

const gateOver = (ledger: SqliteLedger, settler: Settler) =>
  new PaymentGate({ offers: [DEV_OFFER], artifactTtlSeconds: 3600, ledger, settler })
const freshProof = () => payer.proof({ value: usdToAtomic(route.priceUsd) })

async function payOnce(file: string, settler: Settler, work: (ledger: SqliteLedger) => Promise<string>) {
  const ledger = new SqliteLedger(file)
  const proof = await freshProof()
  try {
    return await request(gateOver(ledger, settler), proof, () => work(ledger))
  } finally {
    ledger.close()
  }
}

test('facilitator mode: the claim is committed in_progress before settle is called, then served', async () => {
  const file = join(dir, 'facilitator.sqlite')
  let atSettle: string[] = []
  const settler = settlingWith(`0x${'ab'.repeat(32)}`, () => {
    atSettle = onDisk(file)
  })
  let duringWork: string[] = []
  const answer = await payOnce(file, settler, async () => {
    duringWork = onDisk(file)
    return '{"ok":true}'
  })
  expect(answer.body).toBe('{"ok":true}')
  expect(duringWork).toEqual([]) // verified, not yet settling: nothing can move, nothing written yet
  expect(atSettle).toEqual(['in_progress'])
  expect(onDisk(file)).toEqual(['served'])
})

test('local mode (no money moves): the claim is never written in_progress, only with its outcome', async () => {
  const file = join(dir, 'local.sqlite')
  let duringWork: string[] = ['(not run)']
  const answer = await payOnce(file, localSettler, async (ledger) => {
    // Its `verified` event is committed once this resolves; the claim was not in that commit.
    await ledger.durable()
    expect(onDisk(file, 'payment_events')).toEqual(['verified'])
    duringWork = onDisk(file)
    return '{"ok":true}'
  })
  expect(answer.body).toBe('{"ok":true}')
  expect(duringWork).toEqual([])
  expect(onDisk(file)).toEqual(['served'])
})

test('facilitator mode: a file that cannot take the claim refuses the request (503 ledger_unavailable) before settle; the proof buys it once the file is back', async () => {
  const file = join(dir, 'refusing.sqlite')
  const ledger = new SqliteLedger(file)
  // Another connection makes the file refuse every new payment row, as a full disk would refuse the commit.
  const admin = new Database(file)
  admin.exec(`CREATE TRIGGER refuse BEFORE INSERT ON payments BEGIN SELECT RAISE(FAIL, 'disk full'); END`)
  let settles = 0
  const settler = settlingWith(`0x${'cd'.repeat(32)}`, () => settles++)
  const gate = gateOver(ledger, settler)
  const proof = await freshProof()
  const buy = () => request(gate, proof, async () => '{"ok":true}')
  try {
    const refused = await buy().catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(ApiError)
    expect((refused as ApiError).code).toBe('ledger_unavailable')
    expect((refused as ApiError).status).toBe(503)
    expect(settles).toBe(0) // no money moved without the claim on disk
    expect(onDisk(file)).toEqual([])

    admin.exec('DROP TRIGGER refuse')
    const answer = await buy()
    expect(answer.body).toBe('{"ok":true}')
    expect(settles).toBe(1)
    expect(onDisk(file)).toEqual(['served'])
  } finally {
    admin.close()
    ledger.close()
  }
})

test('artifact ids: 128 random bits after a hex millisecond timestamp, so that they sort by time', () => {
  const ids = Array.from({ length: 1000 }, () => newArtifactId())
  for (const id of ids) expect(id).toMatch(/^art_[0-9a-f]{12}[A-Za-z0-9_-]{22}$/)
  expect(new Set(ids.map((id) => id.slice(16))).size).toBe(1000)
  const stamps = ids.map((id) => parseInt(id.slice(4, 16), 16))
  expect(stamps).toEqual([...stamps].sort((a, b) => a - b))
  expect(Math.abs(stamps.at(-1)! - Date.now())).toBeLessThan(60_000)
})
