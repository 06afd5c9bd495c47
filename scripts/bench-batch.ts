/**
 * x402 `exact` against `batch-settlement` for BENCH_CALLS (100) paid calls by one buyer, `self` mode, on a
 * local chain (support/chain.ts, automining; the escrow from support/batch-chain.ts), route flights.months:
 * exact with SETTLE_MODE=sync and =deferred (`@x402/fetch` and `@x402/evm`'s exact client, as support/clients.ts
 * v2Client), then batch-settlement (`@x402/evm`'s batch client: one deposit, then vouchers; the seller's
 * `payments claim` as its own process; the buyer's refund). For each: transactions and gas of every block
 * mined meanwhile, latency of the whole paid call (402 round trip included) and of the paid request alone,
 * calls/s for one buyer and for BENCH_BUYERS (4) at once. Then the break-even call count and the gas cost
 * per call in USD at the stated assumptions. Prints a Markdown section for BENCHMARKS.md.
 *
 *   bun scripts/bench-batch.ts            (BENCH_CALLS=20 for a quick run)
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { x402Client } from '@x402/core/client'
import { toClientEvmSigner } from '@x402/evm'
import { BatchSettlementEvmScheme } from '@x402/evm/batch-settlement/client'
import { wrapFetchWithPayment } from '@x402/fetch'
import { decodeFunctionData, toFunctionSelector, type Abi, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { routeById } from '../src/catalog'
import { DEV_PAY_TO } from '../src/config/config'
import { atomicToUsd, usdToAtomic } from '../src/core/usdc'
import { BATCH_ESCROW, ERC3009_COLLECTOR, MULTICALL3, compileBatchContracts, installBatchSettlement } from '../support/batch-chain'
import { anvilAccount, stablecoinArtifact, startChain, type Chain } from '../support/chain'
import { runCli } from '../support/cli-run'
import { v2Client } from '../support/clients'
import { keyOf } from '../support/facilitator'
import { startServer, type StartedServer } from '../support/server'

// ASSUMPTIONS, not measurements: what a unit of gas costs on Base. Only L2 execution gas is priced; the
// L1 data fee an OP-stack chain adds per transaction (by its calldata bytes) is left out.
const ASSUMED_GAS_PRICE_GWEI = 0.01
const ASSUMED_ETH_USD = 3_000
/** The price is viable when gas takes at most this share of the revenue. */
const GAS_SHARE_OF_REVENUE = 0.1

const CALLS = Number(process.env.BENCH_CALLS ?? 100)
const BUYERS = Number(process.env.BENCH_BUYERS ?? 4)
/** Seconds between blocks (anvil --block-time), as on Base (2); unset: a block per transaction. */
const BLOCK_SECONDS = process.env.BENCH_BLOCK_SECONDS ? Number(process.env.BENCH_BLOCK_SECONDS) : undefined
const NETWORK = 'eip155:84532'
const ROUTE = '/v1/market-data/flights/months'
const PRICE_USD = routeById.get('flights.months')!.priceUsd
const PRICE = usdToAtomic(PRICE_USD)
/** The smallest deposit the service takes, which the batch client deposits: every call with a fifth spare, at least USD 5. */
const DEPOSIT = [5_000_000n, (BigInt(CALLS) * PRICE * 6n) / 5n].reduce((most, value) => (value > most ? value : most))
const EXTRAPOLATE_TO = [...new Set([CALLS, 100, 1000])].sort((left, right) => left - right)

interface Buyer {
  address: Hex
  pay: (url: string) => Promise<Response>
  /** Milliseconds of each request that carried a payment, to its response's headers. */
  paidMs: number[]
  /** Every request the buyer's client sent (402 probes included). */
  sent: number
  scheme?: BatchSettlementEvmScheme
}

interface Cost {
  tx: number
  gas: bigint
  /** Per contract function: transactions, gas, calldata bytes. */
  byCall: Map<string, { count: number; gas: bigint; bytes: number }>
}

interface Measured {
  name: string
  cost: Cost
  wholeMs: number[]
  paidMs: number[]
  seconds: number
  requestsPerCall: number
  concurrentRate: number
  notes: string[]
}

/** What the scenario's server process runs with: batch-settlement offered beside exact, as the service ships it. */
const serverEnv = (chain: Chain, dir: string, name: string, extra: Record<string, string>) => ({
  PAYMENT_MODE: 'self',
  X402_RPC_URL: chain.rpcUrl,
  X402_SETTLER_PRIVATE_KEY: keyOf(anvilAccount(2)),
  RECONCILE_SECONDS: '0',
  RATE_LIMIT_PAYER_PER_MINUTE: '0',
  LEDGER_PATH: join(dir, `${name}.sqlite`),
  BATCH_NETWORKS: 'base-sepolia',
  BATCH_RECEIVER_AUTHORIZER_KEY: generatePrivateKey(),
  BATCH_WITHDRAW_DELAY_SECONDS: '900',
  // The service's own claim pass stays out of the way: `payments claim` runs it, counted.
  BATCH_CLAIM_SECONDS: '225',
  BATCH_REFUND_IDLE_HOURS: '0',
  BATCH_MIN_DEPOSIT_USD: atomicToUsd(DEPOSIT),
  ...extra,
})

/** Processes to stop if the run is interrupted, and whether it was (a server still starting is stopped once up). */
const running = new Set<{ stop(): Promise<unknown> }>()
let interrupted = false

async function withServer<T>(env: Record<string, string>, work: (server: StartedServer) => Promise<T>): Promise<T> {
  const server = await startServer(env)
  running.add(server)
  try {
    if (interrupted) throw new Error('interrupted')
    return await work(server)
  } finally {
    running.delete(server)
    await server.stop()
  }
}

/** The `fetch` under a payment client: times each request that carries a payment. */
function timingFetch(buyer: Buyer): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init)
    const paid = request.headers.has('payment-signature')
    buyer.sent++
    const startedAt = performance.now()
    const response = await fetch(request)
    if (paid) buyer.paidMs.push(performance.now() - startedAt)
    return response
  }) as typeof fetch
}

async function exactBuyer(chain: Chain): Promise<Buyer> {
  const account = privateKeyToAccount(generatePrivateKey())
  await chain.fund(account.address, 2n * BigInt(CALLS) * PRICE)
  const buyer: Buyer = { address: account.address, pay: () => Promise.reject(new Error('not ready')), paidMs: [], sent: 0 }
  buyer.pay = v2Client(account, timingFetch(buyer), [NETWORK])
  return buyer
}

async function batchBuyer(chain: Chain): Promise<Buyer> {
  const account = privateKeyToAccount(generatePrivateKey())
  await chain.fund(account.address, 2n * DEPOSIT)
  const scheme = new BatchSettlementEvmScheme(toClientEvmSigner(account, chain.client))
  const buyer: Buyer = { address: account.address, pay: () => Promise.reject(new Error('not ready')), paidMs: [], sent: 0, scheme }
  buyer.pay = wrapFetchWithPayment(timingFetch(buyer), new x402Client().register(NETWORK, scheme)) as Buyer['pay']
  return buyer
}

/** `calls` paid calls one after another; each must be answered 200. Milliseconds of each whole call. */
async function payCalls(buyer: Buyer, url: string, calls: number): Promise<{ wholeMs: number[]; seconds: number }> {
  const wholeMs: number[] = []
  const startedAt = performance.now()
  for (let call = 0; call < calls; call++) {
    const callStart = performance.now()
    const response = await buyer.pay(url)
    const body = await response.text()
    if (response.status !== 200) throw new Error(`paid call ${call + 1} answered ${response.status}: ${body.slice(0, 300)}`)
    wholeMs.push(performance.now() - callStart)
  }
  return { wholeMs, seconds: (performance.now() - startedAt) / 1000 }
}

/** Calls/s of BUYERS new buyers paying at once, CALLS/BUYERS calls each (0 when BENCH_BUYERS=0). */
async function concurrentRate(newBuyer: () => Promise<Buyer>, url: string): Promise<number> {
  if (BUYERS <= 0) return 0
  const each = Math.ceil(CALLS / BUYERS)
  const buyers: Buyer[] = []
  for (let index = 0; index < BUYERS; index++) buyers.push(await newBuyer())
  const startedAt = performance.now()
  await Promise.all(buyers.map((buyer) => payCalls(buyer, url, each)))
  return (BUYERS * each) / ((performance.now() - startedAt) / 1000)
}

/** Sum of the Prometheus samples of one metric (any labels). */
const metricSum = (text: string, name: string) =>
  [...text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'gm'))].reduce((sum, match) => sum + Number(match[1]), 0)

/** Waits until the deferred queue is empty and nothing is in flight, and the seller holds at least `sellerAtLeast`. */
async function drained(server: StartedServer, chain: Chain, sellerAtLeast: bigint): Promise<void> {
  for (const deadline = Date.now() + 180_000; Date.now() < deadline; await Bun.sleep(200)) {
    const metrics = await (await fetch(`${server.url}/metrics`)).text()
    const waiting = metricSum(metrics, 'x402_deferred_queue_length') + metricSum(metrics, 'x402_deferred_in_flight')
    if (waiting === 0 && (await chain.balanceOf(DEV_PAY_TO)) >= sellerAtLeast) return
  }
  throw new Error('deferred settlements still pending after 180 s')
}

/** Names a transaction `contract.function` by its address and selector; the escrow's multicall with the functions it calls. */
function callNamer(chain: Chain): (to: Hex | null, input: Hex) => string {
  const contracts = compileBatchContracts()
  const named: [string, Hex, Abi][] = [
    ['escrow', BATCH_ESCROW, contracts.escrow.abi],
    ['collector', ERC3009_COLLECTOR, contracts.collector.abi],
    ['USDC', chain.usdc, stablecoinArtifact('v2/FiatTokenV2_2.sol/FiatTokenV2_2.json').abi],
  ]
  const names = new Map<string, string>()
  for (const [contract, address, abi] of named)
    for (const item of abi)
      if (item.type === 'function') names.set(`${address.toLowerCase()}:${toFunctionSelector(item)}`, `${contract}.${item.name}`)
  const nameOf = (to: Hex | null, input: Hex): string => {
    const target = (to ?? '').toLowerCase()
    if (target === MULTICALL3.toLowerCase()) return 'Multicall3'
    const name = names.get(`${target}:${input.slice(0, 10)}`) ?? `${target}:${input.slice(0, 10)}`
    if (name !== 'escrow.multicall') return name
    const { args } = decodeFunctionData({ abi: contracts.escrow.abi, data: input })
    const inner = ((args?.[0] ?? []) as Hex[]).map((call) => nameOf(to, call).replace('escrow.', ''))
    return `${name}(${inner.join(', ')})`
  }
  return nameOf
}

/** Every transaction of blocks `from`+1 to `to`: count, gas used (receipts), and by contract function. */
async function chainCost(chain: Chain, from: bigint, to: bigint): Promise<Cost> {
  const nameOf = callNamer(chain)
  const cost: Cost = { tx: 0, gas: 0n, byCall: new Map() }
  for (let number = from + 1n; number <= to; number++) {
    const block = await chain.client.getBlock({ blockNumber: number, includeTransactions: true })
    for (const tx of block.transactions) {
      const receipt = await chain.client.getTransactionReceipt({ hash: tx.hash })
      const name = nameOf(tx.to, tx.input)
      const entry = cost.byCall.get(name) ?? { count: 0, gas: 0n, bytes: 0 }
      entry.count++
      entry.gas += receipt.gasUsed
      entry.bytes += (tx.input.length - 2) / 2
      cost.byCall.set(name, entry)
      cost.tx++
      cost.gas += receipt.gasUsed
    }
  }
  return cost
}

const blockNumber = (chain: Chain) => chain.client.getBlockNumber({ cacheTime: 0 })

async function exactScenario(chain: Chain, dir: string, mode: 'sync' | 'deferred'): Promise<Measured> {
  const env = serverEnv(chain, dir, `exact-${mode}`, { SETTLE_MODE: mode, DEFERRED_MAX_UNSETTLED_USD: '1000' })
  return withServer(env, async (server) => {
    const url = server.url + ROUTE
    const buyer = await exactBuyer(chain)
    const sellerBefore = await chain.balanceOf(DEV_PAY_TO)
    const fromBlock = await blockNumber(chain)
    const run = await payCalls(buyer, url, CALLS)
    const paidMs = buyer.paidMs.slice()
    const settleStart = performance.now()
    if (mode === 'deferred') await drained(server, chain, sellerBefore + BigInt(CALLS) * PRICE)
    const settleSeconds = (performance.now() - settleStart) / 1000
    const cost = await chainCost(chain, fromBlock, await blockNumber(chain))
    const gained = (await chain.balanceOf(DEV_PAY_TO)) - sellerBefore
    const notes = [
      `seller paid USD ${atomicToUsd(gained)} (expected ${atomicToUsd(BigInt(CALLS) * PRICE)}); first call ${Math.round(run.wholeMs[0]!)} ms`,
    ]
    if (mode === 'deferred') notes.push(`last settlement on chain ${settleSeconds.toFixed(1)} s after the last answer`)
    const concurrent = await concurrentRate(() => exactBuyer(chain), url)
    if (mode === 'deferred') await drained(server, chain, 0n)
    return { name: `exact, ${mode}`, cost, ...run, paidMs, requestsPerCall: buyer.sent / CALLS, concurrentRate: concurrent, notes }
  })
}

/**
 * Steady state, as for a seller that has sold before: another buyer's channel holds a deposit in the
 * escrow and has been claimed and settled once, so the measured deposit, claim and settle do not pay
 * for the escrow's and the seller's first storage writes (about 17,000 gas each).
 */
async function warmEscrow(chain: Chain, env: Record<string, string>, url: string): Promise<void> {
  await payCalls(await batchBuyer(chain), url, 1)
  await claimPass(env)
}

/** `payments claim` with the server's settings, as its own process: the first line it prints. */
async function claimPass(env: Record<string, string>): Promise<string> {
  const claim = await runCli(['payments', 'claim'], env)
  if (claim.code !== 0) throw new Error(`payments claim exited ${claim.code}:\n${claim.out}\n${claim.err}`)
  return claim.out.trim().split('\n')[0]!
}

async function batchScenario(chain: Chain, dir: string): Promise<Measured> {
  const env = serverEnv(chain, dir, 'batch', {})
  return withServer(env, async (server) => {
    const url = server.url + ROUTE
    await warmEscrow(chain, env, url)
    const buyer = await batchBuyer(chain)
    const buyerFunds = await chain.balanceOf(buyer.address)
    const sellerBefore = await chain.balanceOf(DEV_PAY_TO)
    const fromBlock = await blockNumber(chain)
    const run = await payCalls(buyer, url, CALLS)
    const paidMs = buyer.paidMs.slice()
    const requestsPerCall = buyer.sent / CALLS
    const claimStart = performance.now()
    const claimed = await claimPass(env)
    const claimMs = performance.now() - claimStart
    const refundStart = performance.now()
    const refund = await buyer.scheme!.refund(url)
    if (!refund.success) throw new Error(`refund failed: ${JSON.stringify(refund)}`)
    const refundMs = performance.now() - refundStart
    const cost = await chainCost(chain, fromBlock, await blockNumber(chain))
    const gained = (await chain.balanceOf(DEV_PAY_TO)) - sellerBefore
    const spent = buyerFunds - (await chain.balanceOf(buyer.address))
    const notes = [
      `seller paid USD ${atomicToUsd(gained)} (expected ${atomicToUsd(BigInt(CALLS) * PRICE)}); buyer spent USD ${atomicToUsd(spent)} after the refund of its USD ${atomicToUsd(DEPOSIT)} deposit`,
      `first call (with the deposit) ${Math.round(run.wholeMs[0]!)} ms; \`payments claim\` ${Math.round(claimMs)} ms as a process (${claimed}); refund ${Math.round(refundMs)} ms`,
    ]
    const concurrent = await concurrentRate(() => batchBuyer(chain), url)
    return { name: 'batch-settlement', cost, ...run, paidMs, requestsPerCall, concurrentRate: concurrent, notes }
  })
}

const pct = (values: number[], share: number) =>
  [...values].sort((left, right) => left - right)[Math.min(values.length - 1, Math.ceil(share * values.length) - 1)]!
const grouped = (value: number | bigint) => value.toLocaleString('en')
const ms = (value: number) => (value < 10 ? value.toFixed(1) : String(Math.round(value)))
/** USD to two significant digits, never in exponent form. */
const usd = (value: number) => value.toFixed(Math.max(2, 1 - Math.floor(Math.log10(value))))
const gasUsd = (gas: number) => gas * ASSUMED_GAS_PRICE_GWEI * 1e-9 * ASSUMED_ETH_USD
const shareOfPrice = (costUsd: number) => `${((100 * costUsd) / Number(PRICE_USD)).toFixed(2)}% of USD ${PRICE_USD}`

function table(results: Measured[]): string[] {
  const rows = [
    `| scenario | tx | gas | gas/call | p50 ms | p95 ms | paid request alone p50 ms | p95 ms | calls/s | calls/s, ${BUYERS} buyers |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ]
  for (const result of results) {
    const latencies = [result.wholeMs, result.paidMs].flatMap((times) => [ms(pct(times, 0.5)), ms(pct(times, 0.95))])
    const cells = [result.name, String(result.cost.tx), grouped(result.cost.gas), grouped(Math.round(Number(result.cost.gas) / CALLS))]
    cells.push(...latencies, (CALLS / result.seconds).toFixed(1), BUYERS > 0 ? result.concurrentRate.toFixed(1) : '–')
    rows.push(`| ${cells.join(' | ')} |`)
  }
  return rows
}

function breakdown(results: Measured[]): string[] {
  return results.map((result) => {
    const calls = [...result.cost.byCall].map(
      ([name, entry]) =>
        `${entry.count} × \`${name}\` (${grouped(Number(entry.gas / BigInt(entry.count)))} gas, ${Math.round(entry.bytes / entry.count)} calldata bytes each)`,
    )
    return `- ${result.name}: ${calls.join(', ')}; ${result.requestsPerCall.toFixed(1)} requests a paid call; ${result.notes.join('; ')}.`
  })
}

function derived(exact: Measured, batch: Measured): string[] {
  const exactTxPerCall = exact.cost.tx / CALLS
  const exactGasPerCall = Number(exact.cost.gas) / CALLS
  const fixedGas = Number(batch.cost.gas)
  const byTx = Math.ceil(batch.cost.tx / exactTxPerCall)
  const byGas = Math.ceil(fixedGas / exactGasPerCall)
  const exactUsd = gasUsd(exactGasPerCall)
  const lines = [
    `- Break-even: batch-settlement's ${batch.cost.tx} transactions and ${grouped(fixedGas)} gas (the same for any number of calls on one deposit) against ${exact.name}'s ${exactTxPerCall} transaction(s) and ${grouped(Math.round(exactGasPerCall))} gas a call: fewer or as many transactions from ${byTx} calls, as little gas from ${byGas}; both from **${Math.max(byTx, byGas)} calls**.`,
    `- Assumptions, not measurements: Base L2 gas price ${ASSUMED_GAS_PRICE_GWEI} gwei, ETH at USD ${grouped(ASSUMED_ETH_USD)}, L1 data fee left out; a price is viable when gas is at most ${GAS_SHARE_OF_REVENUE * 100}% of it (USDC's smallest unit: USD 0.000001).`,
    `- ${exact.name}: USD ${usd(exactUsd)} of gas a call at any count (${shareOfPrice(exactUsd)}); viable from USD ${usd(exactUsd / GAS_SHARE_OF_REVENUE)} a call.`,
  ]
  for (const calls of EXTRAPOLATE_TO) {
    const perCall = gasUsd(fixedGas) / calls
    const how = calls === CALLS ? 'measured' : `the measured fixed cost spread over ${calls} calls, one deposit covering them all`
    lines.push(
      `- batch-settlement, ${calls} calls: USD ${usd(perCall)} of gas a call (${shareOfPrice(perCall)}; ${how}); viable from USD ${usd(perCall / GAS_SHARE_OF_REVENUE)} a call.`,
    )
  }
  return lines
}

function report(results: Measured[]): string[] {
  const each = Math.ceil(CALLS / Math.max(BUYERS, 1))
  return [
    `### x402 exact against batch-settlement, ${CALLS} paid calls by one buyer (\`BENCH_CALLS=${CALLS} bun scripts/bench-batch.ts\`${BLOCK_SECONDS ? `, blocks every ${BLOCK_SECONDS} s` : ''}) — ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, Bun ${Bun.version}`,
    '',
    `anvil ${BLOCK_SECONDS ? `mining a block every ${BLOCK_SECONDS} s` : 'automining (a block per transaction)'}, Circle's USDC, \`self\` mode, batch-settlement offered beside exact on every server; ${ROUTE} at USD ${PRICE_USD}, ledger file; steady state: the seller's USDC balance written before, and another buyer's channel deposited, claimed and settled before the batch run. tx and gas: every transaction of the blocks mined from the first call until the money is with the seller (deferred: the queue empty; batch: the deposit, \`payments claim\` and the buyer's refund). Latency: the whole paid call through \`wrapFetchWithPayment\` (402 round trip, signing, paid request, body), and the paid request alone (to its response's headers). calls/s: one buyer, one call after another; then ${BUYERS} new buyers at once, ${each} calls each (not counted in tx and gas).`,
    '',
    ...table(results),
    '',
    ...breakdown(results),
    '',
    ...derived(results[0]!, results.at(-1)!),
  ]
}

const dir = mkdtempSync(join(tmpdir(), 'bench-batch-'))

/** Stops whatever is still running, last started first, and removes the ledgers. */
async function stopAll(): Promise<void> {
  for (const part of [...running].reverse()) {
    running.delete(part)
    await part.stop().catch(() => {})
  }
  rmSync(dir, { recursive: true, force: true })
}
// Stopping the chain and the server makes the run fail where it is; its own `finally` then stops the rest.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    interrupted = true
    void stopAll()
  })

try {
  const chain = await startChain(BLOCK_SECONDS ? { blockTime: BLOCK_SECONDS } : {})
  running.add(chain)
  await installBatchSettlement(chain)
  await chain.fund(DEV_PAY_TO, 1n) // the seller's balance already written, as for a seller that has sold before
  const results = [await exactScenario(chain, dir, 'sync'), await exactScenario(chain, dir, 'deferred'), await batchScenario(chain, dir)]
  console.log(report(results).join('\n'))
} finally {
  await stopAll()
}
