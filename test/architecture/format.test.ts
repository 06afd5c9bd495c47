/**
 * The house style, checked in CI by Biome (biome.json): every source file as the formatter writes it
 * (line width 140), functions of at most 80 lines and files of at most 400 in src/, scripts/ and support/.
 * `npm run format` rewrites the tree; `npm run lint` runs this check and the layer rule.
 */
import { expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dir, '../..')
const BIOME = resolve(ROOT, 'test/parts/node_modules/.bin/biome') // a test part (test/parts/package.json)

function biome(args: string[], cwd = ROOT): { code: number; output: string } {
  const run = Bun.spawnSync([BIOME, ...args, '--colors=off'], { cwd, stdout: 'pipe', stderr: 'pipe' })
  return { code: run.exitCode, output: `${run.stdout.toString()}${run.stderr.toString()}` }
}

test('the tree is formatted and within the size rules (biome ci)', () => {
  const { code, output } = biome(['ci', '--max-diagnostics=50', '.'])
  expect(output.match(/Checked (\d+) files?/)?.[1] ?? output).not.toBe('0')
  if (code !== 0) throw new Error(`biome ci found problems (npm run format fixes the formatting):\n${output}`)
}, 60_000)

test('the check catches what it forbids: an unformatted line, an 81-line function and a 401-line file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'format-'))
  try {
    const config = JSON.parse(readFileSync(join(ROOT, 'biome.json'), 'utf8'))
    config.$schema = undefined
    config.vcs = { enabled: false }
    writeFileSync(join(dir, 'biome.json'), JSON.stringify(config))
    writeFileSync(join(dir, 'package.json'), '{}')
    mkdirSync(join(dir, 'src'))
    writeFileSync(join(dir, 'src/ugly.ts'), 'export const a = {b:1}\n')
    const body = Array.from({ length: 81 }, (_, i) => `  const v${i} = ${i}`).join('\n')
    writeFileSync(join(dir, 'src/long.ts'), `export function long() {\n${body}\n  return v0\n}\n`)
    writeFileSync(join(dir, 'src/big.ts'), Array.from({ length: 401 }, (_, i) => `export const c${i} = ${i}\n`).join(''))
    const { code, output } = biome(['ci', '.'], dir)
    expect(code).not.toBe(0)
    expect(output).toContain('src/ugly.ts format')
    expect(output).toContain('noExcessiveLinesPerFunction')
    expect(output).toMatch(/src\/big\.ts:\d+:\d+ lint\/style\/noExcessiveLinesPerFile/)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}, 60_000)
