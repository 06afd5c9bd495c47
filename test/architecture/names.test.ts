/**
 * Names say what they hold: in src/, support/ and scripts/, no parameter or local variable is one letter,
 * except where a short scope names it (test/architecture/one-letter.ts: a tiny lambda over a collection, a
 * short `for … of`, a counting loop's index, `_` for an unused one). Checked with the TypeScript compiler's
 * own parser.
 */
import { expect, test } from 'bun:test'
import { oneLetterNames, oneLetterNamesIn } from './one-letter'

test('no one-letter parameter or local in src/, support/ and scripts/ outside a short scope', () => {
  expect(oneLetterNamesIn(['src', 'support', 'scripts'])).toEqual([])
})

test('the check finds what it forbids: a one-letter parameter of a function, a method and a long lambda, and one-letter locals', () => {
  const text = [
    'export function f(o: number) { return o }',
    'class C { m(x: string) { return x } }',
    'export const long = [1].map((v) => {',
    '  const first = v',
    '  const b = first',
    '  const third = b',
    '  return third',
    '})',
    'export const short = [1].map((n) => n + 1)',
    'const p = new Map()',
    'for (let i = 0; i < 3; i++) p.set(i, i)',
    'for (const k of p.keys()) p.delete(k)',
    'for (const e of p.entries()) {',
    '  const key = e[0]',
    '  p.delete(key)',
    '  p.set(key, 1)',
    '  p.delete(key)',
    '}',
    'export const tiny = [1].map((v) => { const w = v; return w })',
  ].join('\n')
  expect(oneLetterNames('x.ts', text)).toEqual(['x.ts:1 o', 'x.ts:2 x', 'x.ts:3 v', 'x.ts:5 b', 'x.ts:10 p', 'x.ts:13 e'])
})
