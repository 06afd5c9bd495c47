/** The executable on a port in use: one line and exit 3, as from source (test/cli/serve.test.ts has the cases). */
import { afterAll, expect, test } from 'bun:test'
import { createServer, type AddressInfo } from 'node:net'
import { cleanEnv, cleanupBinaryTests, installedBinary, runBinary, scratchDir } from './binary-process'

afterAll(() => cleanupBinaryTests())

test('a port held by another program: exit 3 with one line naming host:port, no framework source, no stack trace', async () => {
  const holder = createServer()
  await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r))
  const port = (holder.address() as AddressInfo).port
  try {
    const r = await runBinary(await installedBinary(), ['serve'], scratchDir('cwd'), cleanEnv(scratchDir('home'), { PORT: String(port) }))
    expect(r.code).toBe(3)
    const lines = r.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toStartWith(`Port in use: 127.0.0.1:${port} is already taken by another process`)
    expect(r.stderr).not.toContain('    at ')
  } finally {
    holder.close()
  }
}, 300_000)
