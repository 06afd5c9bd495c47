/**
 * A hostile search provider in a process of its own, so that building and sending its answers is not on
 * the event loop of the service under test (test/intelligence/providers/provider-stall.test.ts,
 * scripts/bench-provider-stall.ts). `POST /scenario/<name>` picks what later calls answer; the calls get
 * six prepared answers in turn, with distinct ids (a lane's native and web items are not
 * merged away). Prints its port. Run: `bun support/hostile-provider.ts`.
 */
import { LIVE_RESULTS_PER_CALL, PROVIDER_LIMITS } from '../src/catalog/evidence-rules'

const DAY = 86_400_000
const ZH = [
  '周末露营，强烈推荐，体验超棒。',
  '价格太贵了，踩雷了！',
  '天幕和帐篷怎么选？',
  '#精致露营 ',
  '带娃去山里，风景绝绝子；',
  '记录一下露营攻略，装备清单在下面。',
  'Glamping was worth every penny. ',
]
const EN = [
  'Glamping was worth every penny, highly recommend. ',
  'The tent leaked and the price was a rip-off; ',
  'Gear list below. ',
  '#camping ',
]

/** Text about 露营 of exactly `chars` characters, varied enough to keep the segmenter and the lexicon busy. */
function text(chars: number, seed: number, phrases = ZH): string {
  let out = '露营'
  for (let i = seed; out.length < chars; i++) out += phrases[(i * 7 + (i >> 3)) % phrases.length]
  return out.slice(0, chars)
}

/** A search answer of `count` results by three authors (thin: every lane asks the web too), spread over 50 days. */
function answer(prefix: string, count: number, title: number, body: (index: number) => string): Uint8Array<ArrayBuffer> {
  const now = Date.now()
  const results = Array.from({ length: count }, (_, index) => ({
    id: `${prefix}-${index}`,
    url: `https://example.org/${prefix}/${index}`,
    title: text(title, index + 3),
    text: body(index),
    published_at: new Date(now - (index % 50) * DAY - 60_000).toISOString(),
    author: `creator_${index % 3}`,
    author_followers: 20_000,
    likes: 100 + index,
    comments: 8,
    shares: 4,
  }))
  return new TextEncoder().encode(JSON.stringify({ results }))
}

const { titleChars, textChars, searchResponseBytes } = PROVIDER_LIMITS
/** Latin characters per item that fill an answer of LIVE_RESULTS_PER_CALL items to just under the byte limit. */
const FILL = Math.floor((0.97 * searchResponseBytes) / LIVE_RESULTS_PER_CALL) - 400

/** Bytes that fill an answer to just under the byte limit, where its shape is what is hostile. */
const SHAPE_FILL = Math.floor(0.97 * searchResponseBytes)

/** A few ordinary results, then arrays nested to fill the answer: JSON.parse alone holds a loop ~270 ms on it. */
function deep(index: number): Uint8Array<ArrayBuffer> {
  const levels = Math.floor(SHAPE_FILL / 2)
  const ok = new TextDecoder().decode(answer(`e${index}`, 5, 20, (i) => text(60, i))).slice(0, -2) // without `]}`
  return new TextEncoder().encode(`${ok},${'['.repeat(levels)}${']'.repeat(levels)}]}`)
}

/** A few ordinary results and one object of ~350,000 keys filling the answer (~150 ms of JSON.parse). */
function wide(index: number): Uint8Array<ArrayBuffer> {
  const ok = new TextDecoder().decode(answer(`f${index}`, 5, 20, (i) => text(60, i))).slice(0, -1) // without the last `}`
  const keys: string[] = []
  for (let size = ok.length + 12; size < SHAPE_FILL; size += 13) keys.push(`"k${keys.length.toString().padStart(7, '0')}":1`)
  return new TextEncoder().encode(`${ok},"extra":{${keys.join(',')}}}`)
}

export const SCENARIOS = {
  benign: { chunked: false, make: (k: number) => answer(`ok${k}`, 20, 10, (i) => text(60, i)) },
  a: { chunked: true, make: (k: number) => answer(`a${k}`, 30, 20, (i) => text(230_000, i)) },
  b: { chunked: false, make: (k: number) => answer(`b${k}`, 50, 20, (i) => text(100_000, i)) },
  c: { chunked: false, make: (k: number) => answer(`c${k}`, LIVE_RESULTS_PER_CALL, titleChars, (i) => text(textChars, i)) },
  d: { chunked: false, make: (k: number) => answer(`d${k}`, LIVE_RESULTS_PER_CALL, titleChars, (i) => text(FILL, i, EN)) },
  e: { chunked: true, make: deep },
  f: { chunked: true, make: wide },
} as const

export type ScenarioName = keyof typeof SCENARIOS

/** The body in 64 KB chunks without a Content-Length (chunked transfer encoding). */
function chunked(body: Uint8Array<ArrayBuffer>): ReadableStream<Uint8Array<ArrayBuffer>> {
  let at = 0
  return new ReadableStream({
    pull(controller) {
      if (at >= body.byteLength) return controller.close()
      controller.enqueue(body.slice(at, (at += 65_536)))
    },
  })
}

if (import.meta.main) {
  let current: { chunked: boolean; bodies: Uint8Array<ArrayBuffer>[] } = { chunked: false, bodies: [] }
  let served = 0
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(req) {
      const url = new URL(req.url)
      if (req.method === 'POST' && url.pathname.startsWith('/scenario/')) {
        const scenario = SCENARIOS[url.pathname.slice('/scenario/'.length) as ScenarioName]
        current = { chunked: scenario.chunked, bodies: Array.from({ length: 6 }, (_, k) => scenario.make(k)) }
        return new Response(String(current.bodies[0]!.byteLength))
      }
      const body = current.bodies[served++ % current.bodies.length]!
      return new Response(current.chunked ? chunked(body) : body, { headers: { 'content-type': 'application/json' } })
    },
  })
  console.log(server.port)
}
