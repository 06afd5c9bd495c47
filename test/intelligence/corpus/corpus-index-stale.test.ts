/**
 * The corpus index is built knowing the weekly signals' names (corpus-vocabulary.ts), and is named after
 * them as after the corpus: new signals give a new file, never other bytes under a name a publication
 * signed (review of issue 48). The service serves an index built for other signals (names found by their
 * phrases); the data commands build the current one and remove the old beside it.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { EVIDENCE } from '../../../src/data/contracts'
import type { LoadedDataset } from '../../../src/data/import/datasets'
import { DuckDb } from '../../../src/data/duckdb'
import { openCorpusIndex } from '../../../src/intelligence/corpus/corpus-index-cache'
import type { CorpusVocabulary } from '../../../src/intelligence/corpus/corpus-vocabulary'
import { DATASETS_DIR } from '../../../support/parquet'

let db: DuckDb
let dir: string
let corpus: LoadedDataset
const vocabulary =
  (fingerprint: string, names: string[]): (() => Promise<CorpusVocabulary>) =>
  async () => ({ names: names.map((name) => ({ name, hiders: [] })), entities: [], fingerprint })
const indexes = () =>
  readdirSync(dir)
    .filter((name) => name.includes('.index-v'))
    .sort()

beforeAll(async () => {
  db = await DuckDb.open(1)
  dir = mkdtempSync(join(tmpdir(), 'stale-index-'))
  const file = join(dir, 'evidence.parquet')
  await db.exec(`COPY (SELECT * FROM read_parquet('${join(DATASETS_DIR, 'evidence.parquet')}') LIMIT 5000) TO '${file}' (FORMAT parquet)`)
  corpus = { contract: EVIDENCE, entry: { sha256: 'a'.repeat(64) }, file } as LoadedDataset
}, 60_000)
afterAll(() => {
  db?.close()
  rmSync(dir, { recursive: true, force: true })
})

test('new signals give a new index file; the service serves the old one until the data commands build the new and remove the old', async () => {
  const first = await openCorpusIndex(db, corpus, vocabulary('1111111111111111', ['tokyo']), true)
  expect(first.built).toBeDefined()
  first.index.close()
  expect(indexes()).toEqual([`evidence-aaaaaaaaaaaa.index-v3-111111111111.sqlite`])

  // The weekly signals change: the service opens what is there, builds nothing.
  const served = await openCorpusIndex(db, corpus, vocabulary('2222222222222222', ['tokyo', 'osaka']))
  expect([served.built, served.index.vocabulary]).toEqual([undefined, '1111111111111111'])
  served.index.close()

  // A data command builds the current one (clearing what a killed build left), and removes the old.
  writeFileSync(join(dir, 'evidence-aaaaaaaaaaaa.index-v3-222222222222.sqlite.1234.dead.tmp'), 'x')
  writeFileSync(join(dir, 'evidence-aaaaaaaaaaaa.index-v3-222222222222.sqlite.1234.dead.tmp.staging'), 'x')
  const rebuilt = await openCorpusIndex(db, corpus, vocabulary('2222222222222222', ['tokyo', 'osaka']), true)
  expect(rebuilt.built).toBeDefined()
  expect(rebuilt.index.tokenOf('osaka')).toBeDefined()
  rebuilt.index.close()
  expect(indexes()).toEqual([`evidence-aaaaaaaaaaaa.index-v3-222222222222.sqlite`])

  const again = await openCorpusIndex(db, corpus, vocabulary('2222222222222222', ['tokyo', 'osaka']), true)
  expect(again.built).toBeUndefined()
  again.index.close()
}, 120_000)
