/**
 * Which source files one buyer's proof runs through, from the socket to the ledger: the figure "files of
 * `src/` a paid request runs through" of docs/development.md, counted by the machine instead of by reading.
 *
 * The service runs in-process (`serve`, development payment mode, a ledger file) under Bun's line
 * coverage and pays one route 2, 5 and 11 times in three runs; a file ran for a paid request when one
 * of its lines ran k times more per paid request from 2 to 5 and from 5 to 11 (work in the background,
 * such as the evidence index warming up or /ready's answers before and after it, grows by chance, not in
 * step with the paid requests). Warm-up requests come first, so
 * first-request work (loading a dataset, compiling a query) is not counted, and each paid request is
 * sent alone, with a proof made beforehand: the 402 that told the client the price is not part of it.
 *
 *   bun scripts/proof-walk.ts [checkout]     # default: this checkout; another one to count an older revision
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const root = resolve(process.argv[2] ?? join(import.meta.dir, '..'))
const ROUTE = '/v1/market-data/spend/months'
const WARM_UP = 5

/** The test that serves and pays: written beside the checkout's sources so that coverage counts them. */
const walkTest = (paid: number, port: number, ledger: string) => `
import { test } from 'bun:test'
import { x402Client, x402HTTPClient } from '@x402/fetch'
import { registerExactEvmScheme } from '@x402/evm/exact/client'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
Object.assign(process.env, { PORT: '${port}', PAYMENT_MODE: 'local', LEDGER_PATH: ${JSON.stringify(ledger)}, LOG_LEVEL: 'error' })
const { serve } = await import(${JSON.stringify(join(root, 'src/cli/serve.ts'))})

test('pays', async () => {
  await serve([])
  // Ready before paying, asked the same number of times in every run (so that each run's request count is the same but for the paid ones).
  let polls = 0
  while ((await fetch('http://127.0.0.1:${port}/ready')).status !== 200) if (++polls < 200) await Bun.sleep(50); else throw new Error('never ready')
  while (++polls < 200) await fetch('http://127.0.0.1:${port}/ready')
  const url = 'http://127.0.0.1:${port}${ROUTE}'
  const client = new x402Client()
  registerExactEvmScheme(client, { signer: privateKeyToAccount(generatePrivateKey()) })
  const http = new x402HTTPClient(client)
  const unpaid = await fetch(url)
  const required = http.getPaymentRequiredResponse((name) => unpaid.headers.get(name), await unpaid.json())
  const proofs = []
  for (let i = 0; i < ${WARM_UP + paid}; i++) proofs.push(http.encodePaymentSignatureHeader(await client.createPaymentPayload(required)))
  for (const headers of proofs) {
    const answer = await fetch(url, { headers })
    if (answer.status !== 200) throw new Error('a paid request answered ' + answer.status + ': ' + (await answer.text()))
    await answer.arrayBuffer()
  }
}, 60_000)
`

/** Line hit counts per source file (lcov `DA:line,count`) after one run paying `paid` times. */
function coverage(paid: number): Map<string, Map<number, number>> {
  const dir = mkdtempSync(join(root, '.tmp-walk-'))
  try {
    const port = 20_000 + Math.floor(Math.random() * 20_000)
    writeFileSync(join(dir, 'walk.test.ts'), walkTest(paid, port, join(dir, 'ledger.sqlite')))
    const run = Bun.spawnSync(
      [process.execPath, 'test', '--coverage', '--coverage-reporter=lcov', `--coverage-dir=${dir}`, join(dir, 'walk.test.ts')],
      { cwd: root, stdout: 'pipe', stderr: 'pipe', env: { ...process.env, NODE_ENV: 'development' } },
    )
    // Bun writes the coverage of a failed run too: a run that did not pay every time counts nothing.
    if (run.exitCode !== 0) throw new Error(`the walk's run failed:\n${run.stderr.toString()}`)
    const lcov = readFileSync(join(dir, 'lcov.info'), 'utf8')
    const files = new Map<string, Map<number, number>>()
    let lines = new Map<number, number>()
    for (const line of lcov.split('\n')) {
      if (line.startsWith('SF:')) files.set(line.slice(3), (lines = new Map()))
      else if (line.startsWith('DA:')) {
        const [at, count] = line.slice(3).split(',').map(Number)
        lines.set(at!, count!)
      }
    }
    return files
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const [two, five, eleven] = [coverage(2), coverage(5), coverage(11)]
const grew = (from: typeof two, to: typeof two, file: string, at: number) => (to.get(file)?.get(at) ?? 0) - (from.get(file)?.get(at) ?? 0)
/** Ran k > 0 times for each of the 3 paid requests from 2 to 5, and for each of the 6 from 5 to 11. */
const inStep = (file: string, at: number) => {
  const first = grew(two, five, file, at)
  return first > 0 && first % 3 === 0 && grew(five, eleven, file, at) === 2 * first
}
const crossed = [...eleven]
  .filter(([file]) => file.startsWith('src/'))
  .filter(([file, lines]) => [...lines.keys()].some((at) => inStep(file, at)))
  .map(([file]) => file)
  .sort()
console.log(crossed.join('\n'))
console.log(`${crossed.length} files of src/ ran for one paid request (${ROUTE}, development payment mode, SQLite ledger file)`)
