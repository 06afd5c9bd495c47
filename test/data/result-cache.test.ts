import { expect, test } from 'bun:test'
import { ResultCache } from '../../src/data/result-cache'

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

test('the least recently used entry is evicted beyond the bound', async () => {
  const cache = new ResultCache(2)
  await cache.get('a', async () => 1)
  await cache.get('b', async () => 2)
  await cache.get('a', async () => 0) // touch a: b is now the oldest
  await cache.get('c', async () => 3)
  expect((await cache.get('a', async () => -1)).hit).toBe(true)
  expect((await cache.get('b', async () => -1)).hit).toBe(false)
})

test('a TTL entry is reused until it expires, then computed again; delete forgets a key', async () => {
  let now = 1_000
  const cache = new ResultCache(100, () => now)
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
