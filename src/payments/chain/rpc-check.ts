import { BATCH_SETTLEMENT_ADDRESS } from '@x402/evm'
import { createPublicClient, http } from 'viem'
import { ConfigError, type Logger, redactedMessage, urlOrigin } from '../../core'
import { NETWORKS, variableSuffix, type NetworkName } from '../networks'

/** A chain id question is one small request: an RPC that takes longer than this is not answering. */
const CHAIN_ID_TIMEOUT_MS = 5_000

type NetworkRpc = { network: NetworkName; rpcUrl: string }

/** The setting that names a network's RPC (config/network-settings.ts: the first network may also use X402_RPC_URL). */
const settingOf = (network: NetworkName, first: boolean) => `${first ? 'X402_RPC_URL or ' : ''}X402_RPC_URL_${variableSuffix(network)}`

/** Each network's RPC asked for its chain id; a failure names the network and the endpoint's origin only. */
async function chainIdOf({ network, rpcUrl }: NetworkRpc): Promise<number> {
  const client = createPublicClient({ transport: http(rpcUrl, { timeout: CHAIN_ID_TIMEOUT_MS, retryCount: 0 }) })
  try {
    return await client.getChainId()
  } catch (error) {
    throw new Error(`${network} RPC ${urlOrigin(rpcUrl)}: ${redactedMessage(error).split('\n')[0]}`)
  }
}

/**
 * Self mode's start-up check: every RPC must be on its network's chain (an RPC of another chain would
 * verify every proof against the wrong chain: refused at start in every environment). An RPC that does not
 * answer yet does not stop start-up: payments answer `503 settlement_unavailable` until it does, and /ready says so.
 */
export async function checkChainIds(networks: readonly NetworkRpc[], logger: Logger): Promise<void> {
  const answers = await Promise.allSettled(networks.map(chainIdOf))
  answers.forEach((answer, index) => {
    const { network, rpcUrl } = networks[index]!
    const expected = NETWORKS[network].chainId
    if (answer.status === 'rejected')
      logger.warn('RPC did not answer at start: payments on this network answer 503 until it does', {
        network,
        error: redactedMessage(answer.reason),
        check: settingOf(network, index === 0),
      })
    else if (answer.value !== expected)
      throw new ConfigError(
        settingOf(network, index === 0),
        `the RPC at ${urlOrigin(rpcUrl)} is on chain ${answer.value}, not ${network} (chain ${expected})`,
      )
  })
}

/**
 * The networks whose RPC answers that no batch-settlement escrow is at its canonical address (x402 deploys
 * it at the same address on every network it supports): there, every deposit would fail. An RPC that does
 * not answer names none (its network keeps the offer; payments answer 503 until it does).
 */
export async function escrowMissing(networks: readonly NetworkRpc[]): Promise<NetworkName[]> {
  const answers = await Promise.allSettled(
    networks.map(({ rpcUrl }) =>
      createPublicClient({ transport: http(rpcUrl, { timeout: CHAIN_ID_TIMEOUT_MS, retryCount: 0 }) }).getCode({
        address: BATCH_SETTLEMENT_ADDRESS,
      }),
    ),
  )
  return networks
    .filter((_, index) => {
      const answer = answers[index]!
      return answer.status === 'fulfilled' && (answer.value === undefined || answer.value === '0x')
    })
    .map(({ network }) => network)
}

/** The probe /ready runs during an outage: every network's RPC answers with its own chain id. */
export function rpcChecks(networks: readonly NetworkRpc[]): () => Promise<void> {
  return async () => {
    for (const network of networks) {
      const id = await chainIdOf(network)
      if (id !== NETWORKS[network.network].chainId) throw new Error(`${network.network} RPC answers for chain ${id}`)
    }
  }
}

/** One network's RPC as the console shows it: whether it answers with its chain's id, how fast, and why not. */
export interface RpcState {
  network: NetworkName
  reachable: boolean
  ms: number
  error?: string
}

/** Asks every network's RPC for its chain id at once (each bounded by CHAIN_ID_TIMEOUT_MS): the console's view. */
export function rpcStates(networks: readonly NetworkRpc[]): () => Promise<RpcState[]> {
  return () =>
    Promise.all(
      networks.map(async (network): Promise<RpcState> => {
        const started = performance.now()
        const ms = () => Math.round(performance.now() - started)
        try {
          const id = await chainIdOf(network)
          const expected = NETWORKS[network.network].chainId
          return id === expected
            ? { network: network.network, reachable: true, ms: ms() }
            : { network: network.network, reachable: false, ms: ms(), error: `answers for chain ${id}, not ${expected}` }
        } catch (error) {
          return { network: network.network, reachable: false, ms: ms(), error: (error as Error).message }
        }
      }),
    )
}
