/**
 * Rooms a reader can take in (docs/development.md, "Folders"): no folder of src/ holds more than 16 files
 * directly, and no file name is used twice in src/ except `index.ts`, a folder's face: a name says which
 * file it is without its folder.
 */
import { expect, test } from 'bun:test'
import { resolve } from 'node:path'
import { Glob } from 'bun'

const ROOT = resolve(import.meta.dir, '../..')
const MAX_FILES = 16

const sourceFiles = () => [...new Glob('src/**/*.ts').scanSync(ROOT)].filter((path) => !path.endsWith('.d.ts'))

/** Folders holding more than MAX_FILES files directly, with their count. */
function crowded(paths: string[]): string[] {
  const counts = new Map<string, number>()
  for (const path of paths) {
    const folder = path.slice(0, path.lastIndexOf('/'))
    counts.set(folder, (counts.get(folder) ?? 0) + 1)
  }
  return [...counts].filter(([, count]) => count > MAX_FILES).map(([folder, count]) => `${folder}: ${count}`)
}

/** File names used by more than one file, `index.ts` aside. */
function repeatedNames(paths: string[]): string[] {
  const byName = new Map<string, string[]>()
  for (const path of paths) {
    const name = path.slice(path.lastIndexOf('/') + 1)
    byName.set(name, [...(byName.get(name) ?? []), path])
  }
  return [...byName]
    .filter(([name, all]) => name !== 'index.ts' && all.length > 1)
    .map(([name, all]) => `${name}: ${all.sort().join(', ')}`)
}

test(`no folder of src/ holds more than ${MAX_FILES} files directly`, () => {
  expect(crowded(sourceFiles())).toEqual([])
})

test('no file name of src/ is used twice, except a folder face (index.ts)', () => {
  expect(repeatedNames(sourceFiles())).toEqual([])
})

test('the checks find what they forbid', () => {
  const flat = Array.from({ length: MAX_FILES + 1 }, (_, index) => `src/flat/file-${index}.ts`)
  expect(crowded([...flat, 'src/other/one.ts'])).toEqual([`src/flat: ${MAX_FILES + 1}`])
  expect(repeatedNames(['src/http/page.ts', 'src/console/page.ts', 'src/a/index.ts', 'src/b/index.ts'])).toEqual([
    'page.ts: src/console/page.ts, src/http/page.ts',
  ])
})
