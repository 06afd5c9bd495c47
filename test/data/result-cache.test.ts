import { expect, test } from 'bun:test'
import { ResultCache, sizeOf } from '../../src/data/result-cache'

test('concurrent misses of one key share a single computation', async () => {
  const cache = new ResultCache()
  let runs = 0
  let release!: () => void
  const gate = new Promise<void>((r) => (release = r))
  const compute = async () => {
    runs++
    await gate
    return 42
  }
  const pending = Array.from({ length: 10 }, () => cache.get('k', compute))
  release()
  const results = await Promise.all(pending)
  expect(runs).toBe(1)
  expect(results.map((r) => r.value)).toEqual(Array(10).fill(42))
  expect(results.filter((r) => !r.hit)).toHaveLength(1)
})

test('a failed computation is not cached', async () => {
  const cache = new ResultCache()
  await expect(cache.get('k', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
  expect(await cache.get('k', async () => 7)).toEqual({ value: 7, hit: false })
})

test('the least recently used entry is evicted beyond the bound of entries', async () => {
  const cache = new ResultCache({ maxEntries: 2 })
  await cache.get('a', async () => 1)
  await cache.get('b', async () => 2)
  await cache.get('a', async () => 0) // touch a: b is now the oldest
  await cache.get('c', async () => 3)
  expect((await cache.get('a', async () => -1)).hit).toBe(true)
  expect((await cache.get('b', async () => -1)).hit).toBe(false)
})

test('a TTL entry is reused until it expires, then computed again; delete forgets a key', async () => {
  let now = 1_000
  const cache = new ResultCache({ maxEntries: 100, now: () => now })
  let computed = 0
  const compute = async () => ++computed
  expect(await cache.get('k', compute, 60_000)).toEqual({ value: 1, hit: false })
  now += 59_999
  expect(await cache.get('k', compute, 60_000)).toEqual({ value: 1, hit: true })
  now += 1
  expect(await cache.get('k', compute, 60_000)).toEqual({ value: 2, hit: false })
  cache.delete('k')
  expect(await cache.get('k', compute, 60_000)).toEqual({ value: 3, hit: false })
  // Without a TTL an entry does not expire.
  expect(await cache.get('v', compute)).toEqual({ value: 4, hit: false })
  now += 10 ** 9
  expect(await cache.get('v', compute)).toEqual({ value: 4, hit: true })
})

test('bounded by bytes: large answers evict the least recently used until the estimate fits; the one just stored stays', async () => {
  const answer = (kb: number) => async () => ({ text: 'x'.repeat(kb * 512) }) // ~kb KB as JSON in UTF-16
  const cache = new ResultCache({ maxBytes: 100 * 1024 })
  await cache.get('a', answer(30))
  await cache.get('b', answer(30))
  await cache.get('c', answer(30))
  expect(cache.size.entries).toBe(3)
  await cache.get('a', answer(30)) // touch a: b is the oldest
  await cache.get('d', answer(30))
  expect(cache.size.bytes).toBeLessThanOrEqual(100 * 1024)
  expect((await cache.get('b', answer(1))).hit).toBe(false)
  expect((await cache.get('a', answer(1))).hit).toBe(true)
  // One answer larger than the whole bound is still served and stored (its request reads it), the rest evicted.
  const big = await cache.get('big', answer(200))
  expect(big.hit).toBe(false)
  expect((await cache.get('big', answer(1))).hit).toBe(true)
  expect(cache.size.entries).toBe(1)
  cache.delete('big')
  expect(cache.size).toEqual({ bytes: 0, entries: 0 })
})

test('sizeOf: JSON text as UTF-16, buffers by length, bigints and cycles counted', () => {
  expect(sizeOf({ a: 'xyz' })).toBe(JSON.stringify({ a: 'xyz' }).length * 2 + 64)
  expect(sizeOf(new Uint8Array(1000))).toBe(1000)
  expect(sizeOf({ n: 10n })).toBeGreaterThan(64)
  const cycle: Record<string, unknown> = {}
  cycle.self = cycle
  expect(sizeOf(cycle)).toBe(1024)
})
