/**
 * A throwaway PostgreSQL cluster for tests: Debian's server binaries, its own temp dir (data, socket,
 * log), trust auth on 127.0.0.1 and a free port. `stop()` is an immediate shutdown, the database going
 * away; `start()` brings it back on the same port with the same data.
 *
 * fsync and full page writes are off (nothing here must survive a crash of the machine, only of
 * postgres). synchronous_commit stays on: with it off, commits acknowledged in the last ~200 ms
 * (wal_writer_delay) are lost by an immediate stop, as a table created just before stop() was.
 *
 * initdb and postgres refuse to run as root: as root (here and in CI) they run as nobody:nogroup via
 * setpriv, in a temp dir owned by nobody; as any other user they run as that user.
 */
import {
  appendFileSync,
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { freePort } from './ports'

const compareVersions = (left: string, right: string) => {
  const pa = left.split('.').map(Number)
  const pb = right.split('.').map(Number)
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const difference = (pa[i] ?? 0) - (pb[i] ?? 0)
    if (difference) return difference
  }
  return 0
}

let cachedBin: string | null | undefined
/**
 * The directory holding initdb, pg_ctl and postgres: Debian's /usr/lib/postgresql/<major>/bin, the
 * highest version there; only when there is none, the directory of pg_ctl on PATH. Null when neither.
 */
export function postgresBin(): string | null {
  if (cachedBin !== undefined) return cachedBin
  const has = (dir: string) => ['initdb', 'pg_ctl', 'postgres'].every((b) => existsSync(join(dir, b)))
  const root = '/usr/lib/postgresql'
  let versions: string[] = []
  try {
    versions = readdirSync(root).filter((v) => /^\d+(\.\d+)*$/.test(v) && has(join(root, v, 'bin')))
  } catch {
    // no Debian packages
  }
  versions.sort(compareVersions)
  const newest = versions.at(-1)
  if (newest) return (cachedBin = join(root, newest, 'bin'))
  const onPath = Bun.which('pg_ctl')
  const dir = onPath ? dirname(realpathSync(onPath)) : null
  return (cachedBin = dir && has(dir) ? dir : null)
}

/** Why a PostgreSQL test cannot run here, or null: for requireTool. */
export const postgresMissing = (): string | null =>
  postgresBin() ? null : 'PostgreSQL server binaries (initdb, pg_ctl) not found: apt-get install postgresql'

export interface StartedPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres (trust auth, no password) */
  url: string
  port: number
  /** the temp dir: data/, sock/, log */
  dir: string
  /** Immediate shutdown (no checkpoint), keeping the data: the database going away. A no-op when stopped. */
  stop(): Promise<void>
  /** Starts again after stop(), on the same port with the same data. A no-op when running. */
  start(): Promise<void>
  /** stop() and remove the dir. */
  destroy(): Promise<void>
  /** The server's log so far. */
  log(): string
  /** Runs SQL with psql (unaligned, tuples only) and returns its output; throws on an SQL error. */
  psql(sql: string): Promise<string>
}

/** uid and gid the server runs as: nobody:nogroup when we are root, else null (run as ourselves). */
let cachedIds: { uid: number; gid: number } | null | undefined
function serverIds(): { uid: number; gid: number } | null {
  if (cachedIds !== undefined) return cachedIds
  if (process.getuid?.() !== 0) return (cachedIds = null)
  const out = (cmd: string[]) => {
    const r = Bun.spawnSync(cmd, { stdout: 'pipe', stderr: 'pipe' })
    if (r.exitCode !== 0) throw new Error(`${cmd.join(' ')} failed: ${r.stderr.toString()}`)
    return r.stdout.toString().trim()
  }
  const uid = Number(out(['id', '-u', 'nobody']))
  const gid = Number(out(['getent', 'group', 'nogroup']).split(':')[2])
  if (!Number.isInteger(uid) || !Number.isInteger(gid)) throw new Error('cannot look up nobody:nogroup')
  return (cachedIds = { uid, gid })
}

const asServerUser = (cmd: string[]) => (serverIds() ? ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups', ...cmd] : cmd)

/** The environment without libpq's PG* variables (a developer's PGDATA/PGPORT must not leak in). */
const cleanEnv = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PG'))) as Record<string, string>

/**
 * Clusters still running, stopped synchronously when the process emits 'exit' (a script, or a test
 * run that ends with process.exit). `bun test` (1.4) ends without emitting it, hence also watchdog() below.
 */
const running = new Map<string, string[]>()
let exitHookInstalled = false
function installExitHook() {
  if (exitHookInstalled) return
  exitHookInstalled = true
  process.on('exit', () => {
    for (const [dir, stopCmd] of running) {
      try {
        Bun.spawnSync(stopCmd, { cwd: dir, env: cleanEnv(), stdout: 'ignore', stderr: 'ignore' })
        rmSync(dir, { recursive: true, force: true })
      } catch {
        // best effort
      }
    }
  })
}

/**
 * A process that outlives us for one purpose: it reads a pipe from us until EOF, which comes when we
 * close it (destroy()) or when we are gone however we ended (bun test's exit, a crash, SIGKILL); then it
 * stops the cluster (immediate) and removes its dir. Idempotent with destroy() and the exit hook. In
 * its own session (setsid), so a Ctrl-C to the test run's process group does not skip the clean-up.
 */
function watchdog(dir: string, stopCmd: string[]) {
  const proc = Bun.spawn(
    ['setsid', 'sh', '-c', 'cat >/dev/null; "$@" >/dev/null 2>&1; rm -rf "$PG_TEST_DIR"', 'pg-test-watchdog', ...stopCmd],
    {
      cwd: dir,
      env: { ...cleanEnv(), PG_TEST_DIR: dir },
      stdin: 'pipe',
      stdout: 'ignore',
      stderr: 'ignore',
    },
  )
  proc.unref()
  return { release: () => void proc.stdin.end() }
}

/** Where one cluster keeps its things, all under its temp dir. */
interface ClusterFiles {
  dir: string
  data: string
  sock: string
  logFile: string
}

/** A fresh temp dir with sock/ in it, private to the user the server runs as (data/ is initdb's to make). */
function makeClusterDir(): ClusterFiles {
  const dir = mkdtempSync(join(tmpdir(), 'pg-test-'))
  const files = { dir, data: join(dir, 'data'), sock: join(dir, 'sock'), logFile: join(dir, 'log') }
  mkdirSync(files.sock)
  chmodSync(dir, 0o700)
  chmodSync(files.sock, 0o700)
  const ids = serverIds()
  if (ids) for (const d of [dir, files.sock]) chownSync(d, ids.uid, ids.gid)
  return files
}

/** The server's log so far ('' before it has one). */
function readLogFile(logFile: string): string {
  try {
    return readFileSync(logFile, 'utf8')
  } catch {
    return ''
  }
}

/** Runs a server binary as the server user; a failure throws with its output and the server's log. */
async function runAsServer(files: ClusterFiles, cmd: string[], what: string): Promise<string> {
  const proc = Bun.spawn(asServerUser(cmd), { cwd: files.dir, env: cleanEnv(), stdout: 'pipe', stderr: 'pipe' })
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  if (code !== 0) throw new Error(`${what} failed (exit ${code}):\n${stdout}${stderr}${readLogFile(files.logFile)}`)
  return stdout
}

/** initdb into data/; on failure nothing is left behind. */
async function initCluster(bin: string, files: ClusterFiles): Promise<void> {
  try {
    await runAsServer(
      files,
      [join(bin, 'initdb'), '-D', files.data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync'],
      'initdb',
    )
  } catch (error) {
    rmSync(files.dir, { recursive: true, force: true })
    throw error
  }
}

/** In postgresql.conf, not `pg_ctl -o`: a later start() reads the same settings (port included). */
function configure(files: ClusterFiles, port: number): void {
  appendFileSync(
    join(files.data, 'postgresql.conf'),
    `\n# support/postgres.ts\nlisten_addresses = '127.0.0.1'\nport = ${port}\nunix_socket_directories = '${files.sock}'\n` +
      `fsync = off\nfull_page_writes = off\nmax_connections = 200\n`,
  )
}

/**
 * Configures a free port and starts the cluster on it, returning the port. The port was free a moment
 * ago; if something took it since, try another (the last `port =` wins), three times at most.
 */
async function startOnFreePort(files: ClusterFiles, start: () => Promise<void>, guard: { release(): void }): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    configure(files, port)
    const logBefore = readLogFile(files.logFile).length
    try {
      await start()
      return port
    } catch (error) {
      const taken = /could not bind|Address already in use/i.test(readLogFile(files.logFile).slice(logBefore))
      if (!taken || attempt === 3) {
        guard.release() // stops whatever pg_ctl left running, removes the dir
        throw error
      }
    }
  }
}

/** Runs SQL with psql over TCP (unaligned, tuples only, stop at the first error) and returns its output. */
async function runPsql(psqlBin: string, port: number, sql: string): Promise<string> {
  if (!existsSync(psqlBin)) throw new Error(`${psqlBin} not found (Debian's postgresql-client package)`)
  const args = ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres']
  const proc = Bun.spawn([psqlBin, ...args, '-c', sql], { env: cleanEnv(), stdout: 'pipe', stderr: 'pipe' })
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  if (code !== 0) throw new Error(`psql failed (exit ${code}): ${stderr}`)
  return stdout.trim()
}

/** Creates, initialises and starts a throwaway cluster (see the top of this file) on a free port. */
export async function startPostgres(): Promise<StartedPostgres> {
  const bin = postgresBin()
  if (!bin) throw new Error(postgresMissing()!)
  const files = makeClusterDir()
  const { dir, data, logFile } = files
  const pgCtl = join(bin, 'pg_ctl')
  const stopCmd = asServerUser([pgCtl, '-D', data, '-m', 'immediate', '-w', 'stop'])
  await initCluster(bin, files)

  installExitHook()
  const guard = watchdog(dir, stopCmd)
  let isRunning = false
  const start = async () => {
    if (isRunning) return
    await runAsServer(files, [pgCtl, '-D', data, '-l', logFile, '-w', '-t', '30', 'start'], 'pg_ctl start')
    isRunning = true
    running.set(dir, stopCmd)
  }
  const stop = async () => {
    if (!isRunning) return
    await runAsServer(files, [pgCtl, '-D', data, '-m', 'immediate', '-w', 'stop'], 'pg_ctl stop')
    isRunning = false
    running.delete(dir)
  }
  const port = await startOnFreePort(files, start, guard)

  const psqlBin = join(bin, 'psql')
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dir,
    start,
    stop,
    async destroy() {
      try {
        await stop()
      } finally {
        running.delete(dir)
        rmSync(dir, { recursive: true, force: true })
        guard.release()
      }
    },
    log: () => readLogFile(logFile),
    psql: (sql: string) => runPsql(psqlBin, port, sql),
  }
}
