/**
 * A ledger file shared by several instances (REUSE_PORT): each SqliteLedger below has its own connection
 * and its own memory, as two processes would. test/cli/serve.test.ts runs the same with real processes.
 */
import { afterAll, afterEach, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SqliteLedger } from '../../src/ledger/sqlite'
import { claimOf } from '../../support/ledger-fixtures'

const dir = mkdtempSync(join(tmpdir(), 'cmi-shared-ledger-'))
const open: SqliteLedger[] = []
const ledgerAt = (path: string, shared: boolean) => {
  const l = new SqliteLedger(path, { shared })
  open.push(l)
  return l
}
afterEach(() => {
  for (const l of open.splice(0)) l.close()
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const claim = (key: string, requestId: string) => claimOf(key, { requestId })
/** Two ledgers on one new file, as two instances open it. */
const twoInstances = (file: string, shared: boolean) => {
  const path = join(dir, file)
  return [ledgerAt(path, shared), ledgerAt(path, shared)] as const
}

test('opened shared, a claim is in the file at once: the other instance sees it taken in the same turn', async () => {
  const [a, b] = twoInstances('shared.sqlite', true)
  expect(await a.claim(claim('n1', 'req-a'), 1000, 900)).toEqual({ status: 'claimed' })
  expect(await b.claim(claim('n1', 'req-b'), 1000, 900)).toMatchObject({ status: 'taken', state: 'in_progress' })
})

test('not shared (one instance per file), the same two claims both succeed: why REUSE_PORT opens the ledger shared', async () => {
  const [a, b] = twoInstances('single.sqlite', false)
  expect(await a.claim(claim('n1', 'req-a'), 1000, 900)).toEqual({ status: 'claimed' })
  expect(await b.claim(claim('n1', 'req-b'), 1000, 900)).toEqual({ status: 'claimed' })
})

test('shared: what follows a claim (release, complete) still goes through the group commit, and the other instance reads it', async () => {
  const [a, b] = twoInstances('follow.sqlite', true)
  await a.claim(claim('n1', 'req-a'), 1000, 900)
  a.release('n1', 1001)
  await a.durable()
  expect(await b.claim(claim('n1', 'req-b'), 1002, 900)).toEqual({ status: 'claimed' }) // a failed claim is free again
  b.complete('n1', { id: 'art_1', body: '{}', expiresAt: 10_000 }, 1003)
  await b.durable()
  expect(await a.claim(claim('n1', 'req-c'), 1004, 900)).toMatchObject({ status: 'taken', state: 'served', artifactId: 'art_1' })
})
