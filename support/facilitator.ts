import { resolve } from 'node:path'
import type { Subprocess } from 'bun'
import { toHex } from 'viem'
import type { HDAccount } from 'viem/accounts'
import { freePort } from './ports'

const ROOT = resolve(import.meta.dir, '..')

export interface StartedFacilitator {
  url: string
  port: number
  output(): string
  stop(): Promise<void>
}

/** The private key of an anvil HD account, for processes that take a key in their environment. */
export const keyOf = (account: HDAccount) => toHex(account.getHdKey().privateKey!)

/**
 * Starts `scripts/facilitator.ts` (x402Facilitator of @x402/core with @x402/evm's exact scheme) as its
 * own process against a chain, and waits until GET /supported answers (any answer: with `env` asking
 * for authentication it is a 401). `env` adds FACILITATOR_AUTH_TOKEN or FACILITATOR_JWT_KEYS.
 */
export async function startFacilitator(options: {
  rpcUrl: string
  settler: HDAccount
  port?: number
  env?: Record<string, string>
}): Promise<StartedFacilitator> {
  const port = options.port ?? (await freePort())
  let out = ''
  const proc: Subprocess = Bun.spawn([process.execPath, resolve(ROOT, 'scripts/facilitator.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      FACILITATOR_RPC_URL: options.rpcUrl,
      FACILITATOR_PRIVATE_KEY: keyOf(options.settler),
      ...options.env,
    },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  for (const stream of [proc.stdout, proc.stderr] as ReadableStream<Uint8Array>[]) {
    void (async () => {
      for await (const chunk of stream) out += new TextDecoder().decode(chunk)
    })()
  }
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 30_000
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`facilitator exited with ${proc.exitCode}:\n${out}`)
    try {
      const res = await fetch(`${url}/supported`)
      if (res.ok || (options.env && res.status === 401)) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      proc.kill()
      throw new Error(`facilitator did not answer in 30 s:\n${out}`)
    }
    await Bun.sleep(50)
  }
  return {
    url,
    port,
    output: () => out,
    async stop() {
      proc.kill('SIGTERM')
      await proc.exited
    },
  }
}
