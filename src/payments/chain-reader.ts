import { createPublicClient, http, parseAbi, parseAbiItem, type PublicClient } from 'viem'
import { NETWORKS, type NetworkName } from './networks'
import type { AuthorizationReader } from './reconciler'

const ABI = parseAbi(['function authorizationState(address authorizer, bytes32 nonce) view returns (bool)'])
const AUTHORIZATION_USED = parseAbiItem('event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)')
/** How far back to look for the transaction of a used authorization (RPCs cap log ranges; Base makes ~43k blocks a day). */
const LOG_LOOKBACK_BLOCKS = 9_000n

/**
 * Reads EIP-3009 authorization state of each network's USDC contract over its JSON-RPC endpoint (viem).
 * The runtime passes every known network (config.reconcileRpc), so a payment taken on a network since
 * dropped from PAYMENT_NETWORKS is still read on its own chain.
 */
export function createChainReader(rpcUrls: Partial<Record<NetworkName, string>>): AuthorizationReader {
  const chains = new Map<string, { client: PublicClient; asset: `0x${string}` }>()
  for (const [name, url] of Object.entries(rpcUrls) as [NetworkName, string][])
    chains.set(NETWORKS[name].caip2, {
      client: createPublicClient({ transport: http(url, { timeout: 10_000 }) }),
      asset: NETWORKS[name].asset,
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
      const { client, asset } = on(network)
      const latest = await client.getBlockNumber()
      const logs = await client.getLogs({
        address: asset,
        event: AUTHORIZATION_USED,
        args: { authorizer: payer, nonce },
        fromBlock: latest > LOG_LOOKBACK_BLOCKS ? latest - LOG_LOOKBACK_BLOCKS : 0n,
        toBlock: latest,
      })
      return logs[0]?.transactionHash ?? undefined
    },
  }
}
