import { afterAll, expect, test } from 'bun:test'
import { resolve } from 'node:path'
import { createPayer } from '../../../support/payer'
import { freePort } from '../../../support/ports'
import { SERVE_TEST_ENV } from '../../../support/server'
import { untilReady } from '../../../support/until'

// The service where libsecp256k1's binding cannot load (a preload makes every require of it throw): it
// starts all the same, says in its banner and on /ready that @noble/curves runs and why, and takes payments.
const ROOT = resolve(import.meta.dir, '../../..')
const procs: Bun.Subprocess[] = []
afterAll(async () => {
  for (const p of procs.splice(0)) {
    p.kill('SIGTERM')
    await p.exited
  }
})

test('without the native binding: @noble/curves recovers signers, the banner and /ready say why, a paid request is served', async () => {
  const port = await freePort()
  const proc = Bun.spawn(
    [process.execPath, '--preload', resolve(ROOT, 'support/no-native-secp256k1.ts'), resolve(ROOT, 'src/index.ts'), 'serve'],
    {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), ...SERVE_TEST_ENV },
      stdin: 'ignore',
      stdout: 'ignore',
      stderr: 'pipe',
    },
  )
  procs.push(proc)
  let err = ''
  let bannerOut!: () => void
  const banner = new Promise<void>((r) => (bannerOut = r))
  void (async () => {
    for await (const chunk of proc.stderr) {
      err += new TextDecoder().decode(chunk)
      if (err.includes('  routes:  ')) bannerOut() // the banner is out, past the line under test
    }
    bannerOut()
  })()
  await banner
  expect(err).toContain(' listening on http://')
  expect(err).toContain('\n  ecdsa:   @noble/curves (JavaScript) recovers payment signers (libsecp256k1 did not load: ')
  expect(err).toContain('simulated: no binding here')

  const ready = await untilReady(`http://127.0.0.1:${port}`)
  expect(ready.data.checks.signature_recovery).toEqual({
    implementation: '@noble/curves (JavaScript)',
    native_error: expect.stringContaining('simulated: no binding here'),
  })

  const url = `http://127.0.0.1:${port}/v1/market-data/flights/summary?destination=Tokyo`
  const paid = await fetch(url, { headers: { 'x402-payment': await createPayer().proof({ value: 100_000n }) } })
  expect(paid.status).toBe(200)
  expect((await paid.json()).pricing.payment_status).toBe('paid')
}, 60_000)
