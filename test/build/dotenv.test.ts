/**
 * The executable reads no `.env` from the folder it is started in (built with
 * --no-compile-autoload-dotenv), only a file named by ENV_FILE or --env-file.
 */
import { afterAll, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cleanEnv, cleanupBinaryTests, installedBinary, runBinary, scratchDir, serveBinary, type RunningBinary } from './binary-process'

const PAY_TO = '0x2222222222222222222222222222222222222222'
const running: RunningBinary[] = []
afterAll(async () => {
  for (const r of running.splice(0)) {
    r.proc.kill('SIGTERM')
    await r.proc.exited
  }
  cleanupBinaryTests()
})

/** A working folder with a `.env` (and `.env.local`, which Bun also autoloads) that set what the banner shows. */
function folderWithDotenv(): string {
  const dir = scratchDir('cwd')
  writeFileSync(join(dir, '.env'), `PAY_TO=${PAY_TO}\nPUBLIC_BASE_URL=https://from-dotenv.example\n`)
  writeFileSync(join(dir, '.env.local'), 'PUBLIC_BASE_URL=https://from-dotenv-local.example\n')
  return dir
}

async function banner(cwd: string, extra: Record<string, string> = {}, args?: string[]): Promise<string> {
  const server = await serveBinary(await installedBinary(), cwd, cleanEnv(scratchDir('home'), extra), args)
  running.push(server)
  await server.waitFor('  routes:')
  return server.output()
}

test('started in a folder with a .env, the executable ignores it', async () => {
  const out = await banner(folderWithDotenv())
  expect(out).not.toContain(PAY_TO)
  expect(out).not.toContain('from-dotenv')
  expect(out).toContain('<- DEVELOPMENT address')
  expect(out).not.toContain('env:')
}, 300_000)

test('ENV_FILE names the file to read; the real environment still wins over it', async () => {
  const cwd = folderWithDotenv()
  const out = await banner(cwd, { ENV_FILE: '.env', PUBLIC_BASE_URL: 'https://from-environment.example' })
  expect(out).toContain(`payTo:   ${PAY_TO}`)
  expect(out).toContain('(public https://from-environment.example)')
  expect(out).toContain(`env:     settings read from ${join(cwd, '.env')}`)
}, 300_000)

test('--env-file PATH before the command does the same', async () => {
  const cwd = folderWithDotenv()
  const out = await banner(cwd, {}, ['--env-file', join(cwd, '.env'), 'serve'])
  expect(out).toContain(`payTo:   ${PAY_TO}`)
  expect(out).toContain('(public https://from-dotenv.example)')
}, 300_000)

test('an env file that cannot be read stops start-up with exit 2 naming it', async () => {
  const cwd = scratchDir('cwd')
  const r = await runBinary(await installedBinary(), ['serve'], cwd, cleanEnv(scratchDir('home'), { ENV_FILE: 'missing.env' }))
  expect(r.code).toBe(2)
  expect(r.stderr.trim()).toBe(`Configuration error: ENV_FILE: cannot read ${join(cwd, 'missing.env')}: ENOENT`)
}, 300_000)
