import { keccak_256 } from '@noble/hashes/sha3.js'

/**
 * EIP-712 digest and signer recovery for EIP-3009 `TransferWithAuthorization`, the authorization an
 * x402 `exact` EVM payment carries. This is the per-request hot path, so the domain separator and the
 * type hash are computed once and the digest is hashed directly (~0.03 ms instead of viem's ~0.12 ms).
 * Recovery runs libsecp256k1 natively where its prebuilt binding loads, else @noble/curves (secp256k1.ts).
 * test/payments/eip3009.test.ts proves digest and signer equal viem's.
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

function hexToBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.slice(2), 'hex'))
}

function word(value: bigint): Uint8Array {
  if (value < 0n || value >= 1n << 256n) throw new RangeError('uint256 out of range')
  return hexToBytes(`0x${value.toString(16).padStart(64, '0')}`)
}

function addressWord(address: string): Uint8Array {
  const out = new Uint8Array(32)
  out.set(hexToBytes(address), 12)
  return out
}

export function domainSeparator(d: Eip712Domain): Uint8Array {
  const buf = new Uint8Array(32 * 5)
  buf.set(DOMAIN_TYPEHASH, 0)
  buf.set(keccak_256(enc.encode(d.name)), 32)
  buf.set(keccak_256(enc.encode(d.version)), 64)
  buf.set(word(BigInt(d.chainId)), 96)
  buf.set(addressWord(d.verifyingContract), 128)
  return keccak_256(buf)
}

/** keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(authorization)). Expects already-validated fields. */
export function authorizationDigest(separator: Uint8Array, a: Authorization): Uint8Array {
  const struct = new Uint8Array(32 * 7)
  struct.set(TRANSFER_TYPEHASH, 0)
  struct.set(addressWord(a.from), 32)
  struct.set(addressWord(a.to), 64)
  struct.set(word(BigInt(a.value)), 96)
  struct.set(word(BigInt(a.validAfter)), 128)
  struct.set(word(BigInt(a.validBefore)), 160)
  struct.set(hexToBytes(a.nonce), 192)
  const msg = new Uint8Array(66)
  msg[0] = 0x19
  msg[1] = 0x01
  msg.set(separator, 2)
  msg.set(keccak_256(struct), 34)
  return keccak_256(msg)
}

// Signer recovery (libsecp256k1, else @noble/curves): see secp256k1.ts.
export { recoverSigner } from './secp256k1'
