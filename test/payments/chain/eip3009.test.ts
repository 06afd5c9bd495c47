import { describe, expect, test } from 'bun:test'
import { hashTypedData, recoverAddress, recoverTypedDataAddress, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { authorizationDigest, domainSeparator, recoverSigner, type Authorization } from '../../../src/payments/chain/eip3009'
import { recoverWithLibsecp256k1, recoverWithNoble, signatureRecovery } from '../../../src/payments/chain/secp256k1'
import { NETWORKS } from '../../../src/payments/networks'
import { TRANSFER_WITH_AUTHORIZATION } from '../../../support/payer'

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

// Both recoveries, each checked against viem below (recovery-equality.test.ts compares them at scale).
const RECOVERIES = { libsecp256k1: recoverWithLibsecp256k1, '@noble/curves': recoverWithNoble }
// The platforms the secp256k1 package ships a prebuilt binding for: there, the native one must run.
const PREBUILT = ['linux-x64', 'darwin-arm64', 'win32-x64'].includes(`${process.platform}-${process.arch}`)

const message = (a: Authorization) => ({
  ...a,
  value: BigInt(a.value),
  validAfter: BigInt(a.validAfter),
  validBefore: BigInt(a.validBefore),
})

describe('EIP-3009 digest and signer recovery', () => {
  test.if(PREBUILT)('recoverSigner runs libsecp256k1 where the package ships a prebuilt binding', () => {
    expect(signatureRecovery()).toEqual({ implementation: 'libsecp256k1 (native)' })
  })

  for (const network of Object.values(NETWORKS)) {
    const domain = { ...network.eip712, chainId: network.chainId, verifyingContract: network.asset }
    const separator = domainSeparator(domain)

    test(`the digest equals viem's hashTypedData on ${network.name} at the edges of the number encodings`, () => {
      const from = privateKeyToAccount(generatePrivateKey()).address
      for (const value of ['0', '1', '255', '256', '999999999999999', '1000000000000000', String(2n ** 53n), String(2n ** 256n - 1n)]) {
        const a = { ...randomAuthorization(from), value, validAfter: '0', validBefore: value }
        expect(toHex(authorizationDigest(separator, a))).toBe(
          hashTypedData({ domain, types, primaryType: 'TransferWithAuthorization', message: message(a) }),
        )
      }
    })

    test(`the digest equals viem's hashTypedData on ${network.name} for random authorizations`, () => {
      for (let i = 0; i < 25; i++) {
        const a = randomAuthorization(privateKeyToAccount(generatePrivateKey()).address)
        const ours = toHex(authorizationDigest(separator, a))
        const viems = hashTypedData({ domain, types, primaryType: 'TransferWithAuthorization', message: message(a) })
        expect(ours).toBe(viems)
      }
    })

    test(`the signer recovered by libsecp256k1 and by @noble/curves equals viem's recoverTypedDataAddress on ${network.name}`, async () => {
      for (let i = 0; i < 25; i++) {
        const account = privateKeyToAccount(generatePrivateKey())
        const a = randomAuthorization(account.address)
        const signature = await account.signTypedData({ domain, types, primaryType: 'TransferWithAuthorization', message: message(a) })
        const viems = await recoverTypedDataAddress({
          domain,
          types,
          primaryType: 'TransferWithAuthorization',
          message: message(a),
          signature,
        })
        for (const [name, recover] of Object.entries(RECOVERIES))
          expect({ name, signer: recover(authorizationDigest(separator, a), signature) }).toEqual({
            name,
            signer: viems.toLowerCase() as `0x${string}`,
          })
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

  for (const [name, recover] of Object.entries(RECOVERIES)) {
    test(`${name}: a changed field recovers a different address, so the payer check fails`, async () => {
      const { account, a, signature } = await signed()
      const tampered = { ...a, value: (BigInt(a.value) + 1n).toString() }
      expect(recover(authorizationDigest(separator, tampered), signature)).not.toBe(account.address.toLowerCase() as `0x${string}`)
    })

    test(`${name}: the high-s twin of a valid signature is rejected (it would recover the same signer)`, async () => {
      const { account, signature, digest } = await signed()
      const r = signature.slice(2, 66)
      const s = BigInt(`0x${signature.slice(66, 130)}`)
      const v = Number.parseInt(signature.slice(130), 16)
      const twin = `0x${r}${(N - s).toString(16).padStart(64, '0')}${(v === 27 ? 28 : 27).toString(16)}` as `0x${string}`
      // The twin is mathematically valid: plain recovery without the low-s rule finds the same signer.
      expect(await recoverAddress({ hash: toHex(digest), signature: twin })).toBe(account.address)
      expect(recover(digest, twin)).toBeNull()
      expect(recover(digest, signature)).toBe(account.address.toLowerCase() as `0x${string}`)
    })

    test(`${name}: v values 0/1 are accepted like 27/28, and other v values are rejected`, async () => {
      const { account, signature, digest } = await signed()
      const v = Number.parseInt(signature.slice(130), 16)
      const zeroBased = `${signature.slice(0, 130)}0${v - 27}` as `0x${string}`
      expect(recover(digest, zeroBased)).toBe(account.address.toLowerCase() as `0x${string}`)
      expect(recover(digest, `${signature.slice(0, 130)}1d` as `0x${string}`)).toBeNull()
    })

    test(`${name}: signatures of the wrong length, zero r or s beyond the curve order are rejected`, async () => {
      const { signature, digest } = await signed()
      expect(recover(digest, signature.slice(0, 130) as `0x${string}`)).toBeNull()
      expect(recover(digest, `0x${'0'.repeat(64)}${signature.slice(66)}` as `0x${string}`)).toBeNull()
      expect(recover(digest, `0x${signature.slice(2, 66)}${N.toString(16)}1b` as `0x${string}`)).toBeNull()
    })

    test(`${name}: upper-case hex digits are read; a non-hex character or another prefix than 0x gives null, not an exception`, async () => {
      const { account, signature, digest } = await signed()
      expect(recover(digest, `0x${signature.slice(2).toUpperCase()}` as `0x${string}`)).toBe(account.address.toLowerCase() as `0x${string}`)
      const at = (i: number, c: string) => `${signature.slice(0, i)}${c}${signature.slice(i + 1)}` as `0x${string}`
      // Before libsecp256k1, a non-hex r or s threw (BigInt), and v "1z" was read as 1 (parseInt).
      for (const bad of [at(2, 'g'), at(65, ' '), at(129, 'x'), at(131, 'z'), at(1, 'X'), at(0, '1')])
        expect(recover(digest, bad)).toBeNull()
    })
  }
})
