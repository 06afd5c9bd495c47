import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { generatePrivateKey } from 'viem/accounts'
import { CATALOG } from '../../src/catalog'
import { GENERATED, renderDoc } from '../../src/docs/doc-tables'
import { startServer, type StartedServer } from '../../support/server'

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
  let server: StartedServer
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(async () => {
    await server.stop()
  })

  test('runs as written against a started server and prints a paid answer', async () => {
    const code = readme.split('<!-- example:start -->')[1]!.split('```ts\n')[1]!.split('```')[0]!
    const dir = mkdtempSync(join(tmpdir(), 'readme-example-'))
    const file = join(dir, 'example.ts')
    writeFileSync(file, code.replace('http://localhost:3000', server.url))
    // Resolve x402-fetch and viem from this project, as a buyer's project would from its own node_modules.
    const proc = Bun.spawn([process.execPath, file], {
      env: { ...process.env, BUYER_PRIVATE_KEY: generatePrivateKey(), NODE_PATH: join(ROOT, 'node_modules') },
      cwd: ROOT,
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const [out, err, exit] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
    expect(err).toBe('')
    expect(exit).toBe(0)
    expect(out).toContain('success: true')
    expect(out).toContain('destination: "Tokyo"')
    expect(out).toContain('payment_status: "paid"')
  })
})
