import { secp256k1 } from '@noble/curves/secp256k1.js'
import { keccak_256 } from '@noble/hashes/sha3.js'

/**
 * Signer recovery of 65-byte r‖s‖v ECDSA signatures, the per-request cost of a paid request: libsecp256k1
 * through the `secp256k1` package's prebuilt N-API binding (~6x faster), else @noble/curves (audited, pure
 * JavaScript) where that binding cannot load. Both apply the same canonical rules and give the same answer:
 * test/payments/chain/recovery-equality.test.ts compares them on 100,000 signatures, eip3009.test.ts with viem.
 */
export type SignatureRecovery = 'libsecp256k1 (native)' | '@noble/curves (JavaScript)'
export type Address = `0x${string}`

/** The binding's own method (the package's src/secp256k1.cc), not its lib/ wrapper: returns 0 when it
 * recovered the key into `output` (65 bytes: uncompressed), 1 unparsable signature, 2 no key, 3 cannot serialize. */
interface Binding {
  ecdsaRecover(output: Uint8Array, signature64: Uint8Array, recid: number, message32: Uint8Array): number
}

const CURVE_ORDER = secp256k1.Point.CURVE().n
const HALF_ORDER = CURVE_ORDER >> 1n
const be32 = (x: bigint) => Buffer.from(x.toString(16).padStart(64, '0'), 'hex')
const ORDER_BYTES = be32(CURVE_ORDER)
const HALF_ORDER_BYTES = be32(HALF_ORDER)
const ZERO = Buffer.alloc(32)

// Scratch buffers of the native path (calls are synchronous, so one set serves every request).
const sig = Buffer.alloc(65) // r ‖ s ‖ v
const rs = sig.subarray(0, 64)
const pub = Buffer.alloc(65) // 0x04 ‖ x ‖ y: 65 bytes asks the binding for the uncompressed key
const xy = pub.subarray(1)

const toAddress = (hash: Uint8Array): Address => `0x${Buffer.from(hash.buffer, hash.byteOffset + 12, 20).toString('hex')}`

/**
 * The platform's prebuilt binding, each by a literal path: `bun build --compile` embeds a `.node` file it
 * sees required that way (the package's own loader, node-gyp-build, searches folders at run time and would
 * find nothing in the executable). Throws why none loads.
 */
function loadBinding(): Binding {
  const attempts: Array<[string, () => { Secp256k1: new () => Binding }]> = []
  const key = `${process.platform}-${process.arch}`
  if (key === 'linux-x64') {
    attempts.push(['glibc', () => require('secp256k1/prebuilds/linux-x64/secp256k1.glibc.node')])
    attempts.push(['musl', () => require('secp256k1/prebuilds/linux-x64/secp256k1.musl.node')])
  } else if (key === 'darwin-arm64') {
    attempts.push(['darwin-arm64', () => require('secp256k1/prebuilds/darwin-arm64/secp256k1.node')])
  } else if (key === 'win32-x64') {
    attempts.push(['win32-x64', () => require('secp256k1/prebuilds/win32-x64/secp256k1.node')])
  } else {
    throw new Error(`the secp256k1 package ships no prebuilt binding for ${key}`)
  }
  const errors: string[] = []
  for (const [name, load] of attempts) {
    try {
      const binding = new (load().Secp256k1)()
      selfTest(binding)
      return binding
    } catch (error) {
      errors.push(`${name}: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`) // not the require stack
    }
  }
  throw new Error(errors.join('; '))
}

/** A binding that loads but answers wrongly (another ABI, a broken build) must not verify payments. */
function selfTest(binding: Binding): void {
  // Private key 1 signed keccak256("china-market-intel: libsecp256k1 self-test").
  const digest = Buffer.from('cd17d3860aea1dfb0cf7896799073f5b25d74baee2beb797073fb11c927c5ada', 'hex')
  const signature = Buffer.from(
    'e2ae45134760699aaf9d57680ee42fc1ff8a4c7e4c28c914b48fc8ea271d900f4cb8f170e2824c78647f3cbb1d7e696b97c8f589657e2fb47aa6448a1abbeee0',
    'hex',
  )
  const out = Buffer.alloc(65)
  const code = binding.ecdsaRecover(out, signature, 0, digest)
  const address = code === 0 ? toAddress(keccak_256(out.subarray(1))) : `error ${code}`
  if (address !== '0x7e5f4552091a69125d5dfcb7b8c2659029395bdf') throw new Error(`self-test recovered ${address}`)
}

// Loaded on first use, not at import: dlopen and the context's tables cost ~10 ms, which commands that
// verify no signature (--version, data, payments) need not pay.
let binding: Binding | null = null
let loadError: string | undefined
let loaded = false
function load(): Binding | null {
  if (!loaded) {
    loaded = true
    try {
      binding = loadBinding()
    } catch (error) {
      loadError = error instanceof Error ? error.message : String(error)
    }
  }
  return binding
}

/**
 * Decodes a canonical signature into `sig` and returns its recovery id, or -1: not 0x + 130 hex digits,
 * v not 0/1/27/28, r outside [1, n), or s outside [1, n/2] (the high-s twin is refused, as Ethereum does).
 * The ranges are compared as big-endian bytes, without parsing numbers.
 */
function decode(signature: string): number {
  if (signature.length !== 132 || signature.charCodeAt(0) !== 0x30 || signature.charCodeAt(1) !== 0x78) return -1
  if (sig.write(signature.slice(2), 'hex') !== 65) return -1 // hex decoding stops at the first non-hex pair
  let recoveryId = sig[64]!
  if (recoveryId >= 27) recoveryId -= 27
  if (recoveryId !== 0 && recoveryId !== 1) return -1
  if (sig.compare(ZERO, 0, 32, 0, 32) === 0 || sig.compare(ORDER_BYTES, 0, 32, 0, 32) >= 0) return -1
  if (sig.compare(ZERO, 0, 32, 32, 64) === 0 || sig.compare(HALF_ORDER_BYTES, 0, 32, 32, 64) > 0) return -1
  return recoveryId
}

/** libsecp256k1's recovery; throws when the binding did not load (use `recoverSigner`). */
export function recoverWithLibsecp256k1(digest: Uint8Array, signature: Address): Address | null {
  if (!binding && !load()) throw new Error(`libsecp256k1 did not load: ${loadError}`)
  const recid = decode(signature)
  if (recid < 0) return null
  // The binding takes exactly 32 bytes; @noble/curves reads any length (always 32 here: a keccak digest).
  if (digest.length !== 32) return recoverWithNoble(digest, signature)
  if (binding!.ecdsaRecover(pub, rs, recid, digest) !== 0) return null
  return toAddress(keccak_256(xy))
}

const HEX_SIGNATURE = /^0x[0-9a-fA-F]{130}$/

/** @noble/curves' recovery, with the same rules parsed independently (BigInt), so tests can compare the two. */
export function recoverWithNoble(digest: Uint8Array, signature: Address): Address | null {
  if (signature.length !== 132 || !HEX_SIGNATURE.test(signature)) return null
  const rScalar = BigInt(`0x${signature.slice(2, 66)}`)
  const sScalar = BigInt(`0x${signature.slice(66, 130)}`)
  let recoveryId = Number.parseInt(signature.slice(130, 132), 16)
  if (recoveryId >= 27) recoveryId -= 27
  if (recoveryId !== 0 && recoveryId !== 1) return null
  if (rScalar === 0n || rScalar >= CURVE_ORDER || sScalar === 0n || sScalar > HALF_ORDER) return null
  try {
    const point = new secp256k1.Signature(rScalar, sScalar, recoveryId).recoverPublicKey(digest)
    return toAddress(keccak_256(point.toBytes(false).subarray(1)))
  } catch {
    return null // r is not the x-coordinate of a point, or the recovered key is the point at infinity
  }
}

/**
 * Which recovery `recoverSigner` runs (loading the binding if not yet tried), and why the native one did
 * not load when it did not: for the start-up banner and /ready.
 */
export function signatureRecovery(): { implementation: SignatureRecovery; native_error?: string } {
  return load() ? { implementation: 'libsecp256k1 (native)' } : { implementation: '@noble/curves (JavaScript)', native_error: loadError! }
}

let chosen: typeof recoverWithNoble | undefined

/**
 * Recovers the signer address (lower case) of a 65-byte r‖s‖v signature over `digest`, or null when the
 * signature is not canonical or recovers no key: libsecp256k1 where its binding loads, else @noble/curves.
 */
export function recoverSigner(digest: Uint8Array, signature: Address): Address | null {
  return (chosen ??= load() ? recoverWithLibsecp256k1 : recoverWithNoble)(digest, signature)
}
