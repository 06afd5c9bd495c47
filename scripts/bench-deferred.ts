/**
 * Paid latency with settlement before the answer (SETTLE_MODE=sync) and in the background (deferred), on
 * a local chain with realistic block times (anvil --block-time 2, Circle's USDC), `self` mode. BENCH_BUYERS
 * funded buyers (4) each pay BENCH_REQUESTS (10) requests one after another, first against a sync
 * instance, then against a deferred one. Then it checks that every payment settled exactly once (each
 * authorization used on chain, the seller's balance up by exactly the count times the price, `payments
 * report` with every payment settled and none pending) and that a payer who signs more than it holds is
 * answered at most its cap before paying. Prints a Markdown section for BENCHMARKS.md.
 *
 *   bun scripts/bench-deferred.ts
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { toHex } from 'viem'
import { generatePrivateKey } from 'viem/accounts'
import { routeById } from '../src/catalog'
import { DEV_PAY_TO } from '../src/config/config'
import { atomicToUsd, usdToAtomic } from '../src/core/usdc'
import { anvilAccount, startChain } from '../support/chain'
import { createPayer } from '../support/payer'
import { startServer, type StartedServer } from '../support/server'

const BUYERS = Number(process.env.BENCH_BUYERS ?? 4)
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 10)
const ROUTE = '/v1/market-data/flights/months'
const PRICE_USD = routeById.get('flights.months')!.priceUsd
const PRICE = usdToAtomic(PRICE_USD)
/** Per payer: room for each buyer's requests, so only the failing payer meets it. */
const CAP_ANSWERS = REQUESTS
const CAP_USD = atomicToUsd(BigInt(CAP_ANSWERS) * PRICE)
const ROOT = resolve(import.meta.dir, '..')

const chain = await startChain({ blockTime: 2 })
const dir = mkdtempSync(join(tmpdir(), 'bench-deferred-'))
const keyOf = (index: number) => toHex(anvilAccount(index).getHdKey().privateKey!)
const serverFor = (mode: 'sync' | 'deferred', settler: number) =>
  startServer({
    PAYMENT_MODE: 'self',
    SETTLE_MODE: mode,
    DEFERRED_MAX_UNSETTLED_USD: CAP_USD,
    X402_RPC_URL: chain.rpcUrl,
    X402_SETTLER_PRIVATE_KEY: keyOf(settler),
    RATE_LIMIT_PAYER_PER_MINUTE: '0',
    LEDGER_PATH: join(dir, `${mode}.sqlite`),
    LOG_LEVEL: 'warn',
  })

async function buyers(count: number, atomic: bigint) {
  const list = Array.from({ length: count }, () => createPayer(generatePrivateKey()))
  for (const b of list) await chain.fund(b.address, atomic)
  return list
}

interface Paid {
  ms: number
  status: number
  pending: boolean
  payer: `0x${string}`
  nonce: `0x${string}`
}

/** One paid request with a fresh proof (v1, x402-payment header). */
async function pay(server: StartedServer, payer: ReturnType<typeof createPayer>): Promise<Paid> {
  const nonce = toHex(crypto.getRandomValues(new Uint8Array(32)))
  const proof = await payer.proof({ value: PRICE, nonce })
  const sentAt = performance.now()
  const res = await fetch(server.url + ROUTE, { headers: { 'x402-payment': proof } })
  await res.arrayBuffer()
  const ms = performance.now() - sentAt
  const receipt = res.headers.get('payment-response')
  const pending = receipt ? JSON.parse(Buffer.from(receipt, 'base64').toString()).extensions?.settlement?.status === 'pending' : false
  return { ms, status: res.status, pending, payer: payer.address, nonce }
}

async function run(server: StartedServer) {
  const list = await buyers(BUYERS, 1_000_000n)
  const before = await chain.balanceOf(DEV_PAY_TO)
  const results: Paid[] = []
  const started = performance.now()
  await Promise.all(
    list.map(async (b) => {
      for (let i = 0; i < REQUESTS; i++) results.push(await pay(server, b))
    }),
  )
  return { results, seconds: (performance.now() - started) / 1000, before }
}

async function report(mode: string) {
  const proc = Bun.spawn([process.execPath, join(ROOT, 'src/index.ts'), 'payments', 'report', '--json'], {
    cwd: ROOT,
    env: { ...process.env, LEDGER_PATH: join(dir, `${mode}.sqlite`), LOG_LEVEL: 'silent' },
    stdout: 'pipe',
  })
  return JSON.parse(await new Response(proc.stdout).text()) as { totals: Record<string, number | string>; unsettled: unknown[] }
}

/** Waits (polling what the service reports, not a time) until every payment of `mode` is final. */
async function settledAll(mode: string) {
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; await Bun.sleep(500)) {
    const reported = await report(mode)
    if (reported.unsettled.length === 0) return reported
  }
  throw new Error(`${mode}: payments still pending after 120 s`)
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(p * xs.length) - 1)]!
const ms = (x: number) => `${Math.round(x)} ms`

const out: string[] = []
const rows: string[] = []
const checks: string[] = []
for (const [mode, settler] of [
  ['sync', 4],
  ['deferred', 5],
] as const) {
  const server = await serverFor(mode, settler)
  const { results, seconds, before } = await run(server)
  const final = await settledAll(mode)
  const used = await Promise.all(results.map((r) => chain.authorizationUsed(r.payer, r.nonce)))
  const gained = (await chain.balanceOf(DEV_PAY_TO)) - before
  const times = results.map((r) => r.ms)
  rows.push(
    `| ${mode} | ${results.length} | ${results.filter((r) => r.status === 200).length} | ${ms(pct(times, 0.5))} | ${ms(pct(times, 0.95))} | ${ms(Math.max(...times))} | ${seconds.toFixed(1)} s |`,
  )
  checks.push(
    `- ${mode}: ${used.filter(Boolean).length} of ${results.length} authorizations used on chain; seller's balance up ${Number(gained) / 1e6} USDC (expected ${(Number(PRICE) * results.length) / 1e6}); \`payments report\`: ${final.totals.settled_count} settled, ${final.totals.pending_count} pending, ${final.totals.failed_count} failed.`,
  )
  if (mode === 'deferred') {
    // A payer holding two answers' worth signs twice its cap at once: at most the cap is answered before paying.
    const [short] = await buyers(1, 2n * PRICE)
    const burst = await Promise.all(Array.from({ length: 2 * CAP_ANSWERS }, () => pay(server, short!)))
    const metrics = await (await fetch(`${server.url}/metrics`)).text()
    await settledAll(mode)
    const answered = burst.filter((r) => r.status === 200)
    checks.push(
      `- failing payer (funds for 2, signs ${2 * CAP_ANSWERS} at once, cap USD ${CAP_USD} = ${CAP_ANSWERS} answers): ${answered.filter((r) => r.pending).length} answered before settlement, ${answered.filter((r) => !r.pending).length} answered after settling, ${burst.length - answered.length} refused; its balance now ${Number(await chain.balanceOf(short!.address)) / 1e6} USDC.`,
    )
    const perBlock = /^x402_deferred_settlements_per_block ([\d.]+)/m.exec(metrics)?.[1]
    checks.push(`- /metrics after the run: settlements per block ${perBlock ?? '–'}.`)
  }
  await server.stop()
}
await chain.stop()
rmSync(dir, { recursive: true, force: true })

out.push(
  `### Paid latency, settlement before the answer vs in the background (\`bun scripts/bench-deferred.ts\`) — ${cpus().length} cores, Bun ${Bun.version}\n`,
)
out.push(
  `anvil --block-time 2, \`self\` mode, ${BUYERS} buyers x ${REQUESTS} requests one after another (${ROUTE}, USD ${PRICE_USD}), ledger file.\n`,
)
out.push('| SETTLE_MODE | requests | 200 | p50 | p95 | max | wall |\n|---|---|---|---|---|---|---|')
out.push(...rows, '', ...checks)
console.log(out.join('\n'))
