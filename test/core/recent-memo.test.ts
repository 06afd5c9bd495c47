import { expect, test } from 'bun:test'
import { recentMemo } from '../../src/core/recent-memo'

test('each key is computed once while held, and the least recently used keys are forgotten first, to stay within the characters', () => {
  const computed: string[] = []
  const memo = recentMemo(6, (key) => {
    computed.push(key)
    return { key }
  })
  const a = memo('aa')
  expect(memo('aa')).toBe(a) // the same object: held, not computed again
  memo('bb')
  memo('aa') // aa is now the most recently used
  memo('cc') // 6 characters: all held
  memo('dd') // over the bound: bb goes, aa stays
  expect(memo('aa')).toBe(a)
  memo('bb')
  expect(computed).toEqual(['aa', 'bb', 'cc', 'dd', 'bb'])
})

test('a key longer than the bound is computed every time and never evicts what is held', () => {
  let calls = 0
  const memo = recentMemo(4, (key) => ({ key, n: ++calls }))
  const short = memo('ab')
  memo('abcdefgh')
  memo('abcdefgh')
  expect(calls).toBe(3)
  expect(memo('ab')).toBe(short)
})
