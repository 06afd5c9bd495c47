import { describe, expect, test } from 'bun:test'
import { hashTypedData, recoverAddress, recoverTypedDataAddress, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { authorizationDigest, domainSeparator, recoverSigner, type Authorization } from '../../src/payments/eip3009'
import { NETWORKS } from '../../src/payments/networks'
import { TRANSFER_WITH_AUTHORIZATION } from '../helpers/payer'

const types = TRANSFER_WITH_AUTHORIZATION

const N = secp256k1.Point.CURVE().n

function randomAuthorization(from: `0x${string}`): Authorization {
  const rnd = (bytes: number) => BigInt(toHex(crypto.getRandomValues(new Uint8Array(bytes))))
  return {
    from,
    to: privateKeyToAccount(generatePrivateKey()).address,
    value: rnd(8).toString(),
    validAfter: rnd(4).toString(),
    validBefore: rnd(5).toString(),
    nonce: toHex(crypto.getRandomValues(new Uint8Array(32))),
  }
}

const message = (a: Authorization) => ({ ...a, value: BigInt(a.value), validAfter: BigInt(a.validAfter), validBefore: BigInt(a.validBefore) })

describe('EIP-3009 digest and signer recovery', () => {
  for (const network of Object.values(NETWORKS)) {
    const domain = { ...network.eip712, chainId: network.chainId, verifyingContract: network.asset }
    const separator = domainSeparator(domain)

    test(`the digest equals viem's hashTypedData on ${network.name} for random authorizations`, () => {
      for (let i = 0; i < 25; i++) {
        const a = randomAuthorization(privateKeyToAccount(generatePrivateKey()).address)
        const ours = toHex(authorizationDigest(separator, a))
        const viems = hashTypedData({ domain, types, primaryType: 'TransferWithAuthorization', message: message(a) })
        expect(ours).toBe(viems)
      }
    })

    test(`the recovered signer equals viem's recoverTypedDataAddress on ${network.name}`, async () => {
      for (let i = 0; i < 25; i++) {
        const account = privateKeyToAccount(generatePrivateKey())
        const a = randomAuthorization(account.address)
        const signature = await account.signTypedData({ domain, types, primaryType: 'TransferWithAuthorization', message: message(a) })
        const viems = await recoverTypedDataAddress({ domain, types, primaryType: 'TransferWithAuthorization', message: message(a), signature })
        expect(recoverSigner(authorizationDigest(separator, a), signature)).toBe(viems.toLowerCase() as `0x${string}`)
        expect(viems).toBe(account.address)
      }
    })
  }

  const domain = { ...NETWORKS['base-sepolia'].eip712, chainId: 84532, verifyingContract: NETWORKS['base-sepolia'].asset }
  const separator = domainSeparator(domain)

  async function signed() {
    const account = privateKeyToAccount(generatePrivateKey())
    const a = randomAuthorization(account.address)
    const signature = await account.signTypedData({ domain, types, primaryType: 'TransferWithAuthorization', message: message(a) })
    return { account, a, signature, digest: authorizationDigest(separator, a) }
  }

  test('a changed field recovers a different address, so the payer check fails', async () => {
    const { account, a, signature } = await signed()
    const tampered = { ...a, value: (BigInt(a.value) + 1n).toString() }
    expect(recoverSigner(authorizationDigest(separator, tampered), signature)).not.toBe(account.address.toLowerCase() as `0x${string}`)
  })

  test('the high-s twin of a valid signature is rejected (it would recover the same signer)', async () => {
    const { account, signature, digest } = await signed()
    const r = signature.slice(2, 66)
    const s = BigInt(`0x${signature.slice(66, 130)}`)
    const v = Number.parseInt(signature.slice(130), 16)
    const twin = `0x${r}${(N - s).toString(16).padStart(64, '0')}${(v === 27 ? 28 : 27).toString(16)}` as `0x${string}`
    // The twin is mathematically valid: plain recovery without the low-s rule finds the same signer.
    expect(await recoverAddress({ hash: toHex(digest), signature: twin })).toBe(account.address)
    expect(recoverSigner(digest, twin)).toBeNull()
    expect(recoverSigner(digest, signature)).toBe(account.address.toLowerCase() as `0x${string}`)
  })

  test('v values 0/1 are accepted like 27/28, and other v values are rejected', async () => {
    const { account, signature, digest } = await signed()
    const v = Number.parseInt(signature.slice(130), 16)
    const zeroBased = `${signature.slice(0, 130)}0${v - 27}` as `0x${string}`
    expect(recoverSigner(digest, zeroBased)).toBe(account.address.toLowerCase() as `0x${string}`)
    expect(recoverSigner(digest, `${signature.slice(0, 130)}1d` as `0x${string}`)).toBeNull()
  })

  test('signatures of the wrong length, zero r or s beyond the curve order are rejected', async () => {
    const { signature, digest } = await signed()
    expect(recoverSigner(digest, signature.slice(0, 130) as `0x${string}`)).toBeNull()
    expect(recoverSigner(digest, `0x${'0'.repeat(64)}${signature.slice(66)}` as `0x${string}`)).toBeNull()
    expect(recoverSigner(digest, `0x${signature.slice(2, 66)}${N.toString(16)}1b` as `0x${string}`)).toBeNull()
  })
})
