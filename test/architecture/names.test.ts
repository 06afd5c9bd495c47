/**
 * Names say what they hold: in src/, no parameter is one letter (`_` for an unused one aside) except in a
 * tiny lambda of at most five lines, where the collection it walks names it (`rows.map((r) => ...)`).
 * Checked with the TypeScript compiler's own parser.
 */
import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { Glob } from 'bun'
import ts from 'typescript'

const ROOT = resolve(import.meta.dir, '../..')
const TINY_LAMBDA_LINES = 5

/** `file:line name` of every one-letter parameter outside a tiny lambda. */
function oneLetterParameters(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ESNext, true)
  const found: string[] = []
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node)) {
      const lines = lineOf(node.getEnd()) - lineOf(node.getStart()) + 1
      const lambda = ts.isArrowFunction(node) || ts.isFunctionExpression(node)
      if (!(lambda && lines <= TINY_LAMBDA_LINES)) {
        for (const parameter of node.parameters) {
          const name = parameter.name
          if (ts.isIdentifier(name) && name.text.length === 1 && name.text !== '_')
            found.push(`${file}:${lineOf(name.getStart())} ${name.text}`)
        }
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

test('no one-letter parameter in src/ outside a tiny lambda', () => {
  const files = [...new Glob('src/**/*.ts').scanSync(ROOT)]
  expect(files.length).toBeGreaterThan(150)
  expect(files.flatMap((file) => oneLetterParameters(file, readFileSync(resolve(ROOT, file), 'utf8')))).toEqual([])
})

test('the check finds what it forbids: a one-letter parameter of a function, a method and a long lambda', () => {
  const text = [
    'export function f(o: number) { return o }',
    'class C { m(x: string) { return x } }',
    'export const g = [1].map((v) => {',
    '  const a = v',
    '  const b = a',
    '  const c = b',
    '  return c',
    '})',
    'export const h = [1].map((n) => n + 1)',
  ].join('\n')
  expect(oneLetterParameters('x.ts', text)).toEqual(['x.ts:1 o', 'x.ts:2 x', 'x.ts:3 v'])
})
