import { BATCH_SETTLEMENT_ADDRESS } from '@x402/evm'
import { createPublicClient, http, parseAbi, type PublicClient } from 'viem'
import { NETWORKS, type NetworkName } from '../networks'
import type { EscrowReader } from '../batch/redeemer'

/** The escrow's views the redeemer reads (x402 batch-settlement's x402BatchSettlement, as `@x402/evm` 2.27.0 calls it). */
const ESCROW_ABI = parseAbi([
  'function receivers(address receiver, address token) view returns (uint128 totalClaimed, uint128 totalSettled)',
  'function pendingWithdrawals(bytes32 channelId) view returns (uint128 amount, uint40 initiatedAt)',
])
/** Channels read at once: one JSON-RPC batch each. */
const CHUNK = 100

/** Reads the batch-settlement escrow of each network over its JSON-RPC endpoint (viem, requests batched). */
export function createEscrowReader(rpcUrls: Partial<Record<NetworkName, string>>): EscrowReader {
  const clients = new Map<string, PublicClient>()
  for (const [name, url] of Object.entries(rpcUrls) as [NetworkName, string][])
    clients.set(NETWORKS[name].caip2, createPublicClient({ transport: http(url, { timeout: 10_000, batch: { batchSize: CHUNK } }) }))
  const on = (network: string) => {
    const client = clients.get(network)
    if (!client) throw new Error(`no RPC for network ${network}`)
    return client
  }
  return {
    async receiver(network, receiver, token) {
      const [claimed, settled] = await on(network).readContract({
        address: BATCH_SETTLEMENT_ADDRESS,
        abi: ESCROW_ABI,
        functionName: 'receivers',
        args: [receiver, token],
      })
      return { claimed, settled }
    },
    async withdrawing(network, channelIds) {
      const client = on(network)
      const pending = new Set<string>()
      for (let start = 0; start < channelIds.length; start += CHUNK) {
        const chunk = channelIds.slice(start, start + CHUNK)
        const reads = await Promise.all(
          chunk.map((channelId) =>
            client.readContract({
              address: BATCH_SETTLEMENT_ADDRESS,
              abi: ESCROW_ABI,
              functionName: 'pendingWithdrawals',
              args: [channelId],
            }),
          ),
        )
        reads.forEach(([, initiatedAt], index) => {
          if (initiatedAt > 0) pending.add(chunk[index]!.toLowerCase())
        })
      }
      return pending
    },
  }
}
