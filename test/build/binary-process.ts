import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import type { Subprocess } from 'bun'
import { until } from '../../support/until'

export const ROOT = resolve(import.meta.dir, '../..')

let installed: Promise<string> | null = null
let installedDir: string | undefined
const scratch: string[] = []

/** A temp folder removed by `cleanupBinaryTests()`. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `cmi-${prefix}-`))
  scratch.push(dir)
  return dir
}

/**
 * Builds with `scripts/build.ts` (the repository's datasets, or those of `datasets`), then copies the
 * executable alone into a fresh folder and deletes the build output (190 MB each). Returns the copy.
 */
export async function buildAndCopy(datasets?: string): Promise<string> {
  const buildDir = scratchDir('build')
  const out = join(buildDir, 'china-market-intel')
  const args = ['scripts/build.ts', '--outfile', out, ...(datasets ? ['--datasets', datasets] : [])]
  const proc = Bun.spawn([process.execPath, ...args], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' })
  const [code, stdout, stderr] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()])
  if (code !== 0) throw new Error(`scripts/build.ts exited with ${code}:\n${stdout}${stderr}`)
  const bin = join(scratchDir('run'), 'china-market-intel')
  copyFileSync(out, bin)
  rmSync(buildDir, { recursive: true, force: true })
  return bin
}

/**
 * The executable built from the repository, copied alone into its folder; once per test process (bun test
 * runs every file in one process: the files of test/build/ share it), removed when the process exits.
 */
export function installedBinary(): Promise<string> {
  installed ??= buildAndCopy().then((bin) => {
    installedDir = dirname(bin)
    scratch.splice(scratch.indexOf(installedDir), 1) // outlives each file's cleanup
    process.once('exit', () => rmSync(installedDir!, { recursive: true, force: true }))
    return bin
  })
  return installed
}

/** Removes every temp folder of the tests, but the shared executable's (removed at exit). */
export function cleanupBinaryTests(): void {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true })
}

/**
 * Where root may make a private mount namespace, the executable runs with an empty tmpfs mounted over
 * the repository, so it cannot read node_modules or datasets/ from it even by absolute path.
 */
export const HIDES_REPOSITORY = (() => {
  try {
    return Bun.spawnSync(['unshare', '--mount', '--', 'true'], { stdout: 'ignore', stderr: 'ignore' }).exitCode === 0
  } catch {
    return false // no unshare here
  }
})()

/** The command that runs `argv` as an operator's machine would: with the repository hidden when possible. */
export function isolated(argv: string[]): string[] {
  return HIDES_REPOSITORY ? ['unshare', '--mount', '--', 'sh', '-c', 'mount -t tmpfs none "$0" && exec "$@"', ROOT, ...argv] : argv
}

/**
 * Environment of an operator's machine: no NODE_PATH, no node_modules anywhere on the way, nothing
 * inherited from this test process but what is named here.
 */
export function cleanEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: '/usr/bin:/bin',
    HOME: home,
    PORT: '0',
    HOST: '127.0.0.1',
    LEDGER_PATH: ':memory:',
    LOG_LEVEL: 'info',
    NODE_ENV: 'test',
    ...extra,
  }
}

export interface RunningBinary {
  url: string
  proc: Subprocess
  /** Everything it printed so far, stdout and stderr. */
  output(): string
  /** Resolves when the output contains `text`, or rejects when the process exits first. */
  waitFor(text: string): Promise<void>
  /** The first 200 of /ready: it listens before its indexes are built, and /ready is 503 until they are. */
  ready(): Promise<Response>
}

/** Starts the executable (`serve`, or `args`) with `cwd` and `env` and resolves once its banner names the port it listens on. */
export async function serveBinary(
  bin: string,
  cwd: string,
  env: Record<string, string>,
  args: string[] = ['serve'],
): Promise<RunningBinary> {
  const proc = Bun.spawn(isolated([bin, ...args]), { cwd, env, stdout: 'pipe', stderr: 'pipe' })
  let out = ''
  const watchers: { text: string; resolve: () => void }[] = []
  const notify = () => {
    for (const w of watchers.filter((w) => out.includes(w.text))) {
      watchers.splice(watchers.indexOf(w), 1)
      w.resolve()
    }
  }
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder()
    for await (const chunk of stream) {
      out += decoder.decode(chunk, { stream: true })
      notify()
    }
  }
  const drained = Promise.all([collect(proc.stdout as ReadableStream<Uint8Array>), collect(proc.stderr as ReadableStream<Uint8Array>)])
  const waitFor = (text: string) =>
    new Promise<void>((resolve, reject) => {
      if (out.includes(text)) return resolve()
      watchers.push({ text, resolve })
      void drained.then(() => reject(new Error(`exited with ${proc.exitCode} before printing "${text}":\n${out}`)))
    })
  await waitFor(' listening on http://')
  const port = out.match(/ listening on http:\/\/[^\s:]+:(\d+)/)?.[1]
  if (!port) throw new Error(`no port in the banner:\n${out}`)
  const url = `http://127.0.0.1:${port}`
  // `until` takes a failed check for "not yet": a process that died must end the wait itself.
  const ready = () =>
    Promise.race([
      until('/ready to answer 200', async () => {
        const res = await fetch(`${url}/ready`)
        return res.status === 200 ? res : undefined
      }),
      proc.exited.then((code) => {
        throw new Error(`exited with ${code} before it was ready:\n${out}`)
      }),
    ])
  return { url, proc, output: () => out, waitFor, ready }
}

/** Runs the executable to completion (for --help, --version). */
export async function runBinary(bin: string, args: string[], cwd: string, env: Record<string, string>) {
  const proc = Bun.spawn(isolated([bin, ...args]), { cwd, env, stdout: 'pipe', stderr: 'pipe' })
  const [code, stdout, stderr] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()])
  return { code, stdout, stderr }
}
