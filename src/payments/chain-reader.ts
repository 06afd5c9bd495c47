import { createPublicClient, http, parseAbi, parseAbiItem } from 'viem'
import { NETWORKS, type NetworkName } from './networks'
import type { AuthorizationReader } from './reconciler'

const ABI = parseAbi(['function authorizationState(address authorizer, bytes32 nonce) view returns (bool)'])
const AUTHORIZATION_USED = parseAbiItem('event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)')
/** How far back to look for the transaction of a used authorization (RPCs cap log ranges; Base makes ~43k blocks a day). */
const LOG_LOOKBACK_BLOCKS = 9_000n

/** Reads EIP-3009 authorization state of the network's USDC contract over JSON-RPC (viem). */
export function createChainReader(network: NetworkName, rpcUrl: string): AuthorizationReader {
  const client = createPublicClient({ transport: http(rpcUrl, { timeout: 10_000 }) })
  const asset = NETWORKS[network].asset
  return {
    used: (payer, nonce) => client.readContract({ address: asset, abi: ABI, functionName: 'authorizationState', args: [payer, nonce] }),
    chainTime: async () => Number((await client.getBlock({ blockTag: 'latest' })).timestamp),
    blockOf: async (transaction) => (await client.getTransactionReceipt({ hash: transaction as `0x${string}` })).blockNumber,
    async transactionOf(payer, nonce) {
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
