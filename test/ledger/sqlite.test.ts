import { afterAll, afterEach, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SqliteLedger } from '../../src/ledger/sqlite'
import { columnsIn, indexesIn, LEDGER_TABLES } from '../../src/ledger/tables'
import { ledgerContract } from '../../support/ledger-contract'
import {
  artifactOf as artifact,
  claimOf as claim,
  eventOf as event,
  expectReadsServed,
  type LedgerBackend,
  type LedgerStore,
} from '../../support/ledger-fixtures'

const dir = mkdtempSync(join(tmpdir(), 'ledger-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

let files = 0
/** SQLite storage: a new file (or one in-memory database per ledger), ledgers opened on it as `shared` or not. */
const sqliteBackend = (name: string, o: { memory?: boolean; shared?: boolean }): LedgerBackend => ({
  name,
  sharedStorage: !o.memory,
  async fresh(): Promise<LedgerStore> {
    const path = o.memory ? ':memory:' : join(dir, `contract-${++files}.sqlite`)
    const opened: SqliteLedger[] = []
    const db = () => (opened[0] as unknown as { db: Database }).db
    return {
      async open() {
        const l = new SqliteLedger(path, { shared: o.shared === true })
        opened.push(l)
        return l
      },
      async payment(key) {
        return db()
          .query<{ state: string; settlement: string | null; tx_hash: string | null }, [string]>(
            'SELECT state, settlement, tx_hash FROM payments WHERE key = ?',
          )
          .get(key)
      },
      async events(key) {
        return db()
          .query<{ event: string; tx_hash: string | null }, [string]>(
            'SELECT event, tx_hash FROM payment_events WHERE payment_key = ? ORDER BY seq',
          )
          .all(key)
      },
      async dispose() {
        for (const l of opened.splice(0)) l.close()
      },
    }
  },
})

ledgerContract(sqliteBackend('SQLite :memory:', { memory: true }))
ledgerContract(sqliteBackend('SQLite file', {}))
ledgerContract(sqliteBackend('SQLite file opened shared (REUSE_PORT)', { shared: true }))

// SQLite only: the group commit at the end of the turn, another connection to the file, old file layouts.

/** A path in a folder of its own: the ledger's -wal and -shm files beside it are its alone. */
const fileInNewFolder = (name: string) => join(mkdtempSync(join(dir, 'ledger-')), name)
const open: SqliteLedger[] = []
const ledgerAt = (path: string) => {
  const l = new SqliteLedger(path)
  open.push(l)
  return l
}
afterEach(() => {
  for (const l of open.splice(0)) l.close()
})

test('a payment is on disk, readable by another process, once durable() resolves', async () => {
  const path = fileInNewFolder('ledger.sqlite')
  const a = ledgerAt(path)
  expect(await a.claim(claim('n1'), 1000, 900)).toEqual({ status: 'claimed' })
  a.complete('n1', artifact('art_1'), 1001)
  const other = ledgerAt(path)
  expect(await other.lookup('n1')).toBeNull() // not committed yet: group commit at the end of this turn
  await a.durable()
  await expectReadsServed(other, 'n1', 'art_1')
})

test('an Arrow answer is stored byte for byte with its headers, and a ledger of the old layout gains the headers column', async () => {
  const path = fileInNewFolder('ledger.sqlite')
  // A ledger file from before CSV and Arrow answers: its artifacts table has no headers column.
  const old = new Database(path)
  old.exec(
    'CREATE TABLE artifacts (id TEXT PRIMARY KEY, payment_key TEXT NOT NULL, body TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL)',
  )
  old.close()
  const a = ledgerAt(path)
  const bytes = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x00, 0x01, 0x80, 0x0a, 0x0d, 0x00])
  const headers = { 'content-type': 'application/vnd.apache.arrow.stream', 'x-dataset-version': 'spend-0123456789ab' }
  await a.claim(claim('bin'), 1000, 900)
  a.complete('bin', { id: 'art_bin', body: bytes, headers, expiresAt: 10_000 }, 1001)
  await a.durable()
  const stored = (await ledgerAt(path).artifact('art_bin', 1002))!
  expect(stored.body).toBeInstanceOf(Uint8Array)
  expect([...(stored.body as Uint8Array)]).toEqual([...bytes])
  expect(stored.headers).toEqual(headers)
  await a.claim(claim('json'), 1000, 900)
  a.complete('json', artifact('art_json'), 1001)
  await a.durable()
  expect(await ledgerAt(path).artifact('art_json', 1002)).toEqual({ id: 'art_json', body: '{"answer":"art_json"}', expiresAt: 10_000 })
})

test('many requests of one turn share one commit, and each is recorded', async () => {
  const path = fileInNewFolder('ledger.sqlite')
  const a = ledgerAt(path)
  for (let i = 0; i < 100; i++) {
    await a.claim(claim(`k${i}`), 1000, 900) // resolved in this turn: SQLite claims are decided in memory
    a.complete(`k${i}`, artifact(`art_${i}`), 1001)
  }
  await a.durable()
  const other = ledgerAt(path)
  for (let i = 0; i < 100; i++) expect((await other.lookup(`k${i}`))?.state).toBe('served')
})

/** The file's tables, columns (type, NOT NULL, key) and indexes are the declared ones (src/ledger/tables.ts). */
function expectDeclaredTables(path: string, o: { inOrder: boolean }) {
  const db = new Database(path, { readonly: true })
  const ordered = <Row extends unknown[]>(rows: Row[]) =>
    o.inOrder ? rows : rows.toSorted((x, y) => String(x[0]).localeCompare(String(y[0])))
  for (const table of LEDGER_TABLES) {
    const found = db
      .query<{ name: string; type: string; notnull: number; pk: number }, []>(`PRAGMA table_info(${table.name})`)
      .all()
      .map((c) => [c.name, c.type, c.notnull === 1, c.pk === 1])
    // A WITHOUT ROWID table's key is NOT NULL by SQLite's rule; a rowid table's may be NULL (then the rowid).
    const declared = columnsIn(table, 'sqlite').map((c) => [
      c.name,
      c.type,
      c.required === true || (c.key === true && table.withoutRowid === true),
      c.key === true,
    ])
    expect({ table: table.name, columns: ordered(found) }).toEqual({ table: table.name, columns: ordered(declared) })
  }
  const indexes = db
    .query<{ name: string }, []>(`SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name`)
    .all()
    .map((index) => index.name)
  expect(indexes).toEqual(
    indexesIn('sqlite')
      .filter((index) => !index.lazy)
      .map((index) => index.name)
      .sort(),
  )
  db.close()
}

test('a new ledger file has the declared tables, columns in order, and indexes', async () => {
  const path = fileInNewFolder('new.sqlite')
  const a = ledgerAt(path)
  await a.claim(claim('n1'), 1000, 900)
  await a.durable()
  expectDeclaredTables(path, { inOrder: true })
})

test('a ledger file of an early layout (payments without the settlement columns, no other table) is upgraded on open', async () => {
  const path = fileInNewFolder('old.sqlite')
  const old = new Database(path)
  old.exec(`CREATE TABLE payments (key TEXT PRIMARY KEY, network TEXT NOT NULL, payer TEXT NOT NULL, nonce TEXT NOT NULL, route TEXT NOT NULL,
    fingerprint TEXT NOT NULL, amount_atomic TEXT NOT NULL, request_id TEXT NOT NULL, state TEXT NOT NULL, artifact_id TEXT,
    created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL) WITHOUT ROWID`)
  old.exec(
    `INSERT INTO payments VALUES ('o1', 'eip155:84532', '0xabc', '0x01', 'spend.months', 'f', '30000', 'r1', 'served', NULL, 900, 900)`,
  )
  old.close()
  const a = ledgerAt(path)
  expect(await a.lookup('o1')).toMatchObject({ state: 'served', txHash: null })
  expectDeclaredTables(path, { inOrder: false })
  await a.claim(claim('n5'), 1000, 900)
  a.record(event('n5', 'verified'))
  await a.durable()
  expect((await a.lookup('n5'))?.state).toBe('in_progress')
})

test('a file whose table lacks a column SQLite cannot add (NOT NULL, no default) is refused by name, and nothing is added', () => {
  const path = fileInNewFolder('foreign.sqlite')
  const old = new Database(path)
  old.exec('CREATE TABLE payment_events (seq INTEGER PRIMARY KEY, at INTEGER NOT NULL, event TEXT NOT NULL)')
  old.close()
  expect(() => ledgerAt(path)).toThrow(/ledger payment_events\.payment_key: a file made by an older release lacks this column/)
  const after = new Database(path, { readonly: true })
  expect(
    after
      .query<{ name: string }, []>('PRAGMA table_info(payment_events)')
      .all()
      .map((c) => c.name),
  ).toEqual(['seq', 'at', 'event'])
  after.close()
})
