/**
 * Exact retrieval at any corpus size (issue 48): in a corpus larger than the shipped one, whose head grew
 * while its long tail kept its very posts (`generate-sample-data.ts --scale 2 --long-tail`: 249,000 posts),
 * every rare brand is answered with exactly the counts the shipped corpus gives it, read whole, and
 * nothing says its counts are estimates. (Until issue 48 a corpus past 200,000 posts was kept as a
 * sample at load: rare brands were answered on estimates, or not at all.)
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { readManifest } from '../../../src/data/import/datasets'
import { keyClasses, type NamedEntity } from '../../../scripts/bench-lib/key-classes'
import { Client } from '../../../support/paying-client'
import { generateSampleWorld } from '../../../support/sample-world'

const ROOT = resolve(import.meta.dir, '../../..')
let dir: string
let shipped: Client
let larger: Client
let rare: NamedEntity[]

beforeAll(async () => {
  dir = await generateSampleWorld('long-tail', ['--scale', '2', '--long-tail', '--cities', '1'])
  rare = (await keyClasses(dir)).entities.filter((e) => e.kind === 'brand' && e.cls === 'rare')
  ;[shipped, larger] = await Promise.all([Client.start(), Client.start({ DATASETS_DIR: dir })])
}, 120_000)
afterAll(() => {
  shipped?.close()
  larger?.close()
  rmSync(dir, { recursive: true, force: true })
})

/** What a trend counted: items, per platform and source kind, and each window's items and engagement. */
const counts = (data: any) => ({
  total: data.evidence.total_items,
  platforms: data.evidence.by_platform,
  kinds: data.evidence.by_source_kind,
  recent: data.momentum_detail.recent,
  prior: data.momentum_detail.prior,
})

test('the larger corpus holds more posts than the sample once kept at load', () => {
  expect(readManifest(dir).datasets.evidence!.rows).toBeGreaterThan(200_000)
  expect(rare.length).toBeGreaterThanOrEqual(100)
})

test('every rare brand is found with the exact counts of the shipped corpus, every post read', async () => {
  for (const { keyword } of rare) {
    const query = { keyword, timeframe: '90d' }
    const [a, b] = [await shipped.paid('china.trends', query), await larger.paid('china.trends', query)]
    expect([keyword, b.status]).toEqual([keyword, a.status])
    if (a.status !== 200) continue
    expect([keyword, counts(b.body.data)]).toEqual([keyword, counts(a.body.data)])
    expect(b.body.data.evidence.sampled).toBeUndefined()
    expect(b.body.data.data_quality.notice).not.toMatch(/estimate|sample of/i)
  }
}, 120_000)
