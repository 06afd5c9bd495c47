import { expect, test } from 'bun:test'
import { readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'

import { DATASETS } from '../../src/data/contracts'
import { generateSampleWorld } from '../../support/sample-world'

const ROOT = resolve(import.meta.dir, '../..')

test('the generator is deterministic: a fresh run reproduces the shipped datasets byte for byte', async () => {
  const out = await generateSampleWorld('sample-data')
  const shipped = JSON.parse(readFileSync(join(ROOT, 'datasets/manifest.json'), 'utf8'))
  const fresh = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'))
  expect(fresh).toEqual(shipped)
  expect(Object.keys(shipped.datasets).sort()).toEqual(DATASETS.map((d) => d.name).sort())
  for (const name of Object.keys(shipped.datasets)) {
    const file = shipped.datasets[name].file
    const sha = new Bun.CryptoHasher('sha256').update(readFileSync(join(ROOT, 'datasets', file))).digest('hex')
    expect(sha).toBe(shipped.datasets[name].sha256)
  }
}, 60_000)

test('the manifest labels the data as a generated sample', () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'datasets/manifest.json'), 'utf8'))
  expect(manifest.sample).toBe(true)
  expect(manifest.datasets.flights.period).toEqual({ from: '2019-01', to: '2026-10' })
  expect(manifest.datasets.flights.rows).toBeGreaterThan(40_000)
  // Weekly signals: 52+ published weeks, Monday to Sunday.
  expect(manifest.datasets.signal_brands.period).toEqual({ from: '2025-09-22', to: '2026-11-15' })
})

test('the evidence corpus covers the weekly signals period to 2026-11, stays small, and says its creators and brands are fictional', () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'datasets/manifest.json'), 'utf8'))
  const evidence = manifest.datasets.evidence
  expect(evidence.period).toEqual({ from: '2025-09', to: '2026-11' })
  expect(manifest.datasets.signal_topics.period.from.slice(0, 7)).toBe(evidence.period.from)
  expect(evidence.rows).toBeGreaterThan(100_000)
  expect(statSync(join(ROOT, 'datasets', evidence.file)).size).toBeLessThan(10 * 1024 * 1024)
  expect(manifest.note).toMatch(/invented brand and creator names/)
})
