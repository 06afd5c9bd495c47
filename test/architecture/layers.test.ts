/**
 * The layer rule of src/ (docs/development.md, "Layers"), checked with dependency-cruiser against
 * .dependency-cruiser.cjs: no folder imports a layer above it or a sibling of its layer (so no two
 * folders import each other), no module imports in a cycle, and every folder of src/ has its layer.
 */
import { expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dir, '../..')

interface Violation {
  from: string
  to: string
  rule: { name: string }
  cycle?: { name: string }[]
}

/** dependency-cruiser over `src` of `cwd` with this project's rules. */
function cruise(cwd = ROOT): { violations: Violation[]; modules: number } {
  const cli = resolve(ROOT, 'test/parts/node_modules/dependency-cruiser/bin/dependency-cruise.mjs') // a test part
  const run = Bun.spawnSync(['node', cli, 'src', '--config', resolve(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'json'], {
    cwd,
    stderr: 'pipe',
  })
  if (run.stdout.length === 0) throw new Error(`dependency-cruiser failed: ${run.stderr.toString()}`)
  const out = JSON.parse(run.stdout.toString()) as { summary: { violations: Violation[]; totalCruised: number } }
  return { violations: out.summary.violations, modules: out.summary.totalCruised }
}

test('src/ keeps its layers: nothing imports a layer above its own, and nothing imports in a cycle', () => {
  const { violations, modules } = cruise()
  expect(modules).toBeGreaterThan(150)
  expect(violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.cycle?.map((c) => c.name).join(' -> ') ?? v.to}`)).toEqual([])
}, 60_000)

test('every folder of src/ has its place in the layer order', () => {
  const layers = createRequire(import.meta.url)(resolve(ROOT, '.dependency-cruiser.cjs')).LAYERS as string[][]
  const placed = layers.flat()
  const folders = readdirSync(resolve(ROOT, 'src'), { withFileTypes: true }).filter((e) => e.isDirectory())
  expect(folders.map((e) => e.name).filter((name) => !placed.includes(name))).toEqual([])
  expect(placed.filter((name) => name !== 'entry' && !folders.some((e) => e.name === name))).toEqual([])
  // The entry level holds the entry point alone (and the declarations of embedded files).
  expect(readdirSync(resolve(ROOT, 'src')).filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))).toEqual(['index.ts'])
})

test('the rules catch what they forbid: core importing http/, http/ and mcp/ importing each other, two modules importing each other, a folder entered past its face', () => {
  const dir = mkdtempSync(join(tmpdir(), 'layers-'))
  try {
    const write = (file: string, text: string) => (
      mkdirSync(join(dir, file, '..'), { recursive: true }), writeFileSync(join(dir, file), text)
    )
    write('tsconfig.json', '{}')
    write('src/core/errors.ts', "import { answer } from '../http/answer'\nexport const code = answer\n")
    write('src/http/answer.ts', "import { tool } from '../mcp/tool'\nexport const answer = tool\n")
    write('src/mcp/tool.ts', 'export const tool = 1\n')
    write('src/data/a.ts', "import { b } from './b'\nexport const a = b\n")
    write('src/data/b.ts', "import { a } from './a'\nexport const b = () => a\n")
    write('src/ledger/past-face.ts', "import { b } from '../data/b'\nexport const store = b\n")
    write('src/ledger/lazy.ts', "export const load = () => import('../data/a')\n")
    write('src/signals/faced.ts', "import { lanes } from '../payments'\nexport const ranks = lanes\n")
    write('src/payments/index.ts', "export { lanes } from './lanes'\n")
    write('src/payments/lanes.ts', 'export const lanes = 1\n')
    const rules = cruise(dir).violations.map((v) => `${v.rule.name} ${v.from}`)
    expect(rules).toContain('layer-core src/core/errors.ts')
    expect(rules).toContain('layer-http src/http/answer.ts')
    expect(rules).toContain('no-circular src/data/a.ts')
    // data/ has two modules and no face: entering it by a module's path is refused, a lazy import() is not.
    expect(rules).toContain('face-data src/ledger/past-face.ts')
    expect(rules.filter((rule) => rule.includes('lazy.ts') || rule.includes('faced.ts'))).toEqual([])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}, 60_000)
