/**
 * The larger sample world benchmarks run on (`generate-sample-data.ts --scale N`, issue 36), exercised at
 * a reduced scale: twice the posts, ten years of months with twice the cities. What it writes meets every
 * contract, stays labelled as a sample, keeps the destinations' totals of the shipped world, and is served
 * by the dataset store as the shipped world is. The full 100x run is `scripts/bench-scale.ts`.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { join, resolve } from 'node:path'
import { DATASETS } from '../../src/data/contracts'
import { readManifest, type Manifest } from '../../src/data/import/datasets'
import { DuckDb } from '../../src/data/duckdb'
import { DatasetStore } from '../../src/data/store'
import { generateSampleWorld } from '../../support/sample-world'
import { validateFile } from '../../src/data/import/validate'
import { datasetIndexers } from '../../src/composition/runtime'

const ROOT = resolve(import.meta.dir, '../..')
let out: string
let scaled: Manifest
let db: DuckDb

beforeAll(async () => {
  out = await generateSampleWorld('scaled-sample', ['--scale', '2'])
  scaled = readManifest(out)
  db = await DuckDb.open(1)
}, 120_000)
afterAll(() => db?.close())

test('twice the posts, ten years of months, and still a labelled sample', () => {
  const shipped = readManifest(join(ROOT, 'datasets'))
  expect(scaled.sample).toBe(true)
  const ratio = scaled.datasets.evidence!.rows / shipped.datasets.evidence!.rows
  expect(ratio).toBeGreaterThan(1.9)
  expect(ratio).toBeLessThan(2.1)
  expect(scaled.datasets.evidence!.period).toEqual(shipped.datasets.evidence!.period)
  for (const name of ['flights', 'spend']) expect(scaled.datasets[name]!.period).toEqual({ from: '2016-11', to: '2026-10' })
})

test('every file meets its contract', async () => {
  for (const contract of DATASETS) {
    const report = await validateFile(db, join(out, scaled.datasets[contract.name]!.file), contract, new Date('2026-11-27T00:00:00Z'))
    expect({ dataset: contract.name, violations: report.violations }).toEqual({ dataset: contract.name, violations: [] })
    expect(report.rows).toBe(scaled.datasets[contract.name]!.rows)
  }
}, 120_000)

test('the cities are split, the destinations keep the shipped totals, and the store serves it', async () => {
  const total = async (dir: string, month: string) =>
    (
      await db.all<{ n: number }>(
        `SELECT sum(estimated_passengers)::BIGINT AS n FROM read_parquet('${join(dir, readManifest(dir).datasets.flights!.file)}') WHERE month = '${month}' AND destination = 'Tokyo'`,
      )
    )[0]!.n
  expect(Number(await total(out, '2026-10'))).toBe(Number(await total(join(ROOT, 'datasets'), '2026-10')))
  const store = await DatasetStore.open(db, out, datasetIndexers())
  try {
    expect(store.indexStates()).toEqual({ market: 'ok', signals: 'ok', evidence: 'ok' })
    expect(store.current().datasets.evidence!.entry.rows).toBe(scaled.datasets.evidence!.rows)
    // Every post is in the corpus's index, built beside the file.
    const { file } = store.current().evidence.index
    expect(file.posts).toBe(scaled.datasets.evidence!.rows)
    expect(file.path.startsWith(out)).toBe(true)
  } finally {
    store.close()
  }
}, 120_000)
