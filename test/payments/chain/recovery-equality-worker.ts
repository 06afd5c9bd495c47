// Worker of recovery-equality.test.ts: generates `count` signature cases from `seed` (the same seed gives
// the same cases), recovers each with libsecp256k1 and with @noble/curves, and reports what differed.
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { recoverWithLibsecp256k1, recoverWithNoble, signatureRecovery } from '../../../src/payments/chain/secp256k1'

declare const self: Worker

export interface CaseCount {
  total: number
  /** Cases where both returned an address. */
  recovered: number
  /** Signed cases whose recovered address is the signing key's. */
  signer: number
}
export interface Mismatch {
  kind: string
  digest: string
  signature: string
  native: string | null
  noble: string | null
}
export interface WorkerResult {
  signatureRecovery: string
  counts: Record<string, CaseCount>
  mismatches: Mismatch[]
}

const N = secp256k1.Point.CURVE().n
const HALF_N = N >> 1n
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')
const word = (x: bigint) => x.toString(16).padStart(64, '0')

/** sfc32: small, fast and seedable, so a failing run can be repeated from its seed. */
function prng(seed: number) {
  let a = 0x9e3779b9,
    b = 0x243f6a88,
    c = 0xb7e15162,
    d = seed >>> 0
  const next = () => {
    const t = (((a + b) | 0) + d) | 0
    d = (d + 1) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + t) | 0
    return t >>> 0
  }
  for (let i = 0; i < 16; i++) next()
  const bytes = (n: number) => {
    const out = new Uint8Array(n)
    for (let i = 0; i < n; i += 4) {
      const x = next()
      for (let j = 0; j < 4 && i + j < n; j++) out[i + j] = (x >>> (8 * j)) & 0xff
    }
    return out
  }
  const int = (n: number) => next() % n
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!
  const big = () => BigInt(`0x${hex(bytes(32))}`)
  return { bytes, int, pick, big }
}

// Weights of each kind of case, out of 100.
const KINDS = [
  ['signed', 22], // signed by a key: both must recover that key's address
  ['signed, v 0/1', 4],
  ['signed, upper-case hex', 2],
  ['high-s twin', 8], // (r, n - s, other v): the same signer mathematically, refused by the low-s rule
  ['random r, s < n/2', 22], // about half of random r are no x-coordinate: no point to recover
  ['random 64 bytes', 8], // high s half of the time
  ['r or s 0 or >= n, s > n/2', 8],
  ['r or s at an edge of the range', 4], // r 1, n-1; s 1, n/2: in range
  ['wrong v', 6],
  ['wrong length', 6],
  ['non-hex', 6],
  ['digest not 32 bytes', 2],
  ['digest 0 or >= n', 2], // read modulo n by both
] as const
type Kind = (typeof KINDS)[number][0]

const OUT_OF_RANGE = [0n, N, N + 1n, (1n << 256n) - 1n]
const EDGES_R = [1n, N - 1n]
const EDGES_S = [1n, HALF_N, HALF_N - 1n]
const EDGE_DIGESTS = [0n, 1n, N - 1n, N, N + 1n, (1n << 256n) - 1n].map((x) => Buffer.from(word(x), 'hex'))
const NON_HEX = ['g', 'G', 'z', 'x', 'X', ' ', '-', '+', '.', '\u00e9', '\u0000', '\uff10']

function run(seed: number, count: number): WorkerResult {
  const rnd = prng(seed)
  const keys = Array.from({ length: 64 }, () => {
    const secret = secp256k1.utils.randomSecretKey(rnd.bytes(48))
    return { secret, address: `0x${hex(keccak_256(secp256k1.getPublicKey(secret, false).subarray(1)).subarray(12))}` }
  })
  type Signed = { digest: Uint8Array; address: string; r: string; s: string; recid: number }
  // The latest signed cases: the invalid variants (twin, wrong v, length, non-hex) are made from them, as
  // they never reach the curve; signing each anew would cost as much as recovering it.
  const recent: Signed[] = []
  const sign = (digest: Uint8Array): Signed => {
    const key = rnd.pick(keys)
    const sig = secp256k1.sign(digest, key.secret, { prehash: false, format: 'recovered' }) // recid ‖ r ‖ s
    const signed = { digest, address: key.address, r: hex(sig.subarray(1, 33)), s: hex(sig.subarray(33, 65)), recid: sig[0]! }
    if (recent.push(signed) > 16) recent.shift()
    return signed
  }
  const signedBefore = (): Signed => (recent.length ? rnd.pick(recent) : sign(rnd.bytes(32)))
  const v = (n: number) => n.toString(16).padStart(2, '0')
  const table: Array<[Kind, number]> = []
  for (const [kind, weight] of KINDS) for (let i = 0; i < weight; i++) table.push([kind, 0])
  const counts: Record<string, CaseCount> = Object.fromEntries(KINDS.map(([k]) => [k, { total: 0, recovered: 0, signer: 0 }]))
  const mismatches: Mismatch[] = []

  for (let i = 0; i < count; i++) {
    const kind = rnd.pick(table)[0]
    let digest: Uint8Array = rnd.bytes(32)
    let signature: string
    let signer: string | undefined
    const signed = () => {
      const s = sign(digest)
      signer = s.address
      return s
    }
    switch (kind) {
      case 'signed': {
        const s = signed()
        signature = `0x${s.r}${s.s}${v(27 + s.recid)}`
        break
      }
      case 'signed, v 0/1': {
        const s = signed()
        signature = `0x${s.r}${s.s}${v(s.recid)}`
        break
      }
      case 'signed, upper-case hex': {
        const s = signed()
        signature = `0x${`${s.r}${s.s}${v(27 + s.recid)}`.toUpperCase()}`
        break
      }
      case 'high-s twin': {
        const s = signedBefore()
        digest = s.digest
        signature = `0x${s.r}${word(N - BigInt(`0x${s.s}`))}${v(28 - s.recid)}`
        break
      }
      case 'random r, s < n/2':
        signature = `0x${word(rnd.big() % N)}${word((rnd.big() % (HALF_N - 1n)) + 1n)}${v(27 + rnd.int(2))}`
        break
      case 'random 64 bytes':
        signature = `0x${hex(rnd.bytes(64))}${v(27 + rnd.int(2))}`
        break
      case 'r or s 0 or >= n, s > n/2': {
        const r = rnd.int(2) ? rnd.pick(OUT_OF_RANGE) : rnd.big() % N
        const s =
          r < N && r > 0n ? rnd.pick([...OUT_OF_RANGE, HALF_N + 1n, N - 1n, HALF_N + 1n + (rnd.big() % HALF_N)]) : (rnd.big() % HALF_N) + 1n
        signature = `0x${word(r)}${word(s)}${v(rnd.pick([0, 1, 27, 28]))}`
        break
      }
      case 'r or s at an edge of the range': {
        const edgeR = rnd.int(2) === 0
        const r = edgeR ? rnd.pick(EDGES_R) : rnd.big() % N || 1n
        const s = edgeR ? (rnd.big() % HALF_N) + 1n : rnd.pick(EDGES_S)
        signature = `0x${word(r)}${word(s)}${v(27 + rnd.int(2))}`
        break
      }
      case 'wrong v': {
        const s = signedBefore()
        digest = s.digest
        let bad = rnd.int(256)
        while ([0, 1, 27, 28].includes(bad)) bad = rnd.int(256)
        signature = `0x${s.r}${s.s}${v(bad)}`
        break
      }
      case 'wrong length': {
        const s = signedBefore()
        digest = s.digest
        const full = `0x${s.r}${s.s}${v(27 + s.recid)}`
        const extra = hex(rnd.bytes(40))
        let length = rnd.int(200)
        if (length === 132) length = 131
        signature = (full + extra).slice(0, length)
        break
      }
      case 'non-hex': {
        const s = signedBefore()
        digest = s.digest
        const full = `0x${s.r}${s.s}${v(27 + s.recid)}`
        const c = rnd.pick(NON_HEX)
        let at = rnd.int(132)
        while (full[at] === c) at = rnd.int(132) // "x" over the x of 0x changes nothing
        signature = `${full.slice(0, at)}${c}${full.slice(at + 1)}`
        break
      }
      case 'digest 0 or >= n': {
        const s = signedBefore()
        signature = `0x${s.r}${s.s}${v(27 + s.recid)}`
        digest = rnd.pick(EDGE_DIGESTS)
        break
      }
      case 'digest not 32 bytes': {
        const s = signed()
        signature = `0x${s.r}${s.s}${v(27 + s.recid)}`
        digest = rnd.int(2) ? digest.subarray(0, rnd.int(32)) : Uint8Array.from([...digest, ...rnd.bytes(1 + rnd.int(32))])
        break
      }
    }
    const native = recoverWithLibsecp256k1(digest, signature as `0x${string}`)
    const noble = recoverWithNoble(digest, signature as `0x${string}`)
    const c = counts[kind]!
    c.total++
    if (native !== noble) {
      if (mismatches.length < 20) mismatches.push({ kind, digest: hex(digest), signature, native, noble })
      continue
    }
    if (native !== null) c.recovered++
    if (signer !== undefined && native === signer) c.signer++
  }
  return { signatureRecovery: signatureRecovery().implementation, counts, mismatches }
}

self.onmessage = (event: MessageEvent<{ seed: number; count: number }>) => {
  self.postMessage(run(event.data.seed, event.data.count))
}
