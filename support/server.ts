import { resolve } from 'node:path'
import type { Subprocess } from 'bun'
import { freePort } from './ports'

const ROOT = resolve(import.meta.dir, '..')

/**
 * What a test's `serve` process runs with unless the test sets otherwise: on loopback, an in-memory
 * ledger, warnings only, and rate limits off (load and concurrency tests pay hundreds of times from one client).
 */
export const SERVE_TEST_ENV = {
  HOST: '127.0.0.1',
  LEDGER_PATH: ':memory:',
  LOG_LEVEL: 'warn',
  NODE_ENV: 'test',
  RATE_LIMIT_IP_PER_MINUTE: '0',
  RATE_LIMIT_PAYER_PER_MINUTE: '0',
}

export interface StartedServer {
  url: string
  port: number
  proc: Subprocess
  output(): string
  stop(): Promise<number>
}

/**
 * Starts the real service as a separate `bun` process on a free port and waits until /health answers,
 * then until /ready does (the indexes build after the service listens), as a load balancer would.
 * Spawns bun directly (not npm start) so that killing the pid stops the server itself. A port taken
 * between choosing and listening (the service exits 3 and says so) is retried on another.
 */
export async function startServer(env: Record<string, string> = {}, args: string[] = ['serve']): Promise<StartedServer> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    const started = await startOn(port, env, args)
    if (started.ok) return started.server
    if (!(started.exitCode === 3 && started.out.includes('Port in use')) || attempt === 5)
      throw new Error(`server exited with ${started.exitCode}:\n${started.out}`)
  }
}

type Start = { ok: true; server: StartedServer } | { ok: false; exitCode: number; out: string }

async function startOn(port: number, env: Record<string, string>, args: string[]): Promise<Start> {
  let out = ''
  const proc = Bun.spawn([process.execPath, resolve(ROOT, 'src/index.ts'), ...args], {
    cwd: ROOT,
    // The new payers' verification budget off too unless a test sets it: many payers are fresh wallets.
    env: {
      ...process.env,
      PORT: String(port),
      ...SERVE_TEST_ENV,
      X402_VERIFY_CONCURRENCY: '10000',
      X402_VERIFY_NEW_PAYERS_PER_SECOND: '10000',
      ...env,
    },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) out += new TextDecoder().decode(chunk)
  }
  const collected = Promise.all([collect(proc.stdout as ReadableStream<Uint8Array>), collect(proc.stderr as ReadableStream<Uint8Array>)])
  const deadline = Date.now() + 30_000
  for (const path of ['/health', '/ready']) {
    for (;;) {
      if (proc.exitCode !== null) {
        await collected
        return { ok: false, exitCode: proc.exitCode, out }
      }
      try {
        const response = await fetch(`http://127.0.0.1:${port}${path}`)
        if (response.ok) break
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        proc.kill()
        throw new Error(`server did not answer ${path} with 200 in 30 s:\n${out}`)
      }
      await Bun.sleep(100)
    }
  }
  const server: StartedServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    proc,
    output: () => out,
    async stop() {
      proc.kill('SIGTERM')
      return proc.exited
    },
  }
  return { ok: true, server }
}
