/**
 * The unpaid MCP tool call, the MCP twin of the unpaid 402 (issue 52: its cost stays bounded across the
 * move to the 2.4.0 server package): each checkout's service from source, then BENCH_CONCURRENCY (8)
 * clients POSTing an unpaid `tools/call` for BENCH_SECONDS (10) in each protocol form the service
 * answers (2025: no envelope; 2026-07-28: the `_meta` envelope and its headers), after a warm-up.
 * Rounds alternate the checkouts (this machine's speed drifts). Prints one Markdown table.
 *
 *   npx bun scripts/bench-mcp.ts [checkout ...]     (default: this one; BENCH_ROUNDS 3)
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { freePort } from '../support/ports'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8)
const checkouts = process.argv.length > 2 ? process.argv.slice(2).map((dir) => resolve(dir)) : [resolve(import.meta.dir, '..')]

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
const CALL = { name: 'flights_summary', arguments: { destination: 'Tokyo' } }
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench-mcp', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
}
const FORMS = {
  '2025 (no envelope)': {
    headers: { ...HEADERS, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: CALL }),
  },
  '2026-07-28': {
    headers: { ...HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': CALL.name },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { ...CALL, _meta: ENVELOPE } }),
  },
}

async function start(dir: string) {
  const port = await freePort()
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    LEDGER_PATH: ':memory:',
    LOG_LEVEL: 'error',
    NODE_ENV: 'test',
    WARM_UP_SAMPLE_ANSWERS: 'false',
    RATE_LIMIT_IP_PER_MINUTE: '0',
  }
  const proc = Bun.spawn([process.execPath, resolve(dir, 'src/index.ts'), 'serve'], { cwd: dir, env, stdout: 'ignore', stderr: 'ignore' })
  const url = `http://127.0.0.1:${port}`
  for (let tries = 0; ; tries++) {
    if (tries > 600) throw new Error(`${dir}: not ready after 60 s`)
    const ready = await fetch(`${url}/ready`).then(
      (res) => res.status === 200,
      () => false,
    )
    if (ready) break
    await Bun.sleep(100)
  }
  return { url, proc }
}

/** An unpaid call answered as expected: a tool result with `isError` and the PaymentRequired. */
async function unpaidCall(url: string, form: (typeof FORMS)[keyof typeof FORMS]): Promise<boolean> {
  const res = await fetch(`${url}/mcp`, { method: 'POST', headers: form.headers, body: form.body })
  const text = await res.text()
  return res.status === 200 && text.includes('"isError":true') && text.includes('x402Version')
}

async function load(url: string, form: (typeof FORMS)[keyof typeof FORMS]) {
  for (let i = 0; i < 200; i++) if (!(await unpaidCall(url, form))) throw new Error('the warm-up call was not a payment-required result')
  const latencies: number[] = []
  const until = performance.now() + SECONDS * 1000
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        const t0 = performance.now()
        if (!(await unpaidCall(url, form))) throw new Error('a call was not a payment-required result')
        latencies.push(performance.now() - t0)
      }
    }),
  )
  latencies.sort((a, b) => a - b)
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!
  return { perSecond: latencies.length / SECONDS, p50: at(0.5), p99: at(0.99) }
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024

const rows: string[] = []
for (let round = 1; round <= ROUNDS; round++) {
  for (const dir of checkouts) {
    const { url, proc } = await start(dir)
    try {
      for (const [name, form] of Object.entries(FORMS)) {
        const probe = await fetch(`${url}/mcp`, { method: 'POST', headers: form.headers, body: form.body })
        await probe.arrayBuffer()
        if (probe.status !== 200) {
          rows.push(`| ${round} | ${dir} | ${name} | not served (${probe.status}) | | | |`)
          continue
        }
        const { perSecond, p50, p99 } = await load(url, form)
        rows.push(
          `| ${round} | ${dir} | ${name} | ${perSecond.toFixed(0)} | ${p50.toFixed(2)} | ${p99.toFixed(2)} | ${rssMb(proc.pid).toFixed(0)} |`,
        )
      }
    } finally {
      proc.kill()
      await proc.exited
    }
  }
}
console.log(`Unpaid MCP tools/call (flights_summary), ${CONCURRENCY} clients, ${SECONDS} s each, after 200 warm-up calls\n`)
console.log('| round | checkout | form | calls/s | p50 ms | p99 ms | RSS after, MB |')
console.log('|---:|---|---|---:|---:|---:|---:|')
for (const row of rows) console.log(row)
