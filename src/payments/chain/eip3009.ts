import { keccak_256 } from '@noble/hashes/sha3.js'

/**
 * EIP-712 digest and signer recovery for EIP-3009 `TransferWithAuthorization`, the authorization an
 * x402 `exact` EVM payment carries. This is the per-request hot path, so the domain separator and the
 * type hash are computed once and the digest is hashed directly (~0.03 ms instead of viem's ~0.12 ms).
 * Recovery runs libsecp256k1 natively where its prebuilt binding loads, else @noble/curves (secp256k1.ts).
 * test/payments/chain/eip3009.test.ts proves digest and signer equal viem's.
 */
export interface Authorization {
  from: `0x${string}`
  to: `0x${string}`
  value: string
  validAfter: string
  validBefore: string
  nonce: `0x${string}`
}

export interface Eip712Domain {
  name: string
  version: string
  chainId: number
  verifyingContract: `0x${string}`
}

const enc = new TextEncoder()
const DOMAIN_TYPEHASH = keccak_256(enc.encode('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)'))
const TRANSFER_TYPEHASH = keccak_256(
  enc.encode('TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)'),
)

const MAX_UINT256 = (1n << 256n) - 1n

/** Writes `hex` (0x-prefixed, validated before) into `buf` at `offset`. */
function putHex(buf: Uint8Array, offset: number, hex: string): void {
  Buffer.from(buf.buffer, buf.byteOffset + offset).write(hex.slice(2), 'hex')
}

/** Writes a uint256 big-endian into the 32 bytes at `offset` (which must be zero), with no hex round trip. */
function putUint(buf: Uint8Array, offset: number, value: bigint | string | number): void {
  // Up to 2^53 (amounts and timestamps): plain numbers, byte by byte.
  if (typeof value === 'number' || (typeof value === 'string' && value.length <= 15 && /^\d+$/.test(value))) {
    let small = Number(value)
    for (let i = offset + 31; small > 0; i--) {
      buf[i] = small % 256
      small = Math.floor(small / 256)
    }
    return
  }
  let big = BigInt(value)
  if (big < 0n || big > MAX_UINT256) throw new RangeError('uint256 out of range')
  for (let i = offset + 31; big > 0n; i--) {
    buf[i] = Number(big & 0xffn)
    big >>= 8n
  }
}

export function domainSeparator(domain: Eip712Domain): Uint8Array {
  const buf = new Uint8Array(32 * 5)
  buf.set(DOMAIN_TYPEHASH, 0)
  buf.set(keccak_256(enc.encode(domain.name)), 32)
  buf.set(keccak_256(enc.encode(domain.version)), 64)
  putUint(buf, 96, domain.chainId)
  putHex(buf, 128 + 12, domain.verifyingContract)
  return keccak_256(buf)
}

/**
 * keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(authorization)). Expects already-validated fields
 * (proof.ts: 20-byte addresses, a 32-byte nonce, decimal uint256 numbers).
 */
export function authorizationDigest(separator: Uint8Array, authorization: Authorization): Uint8Array {
  const struct = new Uint8Array(32 * 7)
  struct.set(TRANSFER_TYPEHASH, 0)
  putHex(struct, 32 + 12, authorization.from)
  putHex(struct, 64 + 12, authorization.to)
  putUint(struct, 96, authorization.value)
  putUint(struct, 128, authorization.validAfter)
  putUint(struct, 160, authorization.validBefore)
  putHex(struct, 192, authorization.nonce)
  const msg = new Uint8Array(66)
  msg[0] = 0x19
  msg[1] = 0x01
  msg.set(separator, 2)
  msg.set(keccak_256(struct), 34)
  return keccak_256(msg)
}

// Signer recovery (libsecp256k1, else @noble/curves): see secp256k1.ts.
export { recoverSigner } from './secp256k1'
