import { x402Facilitator } from '@x402/core/facilitator'
import { toFacilitatorEvmSigner } from '@x402/evm'
import { ExactEvmScheme } from '@x402/evm/exact/facilitator'
import { ExactEvmSchemeV1 } from '@x402/evm/exact/v1/facilitator'
import { BatchSettlementEvmScheme } from '@x402/evm/batch-settlement/facilitator'
import { createWalletClient, HttpRequestError, http, nonceManager, publicActions, TimeoutError, type Chain } from 'viem'
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { arbitrum, arbitrumSepolia, base, baseSepolia, polygon, polygonAmoy } from 'viem/chains'
import { redactedMessage, urlOrigin } from '../../core'
import { NETWORKS, type NetworkName } from '../networks'
import { ChainUnavailableError, recordRpcFailure } from './rpc-watch'

export interface EvmFacilitatorOptions {
  /** Each network settled on, with the JSON-RPC endpoint it is reached over. */
  networks: readonly { network: NetworkName; rpcUrl: string }[]
  /** Key of the account that submits `transferWithAuthorization` and pays its gas on each network (holds gas, not USDC). */
  privateKey: `0x${string}`
  /** How long settle waits for the transaction's receipt before answering `settlement_pending`. */
  confirmationTimeoutMs?: number
  /** How long one JSON-RPC request may take (a hanging RPC must not hold a buyer for viem's default retries). */
  rpcTimeoutMs?: number
  /** Networks that also take x402 `batch-settlement` (deposits, claims, settlements and refunds at the escrow). */
  batchNetworks?: readonly NetworkName[]
}

/** A failure of the transport, not an answer of the chain (a revert is an answer). */
function transportFailure(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause)
    if (e instanceof HttpRequestError || e instanceof TimeoutError || e instanceof SyntaxError || e.name === 'InvalidJsonRpcResponseError')
      return true
  return false
}

/** Scrubs the endpoint (and its key) out of what viem put in an error, in place, keeping the error's type for the library. */
function scrubbed(error: unknown): unknown {
  if (!(error instanceof Error)) return error
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const fields = e as unknown as Record<string, unknown>
    for (const key of ['message', 'shortMessage', 'details', 'url'] as const)
      if (typeof fields[key] === 'string') fields[key] = key === 'url' ? urlOrigin(fields[key] as string) : redactedMessage(fields[key])
    if (Array.isArray(fields.metaMessages)) fields.metaMessages = fields.metaMessages.map((m) => redactedMessage(m))
  }
  return error
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
 * (EIP-3009, x402 v1 and v2) and, on the networks asked for, its batch-settlement scheme, signing with one local key over one RPC endpoint per network. Used by
 * `self` payment mode and by `scripts/facilitator.ts`, which serves the same object over the standard
 * HTTP API. Each network gets a scheme of its own, registered for that network alone (`@x402/evm`'s
 * `registerExactEvmScheme` would register its v1 scheme for every v1 network with the first signer).
 */
export function createEvmFacilitator(options: EvmFacilitatorOptions) {
  // The nonce manager hands concurrent settlements consecutive nonces instead of the same one.
  const account = privateKeyToAccount(options.privateKey, { nonceManager })
  const facilitator = new x402Facilitator()
  for (const { network, rpcUrl } of options.networks) {
    const signer = signerOn(account, CHAINS[network], rpcUrl, options)
    const info = NETWORKS[network]
    facilitator.register(info.caip2, new ExactEvmScheme(signer))
    if (info.v1) facilitator.registerV1(info.v1 as never, new ExactEvmSchemeV1(signer))
    // No authorizer of its own: the seller's receiver-authorizer signs its claims and refunds (payments/batch).
    if (options.batchNetworks?.includes(network)) facilitator.register(info.caip2, new BatchSettlementEvmScheme(signer))
  }
  return { facilitator, address: account.address }
}

/** A facilitator signer for one chain: the account's transactions over that chain's RPC. */
function signerOn(account: PrivateKeyAccount, chain: Chain, rpcUrl: string, options: EvmFacilitatorOptions) {
  // No retry inside a buyer's request: a hosted RPC that failed once is asked again by the buyer's retry.
  const transport = http(rpcUrl, { timeout: options.rpcTimeoutMs ?? 10_000, retryCount: 0 })
  const client = createWalletClient({ account, chain, transport }).extend(publicActions)
  const where = `${chain.name} RPC ${urlOrigin(rpcUrl)}`
  // Every RPC call: a transport failure is recorded for the payment call in progress (rpc-watch.ts) and
  // rethrown without the endpoint's path (its key); any error leaves with the endpoint scrubbed out.
  const rpc = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call()
    } catch (error) {
      if (!transportFailure(error)) throw scrubbed(error)
      const failure = `${where} did not answer: ${redactedMessage(error).split('\n')[0]}`
      recordRpcFailure(failure)
      throw new ChainUnavailableError(failure)
    }
  }
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
      // Never rejects: @x402/evm starts this check without awaiting it on every early return, and a
      // rejection nobody awaits ends the process. The failure is recorded instead (rpc-watch.ts), and the
      // missing code only matters to a verdict that is then discarded as given without the chain.
      getCode: (args) => rpc(() => client.getCode(args)).catch(() => undefined),
      readContract: (args) => rpc(() => client.readContract({ ...args, args: args.args ?? [] } as never)),
      verifyTypedData: (args) => rpc(() => client.verifyTypedData(args as never)),
      writeContract: (args) => oneAtATime(() => rpc(() => client.writeContract({ ...args, args: args.args ?? [] } as never))),
      sendTransaction: (args) => oneAtATime(() => rpc(() => client.sendTransaction(args as never))),
      waitForTransactionReceipt: (args) => rpc(() => client.waitForTransactionReceipt(args)),
    },
    options.confirmationTimeoutMs ? { confirmationTimeoutMs: options.confirmationTimeoutMs } : undefined,
  )
}
