/**
 * What a newcomer's install costs: `npm ci` of this package.json and package-lock.json in an empty
 * folder, whole and with `--omit=dev` (what a seller running from source with Bun installed needs), and
 * of the test parts (test/parts, which `npm test` installs first), timed, with the packages installed
 * and the size of node_modules (file bytes; `du` counts whole blocks, ~40% more). Scripts are not run (`--ignore-scripts`:
 * Bun's own postinstall only picks its binary). Prints a Markdown table for BENCHMARKS.md.
 *
 *   bun scripts/bench-install.ts
 */
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dir, '..')

/** Bytes of every file under `dir` (what `du` would count, without block rounding). */
function sizeOf(dir: string): number {
  let total = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) total += sizeOf(path)
    else if (entry.isFile()) total += statSync(path).size
  }
  return total
}

/** Installed packages: every folder with a package.json directly under a node_modules (scoped ones too). */
function packagesIn(nodeModules: string): number {
  let count = 0
  for (const entry of readdirSync(nodeModules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue
    const dirs = entry.name.startsWith('@') ? readdirSync(join(nodeModules, entry.name)).map((n) => join(entry.name, n)) : [entry.name]
    for (const dir of dirs) {
      count++
      const nested = join(nodeModules, dir, 'node_modules')
      if (statSync(nested, { throwIfNoEntry: false })?.isDirectory()) count += packagesIn(nested)
    }
  }
  return count
}

const rows: string[] = []
for (const [name, from, flags] of [
  ['`npm ci` (the service, development tools)', ROOT, []],
  ['`npm ci --omit=dev` (the service only)', ROOT, ['--omit=dev']],
  ['`npm ci --prefix test/parts` (what `npm test` adds first)', join(ROOT, 'test/parts'), []],
] as const) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-install-'))
  for (const file of ['package.json', 'package-lock.json']) cpSync(join(from, file), join(dir, file))
  const started = performance.now()
  const run = Bun.spawnSync(['npm', 'ci', '--ignore-scripts', '--no-audit', '--no-fund', ...flags], {
    cwd: dir,
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const seconds = (performance.now() - started) / 1000
  if (run.exitCode !== 0) throw new Error(`npm ci failed: ${run.stderr.toString()}`)
  const modules = join(dir, 'node_modules')
  const row = `| ${name} | ${packagesIn(modules)} | ${Math.round(sizeOf(modules) / 1e6)} MB | ${seconds.toFixed(0)} s |`
  console.error(row)
  rows.push(row)
  rmSync(dir, { recursive: true, force: true })
}

console.log(`### Install (\`bun scripts/bench-install.ts\`) — ${cpus().length} cores, npm ${Bun.spawnSync(['npm', '--version']).stdout.toString().trim()}, npm's cache warm

| install | packages | node_modules | time |
|---|---|---|---|
${rows.join('\n')}`)
