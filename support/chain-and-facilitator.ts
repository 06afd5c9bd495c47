import { expect } from 'bun:test'
import { createWalletClient, http, parseAbi, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { DEV_PAY_TO } from '../src/config/config'
import { NETWORKS } from '../src/payments/networks'
import { signAuthorization, usdcDomain } from '../src/payments/chain/sign'
import { anvilAccount, startChain, type Chain } from './chain'
import { recordingFetch, v2Client, type PayingFetch } from './clients'
import { startFacilitator, type StartedFacilitator } from './facilitator'

/**
 * The on-chain parts the payment tests share: anvil with Circle's USDC and the facilitator process
 * settling on it, funded buyers, and what a purchase moved on chain. Every money claim is read from
 * the chain itself.
 */

export const ONE_USDC = 1_000_000n

/** The service's environment for `facilitator` mode (no background reconciling: tests reconcile when they mean to). */
export function facilitatorModeEnv(facilitatorUrl: string, rpcUrl: string): Record<string, string> {
  return { PAYMENT_MODE: 'facilitator', X402_FACILITATOR_URL: facilitatorUrl, X402_RPC_URL: rpcUrl, RECONCILE_SECONDS: '0' }
}

export interface ChainAndFacilitator {
  chain: Chain
  /** Replaced by `restartFacilitator`. */
  facilitator: StartedFacilitator
  /** facilitatorModeEnv over these two (the facilitator keeps its port across restarts). */
  serviceEnv: Record<string, string>
  /** Starts the facilitator again on its port, after a test stopped it. */
  restartFacilitator(): Promise<void>
  /** Stops the facilitator, then the chain. */
  stop(): Promise<void>
}

/**
 * anvil as Base Sepolia with Circle's USDC, and scripts/facilitator.ts settling on it from anvil account
 * #`settler` (`env` adds the facilitator's authentication settings).
 */
export async function startChainAndFacilitator(
  options: { settler?: number; env?: Record<string, string> } = {},
): Promise<ChainAndFacilitator> {
  const chain = await startChain()
  const start = (port?: number) =>
    startFacilitator({ rpcUrl: chain.rpcUrl, settler: anvilAccount(options.settler ?? 1), env: options.env, port })
  let facilitator: StartedFacilitator
  try {
    facilitator = await start()
  } catch (error) {
    await chain.stop()
    throw error
  }
  const started: ChainAndFacilitator = {
    chain,
    facilitator,
    serviceEnv: facilitatorModeEnv(facilitator.url, chain.rpcUrl),
    async restartFacilitator() {
      started.facilitator = await start(started.facilitator.port)
    },
    async stop() {
      await started.facilitator.stop()
      await chain.stop()
    },
  }
  return started
}

/** A fresh wallet holding `atomic` USDC on `chain`. */
export async function fundedAccount(chain: Chain, atomic = ONE_USDC): Promise<PrivateKeyAccount> {
  const account = privateKeyToAccount(generatePrivateKey())
  await chain.fund(account.address, atomic)
  return account
}

/** Runs `act`; its result, and how the balances of `payer` and DEV_PAY_TO changed on chain meanwhile. */
export async function moved<T>(
  chain: Chain,
  payer: Hex,
  act: () => Promise<T>,
): Promise<{ result: T; delta: { payer: bigint; payTo: bigint } }> {
  const [payerBefore, payToBefore] = await Promise.all([chain.balanceOf(payer), chain.balanceOf(DEV_PAY_TO)])
  const result = await act()
  const [payerAfter, payToAfter] = await Promise.all([chain.balanceOf(payer), chain.balanceOf(DEV_PAY_TO)])
  return { result, delta: { payer: payerAfter - payerBefore, payTo: payToAfter - payToBefore } }
}

/**
 * A fresh buyer with one USDC buys `url` with `client` (by default @x402/fetch): the answer is a 200 (its
 * text shown when not) and exactly `price` moved from the buyer to DEV_PAY_TO.
 */
export async function buyForPrice(
  chain: Chain,
  url: string,
  price: bigint,
  client: (buyer: PrivateKeyAccount) => PayingFetch = (buyer) => v2Client(buyer, recordingFetch().fetch),
): Promise<{ buyer: PrivateKeyAccount; res: Response; text: string }> {
  const buyer = await fundedAccount(chain)
  const { result: res, delta } = await moved(chain, buyer.address, () => client(buyer)(url))
  const text = await res.text()
  expect({ status: res.status, text }).toMatchObject({ status: 200 })
  expect(delta).toEqual({ payer: -price, payTo: price })
  return { buyer, res, text }
}

/** Runs `act` with automatic mining off (transactions wait in the mempool), and turns it on again whatever happens. */
export async function whileNotMining<T>(chain: Chain, act: () => Promise<T>): Promise<T> {
  await chain.setAutomine(false)
  try {
    return await act()
  } finally {
    await chain.setAutomine(true)
  }
}

const TRANSFER = parseAbi([
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)',
])

/**
 * `account` signs `value` USDC to `to`, valid from 0 until an hour past the chain's clock, and someone else
 * (anvil account #5, as a facilitator whose answer was lost) submits it: the authorization, and the
 * transaction once mined.
 */
export async function submittedTransfer(chain: Chain, account: PrivateKeyAccount, to: Hex, value: bigint) {
  const now = BigInt((await chain.client.getBlock()).timestamp)
  const { authorization, signature } = await signAuthorization(account, usdcDomain(NETWORKS[chain.network]), {
    to,
    value,
    validAfter: 0n,
    validBefore: now + 3600n,
  })
  const submitter = createWalletClient({ account: anvilAccount(5), transport: http(chain.rpcUrl) })
  const hash = await submitter.writeContract({
    chain: null,
    address: chain.usdc,
    abi: TRANSFER,
    functionName: 'transferWithAuthorization',
    args: [account.address, to, value, 0n, now + 3600n, authorization.nonce, signature],
  })
  const receipt = await chain.client.waitForTransactionReceipt({ hash })
  return { authorization, hash, status: receipt.status }
}
