/**
 * The corpus index is built knowing the weekly signals' names (corpus-vocabulary.ts). One built for other
 * signals still serves (names are then found by their phrases), but the data commands build it again in
 * its place: after a signals import the index knows the new names (review of issue 48: it used to say
 * "already built" until the corpus itself changed).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDb } from '../../src/data/duckdb'
import { buildOnce } from '../../src/intelligence/providers/corpus-index-cache'
import type { CorpusVocabulary } from '../../src/intelligence/providers/corpus-vocabulary'
import { DATASETS_DIR } from '../../support/parquet'

let db: DuckDb
let dir: string
let file: string
const vocabulary =
  (fingerprint: string, names: string[]): (() => Promise<CorpusVocabulary>) =>
  async () => ({
    names: names.map((name) => ({ name, hiders: [] })),
    entities: [],
    fingerprint,
  })

beforeAll(async () => {
  db = await DuckDb.open(1)
  dir = mkdtempSync(join(tmpdir(), 'stale-index-'))
  file = join(dir, 'evidence.parquet')
  await db.exec(`COPY (SELECT * FROM read_parquet('${join(DATASETS_DIR, 'evidence.parquet')}') LIMIT 5000) TO '${file}' (FORMAT parquet)`)
}, 60_000)
afterAll(() => {
  db?.close()
  rmSync(dir, { recursive: true, force: true })
})

test('an index built for other signals is built again in its place when the caller asks for the current ones; a current one is opened', async () => {
  const target = join(dir, 'evidence.index.sqlite')
  const first = await buildOnce(db, file, 'sha', target, vocabulary('signals-1', ['tokyo']))
  expect(first.built).toBeDefined()
  expect(first.index.vocabulary).toBe('signals-1')
  first.index.close()

  // What a build killed half-way leaves beside it is cleared by the next build, its scratch database too.
  writeFileSync(`${target}.1234.dead.tmp`, 'x')
  writeFileSync(`${target}.1234.dead.tmp.staging`, 'x')
  const current = (fingerprint: string) => (index: { vocabulary: string }) => index.vocabulary === fingerprint
  const again = await buildOnce(db, file, 'sha', target, vocabulary('signals-2', ['tokyo', 'osaka']), current('signals-2'))
  expect(again.built).toBeDefined()
  expect(again.index.vocabulary).toBe('signals-2')
  expect(again.index.tokenOf('osaka')).toBeDefined()
  again.index.close()
  expect(readdirSync(dir).filter((name) => name.includes('.tmp'))).toEqual([])

  const opened = await buildOnce(db, file, 'sha', target, vocabulary('signals-2', ['tokyo', 'osaka']), current('signals-2'))
  expect(opened.built).toBeUndefined()
  opened.index.close()
  // The service takes any index of its corpus: no usable test, nothing built.
  const served = await buildOnce(db, file, 'sha', target, vocabulary('signals-3', []))
  expect([served.built, served.index.vocabulary]).toEqual([undefined, 'signals-2'])
  served.index.close()
}, 120_000)
