/** `serve` refuses to start on a datasets folder that lacks a dataset of this release, with one clear line. */
import { expect, test } from 'bun:test'
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dir, '../..')
const MANIFEST = JSON.parse(readFileSync(join(ROOT, 'datasets/manifest.json'), 'utf8'))

/** Starts `serve` on a datasets folder and waits for it to exit: its code and what it printed on stderr. */
async function serveOn(dir: string) {
  const proc = Bun.spawn([process.execPath, join(ROOT, 'src/index.ts'), 'serve'], {
    env: { ...process.env, DATASETS_DIR: dir, PORT: '0', LEDGER_PATH: ':memory:', NODE_ENV: 'test' },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()])
  return { code, stderr }
}

/** A copy of the shipped datasets with only the named ones listed in its manifest. */
function datasetsCopy(prefix: string, names: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  const datasets = Object.fromEntries(names.map((n) => [n, MANIFEST.datasets[n]]))
  for (const d of Object.values(datasets) as { file: string }[]) copyFileSync(join(ROOT, 'datasets', d.file), join(dir, d.file))
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...MANIFEST, datasets }))
  return dir
}

test('a datasets folder without the signals datasets: exit 2 naming the missing dataset and the folder, no stack trace', async () => {
  const dir = datasetsCopy('old-datasets-', ['flights', 'spend'])
  const { code, stderr } = await serveOn(dir)
  expect(code).toBe(2)
  expect(stderr).toContain('Datasets error: manifest.json lists no "signal_creators" dataset')
  expect(stderr).toContain(`DATASETS_DIR=${dir}`)
  expect(stderr).not.toContain('    at ')
})

test('a dataset file that is not Parquet: exit 2 naming the file and pointing at data validate', async () => {
  const dir = datasetsCopy('bad-datasets-', Object.keys(MANIFEST.datasets))
  writeFileSync(join(dir, MANIFEST.datasets.spend.file), 'month,country\n2026-10,Japan\n')
  const { code, stderr } = await serveOn(dir)
  expect(code).toBe(2)
  expect(stderr).toContain(`${join(dir, MANIFEST.datasets.spend.file)} cannot be read as the spend dataset`)
  expect(stderr).toContain('data validate')
  expect(stderr).not.toContain('    at ')
})
