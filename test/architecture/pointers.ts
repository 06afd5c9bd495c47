/**
 * File paths named in comments of src/ that name no file: a comment that points a reader to
 * `payments/ledger.ts` after the ledger moved sends them nowhere. A path with a folder is looked for
 * from the repository, from src/, from the commenting file's folder and its parent; a bare file name
 * anywhere in the repository. A path in another repository is written `package:path` and not looked for.
 *
 *   bun test/architecture/pointers.ts   -> `file:line path` of each stale pointer
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { Glob } from 'bun'
import ts from 'typescript'

const ROOT = resolve(import.meta.dir, '../..')
/** A path with a folder or a known extension, as comments write them (`src/ledger/sqlite.ts`, `./settings.ts`). */
const PATH = /(?<![\w@/.:-])((?:\.{1,2}\/)?(?:[\w-]+\/)*[\w.-]+\.(?:ts|mjs|cjs|md|json|sql|lua|conf|yml))\b/g

/** `file:line path` of every path in a comment of `text` that names no file. */
/** Every file name of the repository (not its dependencies), for bare names. */
const NAMES = new Set(
  [...new Glob('{src,test,support,scripts,docs,datasets,deploy,.ci}/**/*').scanSync({ cwd: ROOT, dot: true })]
    .filter((path) => !path.includes('node_modules/'))
    .map((path) => path.split('/').at(-1)!),
)

export function stalePointers(file: string, text: string, exists = (path: string) => existsSync(resolve(ROOT, path))): string[] {
  const found: string[] = []
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ESNext, true)
  const seen = new Set<number>()
  const visit = (node: ts.Node) => {
    for (const range of [
      ...(ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []),
      ...(ts.getTrailingCommentRanges(text, node.getEnd()) ?? []),
    ]) {
      if (seen.has(range.pos)) continue
      seen.add(range.pos)
      const comment = text.slice(range.pos, range.end)
      for (const match of comment.matchAll(PATH)) {
        const path = match[1]!
        if (!path.includes('/') && NAMES.has(path.replace(/^\.\//, ''))) continue
        const folder = dirname(file)
        const candidates = [path, `src/${path}`, `${folder}/${path}`, `${dirname(folder)}/${path}`]
        if (!candidates.some(exists)) {
          const line = source.getLineAndCharacterOfPosition(range.pos + (match.index ?? 0)).line + 1
          found.push(`${file}:${line} ${path}`)
        }
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

export function stalePointersIn(root = 'src'): string[] {
  return [...new Glob(`${root}/**/*.ts`).scanSync(ROOT)]
    .sort()
    .flatMap((file) => stalePointers(file, readFileSync(resolve(ROOT, file), 'utf8')))
}

if (import.meta.main) {
  const found = stalePointersIn()
  console.log(found.join('\n'))
  console.error(`${found.length} stale pointers`)
}
