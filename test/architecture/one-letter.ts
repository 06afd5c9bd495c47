/**
 * One-letter names in TypeScript source, found with the compiler's own parser: parameters and local
 * variables, except where the short scope names them (checked over src/, support/ and scripts/ by names.test.ts):
 * - a parameter, or a variable declared, inside a tiny lambda of at most five lines (`rows.map((r) => ...)`);
 * - the variable of a `for … of` / `for … in` loop of at most five lines;
 * - the counter of a counting `for` loop (`for (let i = 0; …)`);
 * - `_` for an unused one.
 *
 *   bun test/architecture/one-letter.ts [folder or file …]   (default: src support scripts) -> `file:line name` lines
 */
import { readFileSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { Glob } from 'bun'
import ts from 'typescript'

const ROOT = resolve(import.meta.dir, '../..')
export const TINY_LINES = 5

/** `file:line name` of every one-letter parameter or local variable the rule forbids in `text`. */
export function oneLetterNames(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ESNext, true)
  const found: string[] = []
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1
  const lines = (node: ts.Node) => lineOf(node.getEnd()) - lineOf(node.getStart()) + 1
  const isTinyLambda = (node: ts.Node) => (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) && lines(node) <= TINY_LINES
  const report = (name: ts.BindingName) => {
    if (ts.isIdentifier(name) && name.text.length === 1 && name.text !== '_') found.push(`${file}:${lineOf(name.getStart())} ${name.text}`)
  }
  const visit = (node: ts.Node, inTinyLambda: boolean) => {
    const tiny = inTinyLambda || isTinyLambda(node)
    if (ts.isFunctionLike(node) && !tiny) for (const parameter of node.parameters) report(parameter.name)
    if (ts.isVariableDeclaration(node) && !tiny && !allowedLoopVariable(node)) report(node.name)
    ts.forEachChild(node, (child) => visit(child, tiny))
  }
  const allowedLoopVariable = (node: ts.VariableDeclaration) => {
    const loop = ts.isVariableDeclarationList(node.parent) ? node.parent.parent : undefined
    if (!loop) return false
    if (ts.isForStatement(loop)) return true
    return (ts.isForOfStatement(loop) || ts.isForInStatement(loop)) && lines(loop) <= TINY_LINES
  }
  visit(source, false)
  return found
}

/** Every forbidden one-letter name in the TypeScript files under `paths` (relative to the repository). */
export function oneLetterNamesIn(paths: readonly string[]): string[] {
  const files = paths.flatMap((path) =>
    statSync(resolve(ROOT, path)).isDirectory() ? [...new Glob(`${path}/**/*.ts`).scanSync(ROOT)].sort() : [path],
  )
  return files.flatMap((file) => oneLetterNames(file, readFileSync(resolve(ROOT, file), 'utf8')))
}

if (import.meta.main) {
  const found = oneLetterNamesIn(process.argv.length > 2 ? process.argv.slice(2) : ['src', 'support', 'scripts'])
  console.log(found.join('\n'))
  console.error(`${found.length} one-letter names`)
}
