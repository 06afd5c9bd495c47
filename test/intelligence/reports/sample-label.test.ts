/**
 * The sample label follows the data, not the mode: an evidence corpus the data team imports as real
 * (`data import` without --sample) is answered without the flag, the sentence or the sample discount.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { EVIDENCE } from '../../../src/data/contracts'
import { DuckDb } from '../../../src/data/duckdb'
import { importDataset } from '../../../src/data/import/refresh'
import { SAMPLE_SENTENCE } from '../../../src/intelligence/reports/sample-label'
import { Client as Api } from '../../../support/paying-client'

const ROOT = resolve(import.meta.dir, '../../..')
let dir: string
let api: Api
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'real-corpus-'))
  cpSync(join(ROOT, 'datasets'), dir, { recursive: true })
  // The rows less one (a new version: the same bytes would be the shipped version again), imported as real observations.
  const real = join(dir, '..', `${EVIDENCE.name}-real-${Date.now()}.parquet`)
  const db = await DuckDb.open(1)
  const shipped = `read_parquet('${join(ROOT, 'datasets', EVIDENCE.file)}')`
  await db.exec(`COPY (SELECT * FROM ${shipped} WHERE id <> (SELECT min(id) FROM ${shipped})) TO '${real}' (FORMAT parquet)`)
  expect((await importDataset(db, dir, real, EVIDENCE, { sample: false })).entry.sample).toBe(false)
  db.close()
  rmSync(real)
  api = await Api.start({ DATASETS_DIR: dir })
}, 60_000)
afterAll(() => {
  api?.close()
  rmSync(dir, { recursive: true, force: true })
})

test('a corpus imported as real: no sample flag, no sample sentence, no sample discount', async () => {
  const d = await api.data('china.trends', { keyword: '露营' })
  expect(d.data_quality.sample).toBe(false)
  expect(Object.keys(d)[0]).toBe('sample')
  expect(d.sample).toBe(false)
  expect(d.summary.headline).not.toContain(SAMPLE_SENTENCE.en)
  expect(d.confidence_detail.sample).toBe(1)
  const s = await api.data('china.sentiment', { entity: '露营', lang: 'zh' })
  expect(s.sample).toBe(false)
  expect(s.summary.narrative).not.toContain(SAMPLE_SENTENCE.zh)
})
