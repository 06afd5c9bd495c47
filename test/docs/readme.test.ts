import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { CATALOG } from '../../src/catalog'
import { GENERATED, renderDoc } from '../../src/docs/doc-tables'

const ROOT = resolve(import.meta.dir, '../..')
const readme = await Bun.file(join(ROOT, 'README.md')).text()
const docs = Object.fromEntries(
  await Promise.all(Object.keys(GENERATED).map(async (f) => [f, await Bun.file(join(ROOT, f)).text()] as const)),
)
const routesDoc = docs['docs/routes.md']!

describe('README', () => {
  test('opens with the two set-up commands: run the service, run the tests', () => {
    const firstBlock = readme.split('```sh\n')[1]!.split('```')[0]!
    expect(firstBlock).toContain('npm install && npm start')
    expect(firstBlock).toContain('npm ci && npm test')
  })

  test('is a short front page: the documentation it links to exists', async () => {
    expect(readme.split('\n').length).toBeLessThan(120)
    const links = [...readme.matchAll(/\]\((docs\/[^)#]+)/g)].map((m) => m[1]!)
    expect(links.length).toBeGreaterThanOrEqual(8)
    for (const link of links) expect(await Bun.file(join(ROOT, link)).exists()).toBe(true)
  })

  test('.ci/run runs exactly the README test command', async () => {
    const ci = await Bun.file(join(ROOT, '.ci/run')).text()
    expect(ci).toContain('npm ci && npm test')
  })
})

describe('the generated tables in docs/', () => {
  test('the route, configuration, error and rule tables match what the catalog, ENV, ERROR_CODES and rules generate', () => {
    for (const [file, text] of Object.entries(docs)) expect({ file, text: renderDoc(file, text) }).toEqual({ file, text })
  })

  test('the route details carry the parameter bounds and enum values of the catalog', () => {
    expect(routesDoc).toContain('`limit`: Number of months (1-120, default 12).')
    expect(routesDoc).toContain('One of: `total_cards`')
    expect(routesDoc).toContain('fewer than 1,000 passengers')
  })

  test('the route table lists every catalog route with its price', () => {
    for (const r of CATALOG) expect(routesDoc).toContain(`| \`${r.path}\` | ${r.priceUsd} |`)
  })
})

describe('the README payment example', () => {
  test('is examples/pay.mjs, line for line (test/examples runs that file against the server)', () => {
    const code = readme.split('<!-- example:start -->')[1]!.split('```js\n')[1]!.split('```')[0]!
    const lines = code.split('\n').filter((line) => line.trim() !== '')
    expect(lines.length).toBeGreaterThan(5)
    // Every line of the snippet, in order, is a line of the file: the README cannot drift from what runs.
    const file = readFileSync(join(ROOT, 'examples/pay.mjs'), 'utf8').split('\n')
    let at = 0
    for (const line of lines) {
      const found = file.indexOf(line, at)
      expect({ line, found: found >= 0 }).toEqual({ line, found: true })
      at = found + 1
    }
  })
})
