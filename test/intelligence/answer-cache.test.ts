/** Intelligence answers are reused per corpus version and per entity index (one per signals version). */
import { expect, test } from 'bun:test'
import { ResultCache } from '../../src/data/result-cache'
import { EntityIndex } from '../../src/intelligence/names/entities'
import { evidenceAnswer, type IntelligenceServices } from '../../src/intelligence/reports/evidence-answer'
import type { EvidenceSources } from '../../src/intelligence/sources'

test('a signals refresh (a new entity index) computes the answer again; the same index reuses it', async () => {
  let index = new EntityIndex({ topics: [], brands: [], creators: [] })
  const sources = {
    mode: 'sample',
    quality: () => ({ sample: true, notice: '', dataset_version: 'evidence-v1' }),
  } as unknown as EvidenceSources
  const s: IntelligenceServices = {
    cache: new ResultCache(),
    ttls: { trends: 3600, sentiment: 3600, kols: 21_600 },
    sources: () => sources,
    entities: () => index,
  }
  let computed = 0
  const ask = () =>
    evidenceAnswer(s, 'trends', 'china.trends', 'topic:camping|all|30', { keyword: 'camping' }, async () => ({
      data: { n: ++computed },
      calls: [],
    })).run()
  expect((await ask()).cacheStatus).toBe('miss')
  expect((await ask()).cacheStatus).toBe('hit')
  index = new EntityIndex({ topics: [], brands: [], creators: [] })
  expect((await ask()).cacheStatus).toBe('miss')
  expect(computed).toBe(2)
})
