import { afterAll, describe, expect, test } from 'bun:test'
import { chmodSync, chownSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cacheDirs } from '../../src/core/cache-dirs'
import { extractBundle, type EmbeddedBundle } from '../../src/embedded/cache'
import { cleanupBinaryTests, scratchDir } from './binary-process'

afterAll(() => cleanupBinaryTests())

/** A bundle whose "embedded" files are ordinary files: extraction reads both kinds through Bun.file. */
function bundle(): EmbeddedBundle {
  const src = scratchDir('embedded')
  const files = { 'manifest.json': '{"datasets":{}}', 'signals/weekly.parquet': 'x'.repeat(200_000) }
  return {
    kind: 'datasets',
    hash: 'ab'.repeat(32),
    files: Object.entries(files).map(([name, content]) => {
      const path = join(src, name.replace('/', '_'))
      writeFileSync(path, content)
      return { name, path, size: content.length }
    }),
  }
}

describe('cacheDirs', () => {
  test('prefers XDG_CACHE_HOME, then ~/.cache, then a per-user folder in the temp dir', () => {
    const dirs = cacheDirs({ XDG_CACHE_HOME: '/xdg', HOME: '/home/op' })
    expect(dirs.slice(0, 2)).toEqual(['/xdg/china-market-intel', '/home/op/.cache/china-market-intel'])
    expect(dirs[2]).toMatch(/china-market-intel-\d+$/)
  })

  test('ignores a relative XDG_CACHE_HOME, as the XDG spec says', () => {
    expect(cacheDirs({ XDG_CACHE_HOME: 'rel', HOME: '/home/op' })[0]).toBe('/home/op/.cache/china-market-intel')
  })
})

describe('extractBundle', () => {
  test('extracts every file, nested ones too, into <kind>-<hash> of the first usable root', async () => {
    const b = bundle()
    const root = join(scratchDir('cache'), 'app')
    const dir = await extractBundle(b, [root])
    expect(dir).toBe(join(root, `datasets-${'ab'.repeat(8)}`))
    for (const f of b.files) expect(readFileSync(join(dir, f.name), 'utf8')).toBe(readFileSync(f.path, 'utf8'))
  })

  test('leaves a complete copy alone and replaces one of the wrong size', async () => {
    const b = bundle()
    const root = join(scratchDir('cache'), 'app')
    const dir = await extractBundle(b, [root])
    const kept = statSync(join(dir, 'manifest.json')).ino
    writeFileSync(join(dir, 'signals/weekly.parquet'), 'truncated')
    await extractBundle(b, [root])
    expect(statSync(join(dir, 'manifest.json')).ino).toBe(kept)
    expect(statSync(join(dir, 'signals/weekly.parquet')).size).toBe(200_000)
  })

  test('two extractions at once both succeed and leave no temp file', async () => {
    const b = bundle()
    const root = join(scratchDir('cache'), 'app')
    const [x, y] = await Promise.all([extractBundle(b, [root]), extractBundle(b, [root])])
    expect(x).toBe(y)
    expect(readdirSync(x, { recursive: true }).map(String).sort()).toEqual(['manifest.json', 'signals', 'signals/weekly.parquet'])
  })

  test('skips a root others can write to (a library is loaded from it) and one that is not a folder', async () => {
    const base = scratchDir('cache')
    const shared = join(base, 'shared')
    mkdirSync(shared)
    chmodSync(shared, 0o777)
    const notAFolder = join(base, 'file')
    writeFileSync(notAFolder, '')
    const good = join(base, 'good')
    expect(await extractBundle(bundle(), [shared, notAFolder, good])).toStartWith(good)
    expect(readdirSync(shared)).toEqual([])
  })

  test.if(process.getuid?.() === 0)('skips a root that belongs to another user', async () => {
    const base = scratchDir('cache')
    const theirs = join(base, 'theirs')
    mkdirSync(theirs, { mode: 0o700 })
    chownSync(theirs, 4321, 4321)
    expect(await extractBundle(bundle(), [theirs, join(base, 'good')])).toStartWith(join(base, 'good'))
  })

  test('fails with each root and its reason when none can be used', async () => {
    const notAFolder = join(scratchDir('cache'), 'file')
    writeFileSync(notAFolder, '')
    const error = await extractBundle(bundle(), [notAFolder]).catch((e: Error) => e)
    expect(String(error)).toContain(`cannot extract the embedded datasets to any cache folder`)
    expect(String(error)).toContain(`${notAFolder}:`)
  })
})
