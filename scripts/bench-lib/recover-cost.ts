// What recovering the signer of one x402 proof costs, per signature, on the same proofs in one run:
// libsecp256k1 (the native binding recoverSigner runs), @noble/curves (its fallback) and viem's
// recoverTypedDataAddress (which hashes the typed data too: compare it with "digest + recover").
// Each proof is timed once by each, in turn, so load on the machine weighs on all three alike.
// Usage: bun recover-cost.ts [proofs, default 2000]
import { cpus, loadavg } from 'node:os'
import { recoverTypedDataAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { DEV_PAY_TO } from '../../src/config/config'
import { authorizationDigest, domainSeparator, type Authorization } from '../../src/payments/chain/eip3009'
import { NETWORKS } from '../../src/payments/networks'
import { recoverWithLibsecp256k1, recoverWithNoble, signatureRecovery } from '../../src/payments/chain/secp256k1'
import { TRANSFER_WITH_AUTHORIZATION } from '../../src/payments/chain/sign'

const COUNT = Number(process.argv[2] ?? 2000)
const WARMUP = 200
if (signatureRecovery().native_error) throw new Error(`the libsecp256k1 binding did not load here: ${signatureRecovery().native_error}`)

const network = NETWORKS['base-sepolia']
const domain = { ...network.eip712, chainId: network.chainId, verifyingContract: network.asset }
const separator = domainSeparator(domain)
const accounts = Array.from({ length: 16 }, () => privateKeyToAccount(generatePrivateKey()))
const now = BigInt(Math.floor(Date.now() / 1000))

console.error(`signing ${COUNT + WARMUP} proofs…`)
const proofs = await Promise.all(
  Array.from({ length: COUNT + WARMUP }, async (_, index) => {
    const account = accounts[index % accounts.length]!
    const message = {
      from: account.address,
      to: DEV_PAY_TO as `0x${string}`,
      value: 100_000n,
      validAfter: now - 600n,
      validBefore: now + 3600n,
      nonce: `0x${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex')}` as `0x${string}`,
    }
    const signature = await account.signTypedData({
      domain,
      types: TRANSFER_WITH_AUTHORIZATION,
      primaryType: 'TransferWithAuthorization',
      message,
    })
    const authorization: Authorization = {
      ...message,
      value: String(message.value),
      validAfter: String(message.validAfter),
      validBefore: String(message.validBefore),
    }
    return { message, authorization, signature, signer: account.address.toLowerCase() }
  }),
)

type Sample = Record<string, number[]>
const samples: Sample = {}
const time = (name: string, index: number, fn: () => string | null) => {
  const startedAt = performance.now()
  const signer = fn()
  const us = (performance.now() - startedAt) * 1000
  if (signer !== proofs[index]!.signer) throw new Error(`${name} recovered ${signer} for proof ${index}, not ${proofs[index]!.signer}`)
  if (index >= WARMUP) (samples[name] ??= []).push(us)
}
for (let i = 0; i < proofs.length; i++) {
  const proof = proofs[i]!
  const digest = authorizationDigest(separator, proof.authorization)
  time('libsecp256k1: recover', i, () => recoverWithLibsecp256k1(digest, proof.signature))
  time('@noble/curves: recover', i, () => recoverWithNoble(digest, proof.signature))
  time('libsecp256k1: digest + recover', i, () =>
    recoverWithLibsecp256k1(authorizationDigest(separator, proof.authorization), proof.signature),
  )
  time('@noble/curves: digest + recover', i, () => recoverWithNoble(authorizationDigest(separator, proof.authorization), proof.signature))
  const startedAt = performance.now()
  const viem = (
    await recoverTypedDataAddress({
      domain,
      types: TRANSFER_WITH_AUTHORIZATION,
      primaryType: 'TransferWithAuthorization',
      message: proof.message,
      signature: proof.signature,
    })
  ).toLowerCase()
  const us = (performance.now() - startedAt) * 1000
  if (viem !== proof.signer) throw new Error(`viem recovered ${viem} for proof ${i}`)
  if (i >= WARMUP) (samples['viem recoverTypedDataAddress (digest + recover)'] ??= []).push(us)
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)]!
console.log(
  `${COUNT} proofs (after ${WARMUP} warm-up), ${cpus()[0]?.model ?? 'unknown CPU'}, load average ${loadavg()[0]!.toFixed(2)}; µs per signature:`,
)
for (const [name, xs] of Object.entries(samples)) {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length
  console.log(
    `  ${name.padEnd(48)} p50 ${pct(xs, 0.5).toFixed(1).padStart(7)}  p99 ${pct(xs, 0.99).toFixed(1).padStart(7)}  mean ${mean.toFixed(1).padStart(7)}`,
  )
}
const native = pct(samples['libsecp256k1: recover']!, 0.5)
console.log(
  `libsecp256k1 is ${(pct(samples['@noble/curves: recover']!, 0.5) / native).toFixed(1)}x @noble/curves and ${(pct(samples['viem recoverTypedDataAddress (digest + recover)']!, 0.5) / pct(samples['libsecp256k1: digest + recover']!, 0.5)).toFixed(1)}x viem (p50, with the digest)`,
)
