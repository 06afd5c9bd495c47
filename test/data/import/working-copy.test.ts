/**
 * From source, `data import` and `data rollback` as docs/data.md writes them (no --dir, no DATASETS_DIR)
 * change a working copy of the shipped sample (`var/datasets`), never the `datasets/` folder git tracks;
 * the service and `doctor` read the same copy. A newer shipped sample replaces a copy nobody changed;
 * one the data team changed is kept, with a warning.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SPEND } from '../../../src/data/contracts'
import { readManifest } from '../../../src/data/import/datasets'
import { DuckDb } from '../../../src/data/duckdb'
import { workingCopy } from '../../../src/data/import/working-copy'
import { deliver, ROOT, sha256, SHIPPED } from './deliveries'

let db: DuckDb
beforeAll(async () => {
  db = await DuckDb.open(1)
})
afterAll(() => db.close())

/** `china-market-intel …` from source, run in `cwd` (where `var/` is), with neither DATASETS_DIR nor DATA_SOURCE_URL set. */
function fromSource(cwd: string, ...args: string[]) {
  const { DATASETS_DIR: _dir, DATA_SOURCE_URL: _url, ...env } = process.env
  const run = Bun.spawnSync([process.execPath, join(ROOT, 'src/index.ts'), ...args], {
    cwd,
    env: { ...env, NODE_ENV: 'test' },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  return { code: run.exitCode, out: run.stdout.toString(), err: run.stderr.toString() }
}

test('data import and rollback without --dir change var/datasets, a copy made on first use; the tracked sample stays as it is', async () => {
  const tracked = sha256(join(SHIPPED, 'manifest.json'))
  const cwd = mkdtempSync(join(tmpdir(), 'checkout-'))
  const delivery = join(mkdtempSync(join(tmpdir(), 'incoming-')), 'spend-doubled.parquet')
  await deliver(db, delivery, SPEND, 'SELECT * REPLACE (total_cards * 2 AS total_cards) FROM src')

  const imported = fromSource(cwd, 'data', 'import', delivery)
  expect([imported.code, imported.err]).toEqual([0, ''])
  const copy = join(cwd, 'var', 'datasets')
  const after = readManifest(copy)
  expect(after.datasets.spend!.version).not.toBe(readManifest(SHIPPED).datasets.spend!.version)
  expect(sha256(join(SHIPPED, 'manifest.json'))).toBe(tracked)
  // `data list` reads the copy; serve and doctor take the same folder (src/index.ts).
  expect(fromSource(cwd, 'data', 'list').out).toContain(after.datasets.spend!.version)

  const rolled = fromSource(cwd, 'data', 'rollback', 'spend')
  expect(rolled.code).toBe(0)
  expect(readManifest(copy).datasets.spend!.version).toBe(readManifest(SHIPPED).datasets.spend!.version)
  expect(sha256(join(SHIPPED, 'manifest.json'))).toBe(tracked)
}, 60_000)

test('a newer shipped sample replaces a copy nobody changed, and leaves one the data team changed, saying so', async () => {
  const shipped = mkdtempSync(join(tmpdir(), 'shipped-'))
  cpSync(SHIPPED, shipped, { recursive: true, filter: (path) => !path.endsWith('.sqlite') })
  const root = mkdtempSync(join(tmpdir(), 'var-'))
  const warnings: string[] = []
  const warn = (message: string) => warnings.push(message)
  const untouched = workingCopy(shipped, join(root, 'untouched'), warn)
  const changed = workingCopy(shipped, join(root, 'changed'), warn)
  // A folder the team made by hand (no record of a copy) is theirs, whatever ships.
  const handmade = join(root, 'handmade')
  cpSync(shipped, handmade, { recursive: true })
  expect(readFileSync(join(untouched, 'manifest.json'), 'utf8')).toBe(readFileSync(join(shipped, 'manifest.json'), 'utf8'))
  // The team changes one copy (an import rewrites its manifest); then a newer sample ships (git pull).
  const teams = readManifest(changed)
  writeFileSync(join(changed, 'manifest.json'), JSON.stringify({ ...teams, history: { spend: [] } }))
  const newer = { ...readManifest(shipped), note: 'the sample of 2026-12' }
  writeFileSync(join(shipped, 'manifest.json'), JSON.stringify(newer))

  workingCopy(shipped, join(root, 'untouched'), warn)
  workingCopy(shipped, join(root, 'changed'), warn)
  workingCopy(shipped, handmade, warn)
  expect(readManifest(handmade).note).not.toBe('the sample of 2026-12')
  expect(readManifest(untouched)).toMatchObject({ note: 'the sample of 2026-12' })
  expect(readManifest(changed)).toMatchObject({ history: { spend: [] } })
  expect(warnings).toHaveLength(1)
  expect(warnings[0]).toContain(`${changed} holds data changed since it was copied from the shipped sample`)
  // Asked again with nothing new: the replaced copy is left as it is, without a word.
  workingCopy(shipped, join(root, 'untouched'), warn)
  expect(warnings).toHaveLength(1)
})
