import { x402Facilitator } from '@x402/core/facilitator'
import { toFacilitatorEvmSigner } from '@x402/evm'
import { ExactEvmScheme } from '@x402/evm/exact/facilitator'
import { ExactEvmSchemeV1 } from '@x402/evm/exact/v1/facilitator'
import { createWalletClient, http, nonceManager, publicActions, type Chain } from 'viem'
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { arbitrum, arbitrumSepolia, base, baseSepolia, polygon, polygonAmoy } from 'viem/chains'
import { NETWORKS, type NetworkName } from './networks'

export interface EvmFacilitatorOptions {
  /** Each network settled on, with the JSON-RPC endpoint it is reached over. */
  networks: readonly { network: NetworkName; rpcUrl: string }[]
  /** Key of the account that submits `transferWithAuthorization` and pays its gas on each network (holds gas, not USDC). */
  privateKey: `0x${string}`
  /** How long settle waits for the transaction's receipt before answering `settlement_pending`. */
  confirmationTimeoutMs?: number
}

const CHAINS: Record<NetworkName, Chain> = {
  base,
  'base-sepolia': baseSepolia,
  polygon,
  'polygon-amoy': polygonAmoy,
  arbitrum,
  'arbitrum-sepolia': arbitrumSepolia,
}

/**
 * An x402 facilitator in process: `@x402/core`'s `x402Facilitator` with `@x402/evm`'s exact EVM scheme
 * (EIP-3009, x402 v1 and v2), signing with one local key over one RPC endpoint per network. Used by
 * `self` payment mode and by `scripts/facilitator.ts`, which serves the same object over the standard
 * HTTP API. Each network gets a scheme of its own, registered for that network alone (`@x402/evm`'s
 * `registerExactEvmScheme` would register its v1 scheme for every v1 network with the first signer).
 */
export function createEvmFacilitator(options: EvmFacilitatorOptions) {
  // The nonce manager hands concurrent settlements consecutive nonces instead of the same one.
  const account = privateKeyToAccount(options.privateKey, { nonceManager })
  const facilitator = new x402Facilitator()
  for (const { network, rpcUrl } of options.networks) {
    const signer = signerOn(account, CHAINS[network], rpcUrl, options.confirmationTimeoutMs)
    const info = NETWORKS[network]
    facilitator.register(info.caip2, new ExactEvmScheme(signer))
    if (info.v1) facilitator.registerV1(info.v1 as never, new ExactEvmSchemeV1(signer))
  }
  return { facilitator, address: account.address }
}

/** A facilitator signer for one chain: the account's transactions over that chain's RPC. */
function signerOn(account: PrivateKeyAccount, chain: Chain, rpcUrl: string, confirmationTimeoutMs: number | undefined) {
  const client = createWalletClient({ account, chain, transport: http(rpcUrl) }).extend(publicActions)
  // Transactions are prepared and sent one at a time (their receipts are awaited in parallel). A send that
  // fails after taking its nonce (a transfer whose gas estimate reverts) makes viem read the nonce again;
  // with another send in flight that leaves a gap, and every later transaction waits behind it unmined.
  let sending: Promise<unknown> = Promise.resolve()
  const oneAtATime = <T>(send: () => Promise<T>): Promise<T> => {
    const sent = sending.then(send, send)
    sending = sent.catch(() => {})
    return sent
  }
  return toFacilitatorEvmSigner(
    {
      address: account.address,
      getCode: (args) => client.getCode(args),
      readContract: (args) => client.readContract({ ...args, args: args.args ?? [] } as never),
      verifyTypedData: (args) => client.verifyTypedData(args as never),
      writeContract: (args) => oneAtATime(() => client.writeContract({ ...args, args: args.args ?? [] } as never)),
      sendTransaction: (args) => oneAtATime(() => client.sendTransaction(args as never)),
      waitForTransactionReceipt: (args) => client.waitForTransactionReceipt(args),
    },
    confirmationTimeoutMs ? { confirmationTimeoutMs } : undefined,
  )
}
