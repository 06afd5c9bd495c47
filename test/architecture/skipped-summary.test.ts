/** What `bun test` says of a real-part suite whose program is missing (required-tool.ts, skipped-summary.ts). */
import { expect, test } from 'bun:test'
import { resolve } from 'node:path'

const ROOT = resolve(import.meta.dir, '../..')

async function runFixture(ci: string) {
  const { CI: _, ...env } = process.env
  const proc = Bun.spawn([process.execPath, 'test', './test/fixtures/missing-tool.fixture.ts'], {
    cwd: ROOT,
    env: { ...env, CI: ci },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { output: out + err, code }
}

test('outside CI the summary names each skipped suite, its missing program and why, just before the counts', async () => {
  const { output, code } = await runFixture('')
  expect(code).toBe(0)
  const list = output.indexOf('Not run here, 1 real-part suite(s)')
  expect(list).toBeGreaterThan(0)
  expect(output.slice(list)).toContain(
    'test/fixtures/missing-tool.fixture.ts: frobnicator (not on PATH) (a suite of a program this machine lacks)',
  )
  expect(output.indexOf(' 1 skip')).toBeGreaterThan(list)
  expect(output.indexOf(' 1 pass')).toBeGreaterThan(list)
})

test('in CI a missing program fails the run instead (.ci/run installs every one)', async () => {
  const { output, code } = await runFixture('true')
  expect(code).toBe(1)
  expect(output).toContain('frobnicator (not on PATH) (required in CI)')
})
