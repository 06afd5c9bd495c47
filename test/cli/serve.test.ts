/** `serve` refuses to start, with one clear line, on a datasets folder that lacks a dataset of this release and on a port in use. */
import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createPayer } from '../../support/payer'
import { freePort } from '../../support/ports'
import { rawGet } from '../../support/raw-http'
import { SERVE_TEST_ENV } from '../../support/server'
import { untilReady } from '../../support/until'
import { DuckDb } from '../../src/data/duckdb'

const ROOT = resolve(import.meta.dir, '../..')
const MANIFEST = JSON.parse(readFileSync(join(ROOT, 'datasets/manifest.json'), 'utf8'))

/** Starts `serve` on a datasets folder and waits for it to exit: its code and what it printed on stderr. */
async function serveOn(dir: string) {
  const proc = Bun.spawn([process.execPath, join(ROOT, 'src/index.ts'), 'serve'], {
    env: { ...process.env, DATASETS_DIR: dir, PORT: '0', LEDGER_PATH: ':memory:', NODE_ENV: 'test' },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()])
  return { code, stderr }
}

/** A copy of the shipped datasets with only the named ones listed in its manifest. */
function datasetsCopy(prefix: string, names: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  const datasets = Object.fromEntries(names.map((n) => [n, MANIFEST.datasets[n]]))
  for (const d of Object.values(datasets) as { file: string }[]) copyFileSync(join(ROOT, 'datasets', d.file), join(dir, d.file))
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...MANIFEST, datasets }))
  return dir
}

test('a datasets folder without the signals datasets: exit 2 naming the missing dataset and the folder, no stack trace', async () => {
  const dir = datasetsCopy('old-datasets-', ['flights', 'spend'])
  const { code, stderr } = await serveOn(dir)
  expect(code).toBe(2)
  expect(stderr).toContain('Datasets error: manifest.json lists no "signal_creators" dataset')
  expect(stderr).toContain(`DATASETS_DIR=${dir}`)
  expect(stderr).not.toContain('    at ')
})

test('a dataset file that is not Parquet: exit 2 naming the file and pointing at data validate', async () => {
  const dir = datasetsCopy('bad-datasets-', Object.keys(MANIFEST.datasets))
  writeFileSync(join(dir, MANIFEST.datasets.spend.file), 'month,country\n2026-10,Japan\n')
  const { code, stderr } = await serveOn(dir)
  expect(code).toBe(2)
  expect(stderr).toContain(`${join(dir, MANIFEST.datasets.spend.file)} cannot be read as the spend dataset`)
  expect(stderr).toContain('data validate')
  expect(stderr).not.toContain('    at ')
})

test('datasets that load but cannot be indexed (an evidence corpus without rows): exit 2 once the background build fails, no stack trace', async () => {
  const dir = datasetsCopy('empty-corpus-', Object.keys(MANIFEST.datasets))
  const evidence = join(dir, MANIFEST.datasets.evidence.file)
  const db = await DuckDb.open(1)
  await db.exec(
    `COPY (SELECT * FROM read_parquet('${join(ROOT, 'datasets', MANIFEST.datasets.evidence.file)}') LIMIT 0) TO '${evidence}' (FORMAT parquet)`,
  )
  db.close()
  const { code, stderr } = await serveOn(dir)
  expect(code).toBe(2)
  expect(stderr).toContain(' listening on http://') // the folder loaded: it listened while indexing
  expect(stderr).toContain(
    `Datasets error: cannot index the datasets: ${MANIFEST.datasets.evidence.file} has no rows (DATASETS_DIR=${dir})`,
  )
  expect(stderr).not.toContain('    at ')
})

// ---------------------------------------------------------------------------------------------------
// Listening: a port in use is an error, never a silent share; REUSE_PORT shares only on one ledger file.

interface Instance {
  proc: Bun.Subprocess<'ignore', 'pipe', 'pipe'>
  stderr(): string
  /** Resolves 'listening' once the banner is printed, or the exit code if the process exits first. */
  started: Promise<'listening' | number>
  /** Resolves once the process has exited and everything it printed is read. */
  finished: Promise<number>
}

const instances: Instance[] = []
afterAll(async () => {
  for (const i of instances.splice(0)) {
    i.proc.kill('SIGTERM')
    await i.proc.exited
  }
})

function start(env: Record<string, string>): Instance {
  const proc = Bun.spawn([process.execPath, join(ROOT, 'src/index.ts'), 'serve'], {
    cwd: ROOT,
    env: { ...process.env, ...SERVE_TEST_ENV, ...env },
    stdin: 'ignore',
    stdout: 'ignore',
    stderr: 'pipe',
  }) as unknown as Instance['proc']
  let err = ''
  let listening!: () => void
  const banner = new Promise<'listening'>((resolve) => (listening = () => resolve('listening')))
  const read = (async () => {
    for await (const chunk of proc.stderr) {
      err += new TextDecoder().decode(chunk)
      if (err.includes(' listening on http://')) listening()
    }
  })()
  const instance: Instance = {
    proc,
    stderr: () => err,
    started: Promise.race([banner, proc.exited]),
    finished: read.then(() => proc.exited),
  }
  instances.push(instance)
  return instance
}

/** Exit code and stderr of an instance expected to refuse to start. */
async function refused(env: Record<string, string>) {
  const i = start(env)
  const code = await i.finished
  return { code, stderr: i.stderr() }
}

/** The per-process part of a request id this service minted (src/http/requests/request-id.ts). */
const instanceOf = (requestId: string | undefined) => requestId?.slice(4, 20)

function expectOneCleanLine(stderr: string, address: string) {
  const lines = stderr.trim().split('\n')
  expect(lines).toHaveLength(1)
  expect(lines[0]).toContain(address)
  expect(lines[0]!.length).toBeLessThan(400)
  expect(stderr).not.toContain('    at ')
}

/** `serve` with `env` is refused the PORT it names: exit 3, one clean line naming 127.0.0.1:PORT; its stderr. */
async function expectPortRefused(env: Record<string, string>): Promise<string> {
  const { code, stderr } = await refused(env)
  expect(code).toBe(3)
  expectOneCleanLine(stderr, `127.0.0.1:${env.PORT}`)
  return stderr
}

describe('a port that is already in use', () => {
  test('held by another program (a node:net listener): exit 3, one line naming host:port and what to do', async () => {
    const holder = createServer()
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r))
    const port = (holder.address() as AddressInfo).port
    try {
      expect(await expectPortRefused({ PORT: String(port) })).toContain('set PORT to a free port')
    } finally {
      holder.close()
    }
  })

  test('held by a listener that allows sharing (SO_REUSEPORT, as Elysia sets it by default): refused all the same', async () => {
    const holder = Bun.serve({ port: 0, hostname: '127.0.0.1', reusePort: true, fetch: () => new Response('other program') })
    try {
      await expectPortRefused({ PORT: String(holder.port) })
    } finally {
      await holder.stop(true)
    }
  })

  test('held by a running instance: the second exits 3, and the first keeps the port to itself', async () => {
    const port = await freePort()
    const first = start({ PORT: String(port) })
    expect(await first.started).toBe('listening')
    await expectPortRefused({ PORT: String(port) })
    const answers = await Promise.all(Array.from({ length: 20 }, () => rawGet(port, '/health')))
    expect(new Set(answers.map((a) => instanceOf(a.headers['x-request-id']))).size).toBe(1)
  })
})

describe('REUSE_PORT=true', () => {
  const PROOF_ROUTE = '/v1/market-data/flights/summary?destination=Tokyo'

  test('two instances on one ledger file share the port; a proof sent to both at once is served once, the rest get the stored result', async () => {
    const port = await freePort()
    const ledger = join(mkdtempSync(join(tmpdir(), 'cmi-reuse-')), 'ledger.sqlite')
    const env = { PORT: String(port), REUSE_PORT: 'true', LEDGER_PATH: ledger }
    const [a, b] = [start(env), start(env)]
    expect(await a.started).toBe('listening')
    expect(await b.started).toBe('listening')
    const proof = await createPayer().proof({ value: 100_000n })
    // Each on its own connection: the kernel spreads connections over both listeners.
    const answers = await Promise.all(Array.from({ length: 24 }, () => rawGet(port, PROOF_ROUTE, { 'x402-payment': proof })))
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200))
    expect(new Set(answers.map((r) => instanceOf(r.headers['x-request-id']))).size).toBe(2)
    expect(answers.filter((r) => r.headers['x-payment-replay'] !== 'stored-result')).toHaveLength(1)
    for (const i of [a, b]) {
      i.proc.kill('SIGTERM')
      expect(await i.proc.exited).toBe(0)
    }
    const db = new Database(ledger, { readonly: true })
    try {
      expect(db.query('SELECT state FROM payments').all()).toEqual([{ state: 'served' }])
      expect(db.query(`SELECT count(*) AS n FROM payment_events WHERE event = 'served'`).get()).toEqual({ n: 1 })
      expect(db.query('SELECT count(*) AS n FROM listeners').get()).toEqual({ n: 0 }) // each removed itself on exit
    } finally {
      db.close()
    }
  })

  test('an instance on another ledger file is refused the port (exit 3), naming its LEDGER_PATH', async () => {
    const port = await freePort()
    const dir = mkdtempSync(join(tmpdir(), 'cmi-reuse-'))
    const first = start({ PORT: String(port), REUSE_PORT: 'true', LEDGER_PATH: join(dir, 'a.sqlite') })
    expect(await first.started).toBe('listening')
    const stderr = await expectPortRefused({ PORT: String(port), REUSE_PORT: 'true', LEDGER_PATH: join(dir, 'b.sqlite') })
    expect(stderr).toContain(`LEDGER_PATH=${join(dir, 'b.sqlite')}`)
  })

  test('a port held by a sharing listener that is not an instance on this ledger is refused (exit 3)', async () => {
    const holder = Bun.serve({ port: 0, hostname: '127.0.0.1', reusePort: true, fetch: () => new Response('other program') })
    try {
      const ledger = join(mkdtempSync(join(tmpdir(), 'cmi-reuse-')), 'ledger.sqlite')
      await expectPortRefused({ PORT: String(holder.port), REUSE_PORT: 'true', LEDGER_PATH: ledger })
    } finally {
      await holder.stop(true)
    }
  })

  test('with LEDGER_PATH=:memory: it is a configuration error naming REUSE_PORT (exit 2)', async () => {
    const { code, stderr } = await refused({ PORT: String(await freePort()), REUSE_PORT: 'true' })
    expect(code).toBe(2)
    expect(stderr.trim()).toStartWith('Configuration error: REUSE_PORT: needs a ledger file')
  })
})

// What `npm start` runs (bun src/index.ts serve): the secp256k1 binding loads from node_modules.
test.if(process.platform === 'linux' && process.arch === 'x64')(
  'from source, the banner and /ready say libsecp256k1 recovers payment signers',
  async () => {
    const port = await freePort()
    const i = start({ PORT: String(port) })
    expect(await i.started).toBe('listening')
    expect(i.stderr()).toContain('\n  ecdsa:   libsecp256k1 (native) recovers payment signers\n')
    const ready = await untilReady(`http://127.0.0.1:${port}`)
    expect(ready.data.checks.signature_recovery).toEqual({ implementation: 'libsecp256k1 (native)' })
  },
)
