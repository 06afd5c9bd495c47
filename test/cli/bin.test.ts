/** `npx china-market-intel …` (package.json's bin, bin/china-market-intel.mjs): the CLI from source without npm's banner. */
import { expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import pkg from '../../package.json' with { type: 'json' }
import { SqliteLedger } from '../../src/ledger/sqlite'

const ROOT = resolve(import.meta.dir, '../..')

async function run(command: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawn(command, { cwd: ROOT, env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { out, err, code }
}

test('npx china-market-intel --version prints the version and nothing else', async () => {
  const r = await run(['npx', '--no-install', 'china-market-intel', '--version'])
  expect(r).toMatchObject({ code: 0, out: `${pkg.version}\n` })
})

test('a CSV export to standard output is the CSV alone with npx; npm start puts its banner in front', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bin-test-'))
  try {
    const ledger = join(dir, 'ledger.sqlite')
    new SqliteLedger(ledger).close()
    const env = { LEDGER_PATH: ledger, LOG_LEVEL: 'error' }
    const clean = await run(['npx', '--no-install', 'china-market-intel', 'payments', 'export', '--csv'], env)
    expect(clean.code).toBe(0)
    expect(clean.out).toStartWith('created_at,updated_at,status,')
    expect(clean.out.split('\r\n').filter(Boolean)).toHaveLength(1) // the header: the ledger is empty
    const npm = await run(['npm', 'start', '--', 'payments', 'export', '--csv'], env)
    expect(npm.code).toBe(0)
    expect(npm.out).toContain('> china-market-intel-api@')
    expect(npm.out).toContain('created_at,updated_at,status,')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test("the exit code is the command's: a usage error is 2", async () => {
  const r = await run(['npx', '--no-install', 'china-market-intel', 'payments', 'export', '--bogus'])
  expect(r.code).toBe(2)
  expect(r.err).toContain('Unknown option "--bogus"')
})
