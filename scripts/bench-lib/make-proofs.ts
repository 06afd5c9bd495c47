// Writes N distinct, valid x402 v1 proofs (one base64 line each) for one route, signed by a throwaway
// key. The benchmark needs a fresh nonce per request, so proofs are made ahead of the run.
// Usage: bun make-proofs.ts <count> <atomic amount> <out file>
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { DEV_PAY_TO } from '../../src/config/config'
import { authorizationDigest, domainSeparator, recoverSigner, type Authorization } from '../../src/payments/chain/eip3009'
import { NETWORKS } from '../../src/payments/networks'

const [count = '50000', amount = '100000', out = 'proofs.txt'] = process.argv.slice(2)
const network = NETWORKS['base-sepolia']
const separator = domainSeparator({ ...network.eip712, chainId: network.chainId, verifyingContract: network.asset })
const key = secp256k1.utils.randomSecretKey()
const from = `0x${Buffer.from(keccak_256(secp256k1.getPublicKey(key, false).subarray(1)).subarray(12)).toString('hex')}` as `0x${string}`
const now = Math.floor(Date.now() / 1000)

const lines: string[] = []
for (let i = 0; i < Number(count); i++) {
  const authorization: Authorization = {
    from,
    to: DEV_PAY_TO,
    value: amount,
    validAfter: String(now - 600),
    validBefore: String(now + 3600),
    nonce: `0x${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex')}`,
  }
  const digest = authorizationDigest(separator, authorization)
  const sig = secp256k1.sign(digest, key, { prehash: false, format: 'recovered' }) // recovery byte first
  const signature = `0x${Buffer.from(sig.subarray(1)).toString('hex')}${(27 + sig[0]!).toString(16)}` as `0x${string}`
  if (i === 0 && recoverSigner(digest, signature) !== from) throw new Error('self-check failed: signature does not recover the signer')
  const proof = { x402Version: 1, scheme: 'exact', network: network.name, payload: { signature, authorization } }
  lines.push(Buffer.from(JSON.stringify(proof)).toString('base64'))
}
await Bun.write(out, `${lines.join('\n')}\n`)
console.error(`wrote ${lines.length} proofs for ${amount} atomic USDC to ${out}`)
