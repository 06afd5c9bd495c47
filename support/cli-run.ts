import { resolve } from 'node:path'

const ROOT = resolve(import.meta.dir, '..')

export interface CliRun {
  out: string
  err: string
  code: number
}

/**
 * Runs `bun src/index.ts <args>` from the repository root as a separate process, with NODE_ENV=test and
 * `env` over the test's own environment; resolves with what it printed and its exit code.
 */
export async function runCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const proc = Bun.spawn([process.execPath, resolve(ROOT, 'src/index.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { out, err, code }
}
