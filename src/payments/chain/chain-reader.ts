import { createPublicClient, http, parseAbi, parseAbiItem, type PublicClient } from 'viem'
import { NETWORKS, type NetworkName } from '../networks'
import type { AuthorizationReader } from '../reconciler'
import type { SignInVerifier } from '../gate/sign-in'

const ABI = parseAbi(['function authorizationState(address authorizer, bytes32 nonce) view returns (bool)'])
const AUTHORIZATION_USED = parseAbiItem('event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)')
/** How far back to look for the transaction of a used authorization: 5 hours, on every network. */
const LOG_LOOKBACK_SECONDS = 5 * 3600
/** Blocks asked for in one eth_getLogs: hosted RPCs cap a log range at about 10,000 blocks. */
const LOG_RANGE_BLOCKS = 9_000n

/**
 * Reads EIP-3009 authorization state of each network's USDC contract over its JSON-RPC endpoint (viem).
 * The runtime passes every known network (config.reconcileRpc), so a payment taken on a network since
 * dropped from PAYMENT_NETWORKS is still read on its own chain.
 */
export function createChainReader(
  rpcUrls: Partial<Record<NetworkName, string>>,
  /** How far back a transaction is looked for, and in ranges of how many blocks (tests shorten both). */
  { lookbackSeconds = LOG_LOOKBACK_SECONDS, rangeBlocks = LOG_RANGE_BLOCKS } = {},
): AuthorizationReader {
  const chains = new Map<string, { client: PublicClient; asset: `0x${string}`; lookback: bigint }>()
  for (const [name, url] of Object.entries(rpcUrls) as [NetworkName, string][])
    chains.set(NETWORKS[name].caip2, {
      client: createPublicClient({ transport: http(url, { timeout: 10_000 }) }),
      asset: NETWORKS[name].asset,
      // The same time on every chain: Base's 2-s blocks make it 9,000 blocks, Arbitrum's quarter-second ones 72,000.
      lookback: BigInt(Math.ceil(lookbackSeconds / NETWORKS[name].blockSeconds)),
    })
  const on = (network: string) => {
    const chain = chains.get(network)
    if (!chain) throw new Error(`no RPC for network ${network} (not in PAYMENT_NETWORKS)`)
    return chain
  }
  return {
    used: (network, payer, nonce) => {
      const { client, asset } = on(network)
      return client.readContract({ address: asset, abi: ABI, functionName: 'authorizationState', args: [payer, nonce] })
    },
    chainTime: async (network) => Number((await on(network).client.getBlock({ blockTag: 'latest' })).timestamp),
    blockOf: async (network, transaction) =>
      (await on(network).client.getTransactionReceipt({ hash: transaction as `0x${string}` })).blockNumber,
    async transactionOf(network, payer, nonce) {
      const { client, asset, lookback } = on(network)
      const latest = await client.getBlockNumber({ cacheTime: 0 })
      const oldest = latest > lookback ? latest - lookback : 0n
      // Newest range first (a payment is usually recent), each within the RPCs' log-range cap.
      for (let to = latest; to >= oldest; to -= rangeBlocks) {
        const from = to - rangeBlocks + 1n > oldest ? to - rangeBlocks + 1n : oldest
        const logs = await client.getLogs({
          address: asset,
          event: AUTHORIZATION_USED,
          args: { authorizer: payer, nonce },
          fromBlock: from,
          toBlock: to,
        })
        if (logs[0]) return logs[0].transactionHash ?? undefined
        if (from === 0n) break
      }
      return undefined
    },
  }
}

/**
 * Checks a smart wallet's sign-in signature on its chain (viem's `verifyMessage` action: EIP-1271 for a
 * deployed wallet, EIP-6492 for one not deployed yet), over the same endpoints as the reconciler.
 */
export function createSignInVerifier(rpcUrls: Partial<Record<NetworkName, string>>): SignInVerifier {
  const clients = new Map<string, PublicClient>()
  for (const [name, url] of Object.entries(rpcUrls) as [NetworkName, string][])
    clients.set(NETWORKS[name].caip2, createPublicClient({ transport: http(url, { timeout: 10_000 }) }))
  return async (chainId, signed) => {
    const client = clients.get(chainId)
    return client ? client.verifyMessage(signed) : false
  }
}
