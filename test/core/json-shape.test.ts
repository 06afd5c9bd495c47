import { expect, test } from 'bun:test'
import { JsonShape, jsonShape } from '../../src/core/json-shape'

const TRICKY = '{"a":"{[:\\"]}\\\\","b":[1,{"c":"\\\\\\"x:["}],"d":{"e":[[[]]]}}'

/** The shape by walking the parsed value: what the scan must agree with. */
function walked(value: unknown): { depth: number; keys: number } {
  if (value === null || typeof value !== 'object') return { depth: 0, keys: 0 }
  const children = Object.values(value).map(walked)
  return {
    depth: 1 + Math.max(0, ...children.map((c) => c.depth)),
    keys: (Array.isArray(value) ? 0 : Object.keys(value).length) + children.reduce((sum, c) => sum + c.keys, 0),
  }
}
const EXPECTED = walked(JSON.parse(TRICKY))

test('the scan skips strings: brackets, colons, escaped quotes and escaped backslashes inside them count for nothing', () => {
  expect(EXPECTED).toEqual({ depth: 5, keys: 5 })
  expect(jsonShape(TRICKY)).toEqual(EXPECTED)
})

test('fed in two pieces at every split point, including inside a string and right after a backslash, the shape is the same', () => {
  for (let at = 0; at <= TRICKY.length; at++) {
    const shape = new JsonShape().scan(TRICKY.slice(0, at)).scan(TRICKY.slice(at))
    expect([at, shape.deepest, shape.keys]).toEqual([at, EXPECTED.depth, EXPECTED.keys])
  }
})

test('over() names the first limit passed, and nothing within them', () => {
  const shape = new JsonShape().scan(`{"k":${'['.repeat(70)}${']'.repeat(70)}}`)
  expect(shape.over({ depth: 64, keys: 10 })).toBe('JSON nested deeper than 64 levels')
  expect(new JsonShape().scan('{"a":1,"b":2,"c":3}').over({ depth: 64, keys: 2 })).toBe('JSON with more than 2 keys')
  expect(new JsonShape().scan('{"a":1,"b":2}').over({ depth: 1, keys: 2 })).toBeUndefined()
})
