// What finding the client address, its rate-limit key and the answer's format costs per request, in
// nanoseconds per call: the per-request work of src/http/requests/client-address.ts, ip-address.ts and accept.ts.
// Run it at two commits (a git worktree) to compare implementations; the exports it calls are the same.
// Each case runs ROUNDS rounds of N calls after a warm-up; the median round is reported.
// Env: BENCH_ROUNDS (7), BENCH_CALLS (200000). Usage: bun scripts/bench-client-address.ts
import { prefersHtml, tableFormat } from '../src/http/accept'
import { ProxyTrust } from '../src/core/addresses/proxy-trust'
import { clientAddress } from '../src/http/requests/client-address'
import { limitKeyOf } from '../src/core/addresses/ip-address'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7)
const CALLS = Number(process.env.BENCH_CALLS ?? 200_000)
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'

const xffTrust = ProxyTrust.parse('loopback,private')
const fwdTrust = ProxyTrust.parse('loopback,private', 'forwarded')
const nginx = new Headers({ 'x-forwarded-for': '198.51.100.7' })
const chain = new Headers({ 'x-forwarded-for': '198.51.100.7, 10.0.0.2, 10.0.0.3' })
const forwarded = new Headers({ forwarded: 'for=198.51.100.7;proto=https, for="[fd00::2]:443"' })

let sink = 0
const CASES: [string, () => unknown][] = [
  ['client: untrusted peer (no proxy in front)', () => clientAddress('203.0.113.9', nginx, xffTrust)],
  ['client: nginx in front, X-Forwarded-For 1 hop', () => clientAddress('127.0.0.1', nginx, xffTrust)],
  ['client: 3 hops, X-Forwarded-For', () => clientAddress('127.0.0.1', chain, xffTrust)],
  ['client: 2 hops, Forwarded (RFC 7239)', () => clientAddress('::1', forwarded, fwdTrust)],
  ['limit key: IPv4', () => limitKeyOf('198.51.100.7', 64)],
  ['limit key: IPv6 /64', () => limitKeyOf('2001:db8:1:2:3:4:5:6', 64)],
  ['format: agent (application/json)', () => prefersHtml('application/json') || tableFormat('application/json')],
  ['format: browser navigation -> HTML', () => prefersHtml(BROWSER)],
  ['format: Accept text/csv -> CSV', () => tableFormat('text/csv, application/json;q=0.5')],
]

for (const [name, call] of CASES) {
  for (let i = 0; i < CALLS; i++) sink += call() ? 1 : 0 // warm-up: the JIT settles
  const rounds: number[] = []
  for (let r = 0; r < ROUNDS; r++) {
    const started = Bun.nanoseconds()
    for (let i = 0; i < CALLS; i++) sink += call() ? 1 : 0
    rounds.push((Bun.nanoseconds() - started) / CALLS)
  }
  rounds.sort((a, b) => a - b)
  console.log(`${name.padEnd(48)} ${rounds[Math.floor(ROUNDS / 2)]!.toFixed(0).padStart(6)} ns/call`)
}
if (sink < 0) console.log(sink)
