import { expect, test } from 'bun:test'
import { recentMemo } from '../../src/core/recent-memo'

test('each key is computed once while held, and the least recently used key is forgotten first', () => {
  const computed: string[] = []
  const memo = recentMemo(2, (key) => {
    computed.push(key)
    return { key }
  })
  const a = memo('a')
  expect(memo('a')).toBe(a) // the same object: held, not computed again
  memo('b')
  memo('a') // a is now the most recently used
  memo('c') // over the bound: b goes, a stays
  expect(memo('a')).toBe(a)
  memo('b')
  expect(computed).toEqual(['a', 'b', 'c', 'b'])
})
