import { x402Facilitator } from '@x402/core/facilitator'
import { toFacilitatorEvmSigner } from '@x402/evm'
import { registerExactEvmScheme } from '@x402/evm/exact/facilitator'
import { createWalletClient, http, nonceManager, publicActions } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { base, baseSepolia } from 'viem/chains'
import { NETWORKS, type NetworkName } from './networks'

export interface EvmFacilitatorOptions {
  network: NetworkName
  rpcUrl: string
  /** Key of the account that submits `transferWithAuthorization` and pays its gas (holds ETH, not USDC). */
  privateKey: `0x${string}`
  /** How long settle waits for the transaction's receipt before answering `settlement_pending`. */
  confirmationTimeoutMs?: number
}

const CHAINS = { base, 'base-sepolia': baseSepolia } as const

/**
 * An x402 facilitator in process: `@x402/core`'s `x402Facilitator` with `@x402/evm`'s exact EVM scheme
 * (EIP-3009, x402 v1 and v2), signing with one local key over one RPC endpoint. Used by `self` payment
 * mode and by `scripts/facilitator.ts`, which serves the same object over the standard HTTP API.
 */
export function createEvmFacilitator(options: EvmFacilitatorOptions) {
  // The nonce manager hands concurrent settlements consecutive nonces instead of the same one.
  const account = privateKeyToAccount(options.privateKey, { nonceManager })
  const client = createWalletClient({ account, chain: CHAINS[options.network], transport: http(options.rpcUrl) }).extend(publicActions)
  // Transactions are prepared and sent one at a time (their receipts are awaited in parallel). A send that
  // fails after taking its nonce (a transfer whose gas estimate reverts) makes viem read the nonce again;
  // with another send in flight that leaves a gap, and every later transaction waits behind it unmined.
  let sending: Promise<unknown> = Promise.resolve()
  const oneAtATime = <T>(send: () => Promise<T>): Promise<T> => {
    const sent = sending.then(send, send)
    sending = sent.catch(() => {})
    return sent
  }
  const signer = toFacilitatorEvmSigner(
    {
      address: account.address,
      getCode: (args) => client.getCode(args),
      readContract: (args) => client.readContract({ ...args, args: args.args ?? [] } as never),
      verifyTypedData: (args) => client.verifyTypedData(args as never),
      writeContract: (args) => oneAtATime(() => client.writeContract({ ...args, args: args.args ?? [] } as never)),
      sendTransaction: (args) => oneAtATime(() => client.sendTransaction(args as never)),
      waitForTransactionReceipt: (args) => client.waitForTransactionReceipt(args),
    },
    options.confirmationTimeoutMs ? { confirmationTimeoutMs: options.confirmationTimeoutMs } : undefined,
  )
  const facilitator = new x402Facilitator()
  registerExactEvmScheme(facilitator, { signer, networks: NETWORKS[options.network].caip2 })
  return { facilitator, address: account.address }
}
