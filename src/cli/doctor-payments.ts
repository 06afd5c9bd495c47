/**
 * `doctor`'s payment checks: the mode, where the money goes, the network, and whether the facilitator or
 * the chain that settles can be reached and does what this service will ask of it.
 */
import { createPublicClient, formatEther, http, type PublicClient } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { Config } from '../config'
import { CDP_FACILITATOR_URL } from '../payments/cdp-auth'
import { connectFacilitator, FacilitatorAuthError } from '../payments/facilitator-client'
import { refusedStatus } from '../payments/facilitator-settler'
import { NETWORKS } from '../payments/networks'
import { DEV_PAY_TO } from '../settings'
import { block, CHECK_TIMEOUT_MS, messageOf, ok, warn, type Finding } from './doctor-finding'

const ZERO_ADDRESS = /^0x0{40}$/

/** An RPC URL as it may be printed: providers put the API key in the path or the query. */
const rpcOrigin = (url: string) => new URL(url).origin

export function paymentMode(config: Readonly<Config>): Finding {
  const check = 'payment mode'
  const deferred =
    config.settleMode === 'deferred'
      ? `; answers go out before settlement (SETTLE_MODE=deferred, at most USD ${config.deferred.maxUnsettledUsd} unsettled per payer)`
      : ''
  if (config.paymentMode === 'local')
    return block(
      check,
      'PAYMENT_MODE=local checks signatures and settles nothing: no USDC ever arrives',
      'PAYMENT_MODE=facilitator with X402_FACILITATOR_URL (or CDP_API_KEY_ID and CDP_API_KEY_SECRET), or PAYMENT_MODE=self with X402_RPC_URL and X402_SETTLER_PRIVATE_KEY',
    )
  if (config.paymentMode === 'facilitator')
    return ok(check, `facilitator: ${config.facilitatorUrl ?? CDP_FACILITATOR_URL} verifies and settles${deferred}`)
  return ok(check, `self: this service verifies and settles over ${rpcOrigin(config.rpcUrl)} with its own key${deferred}`)
}

export function payTo(config: Readonly<Config>): Finding {
  const check = 'pay-to address'
  if (config.payToIsDevDefault || config.payTo.toLowerCase() === DEV_PAY_TO.toLowerCase())
    return block(check, `PAY_TO is the development address ${DEV_PAY_TO} (anvil's well-known test account #9)`, 'PAY_TO=0x… (your address)')
  if (ZERO_ADDRESS.test(config.payTo))
    return block(check, 'PAY_TO is the zero address: USDC sent there is lost', 'PAY_TO=0x… (your address)')
  return ok(check, `USDC goes to ${config.payTo}`)
}

export function network(config: Readonly<Config>): Finding {
  const info = NETWORKS[config.network]
  if (info.testnet)
    return warn(
      'network',
      `${info.name} (${info.caip2}) is a test network: buyers pay with test USDC, worth nothing`,
      'X402_NETWORK=base to take real USDC (keep base-sepolia for staging)',
    )
  return ok('network', `${info.name} (${info.caip2}), USDC ${info.asset}`)
}

/** Facilitator mode: `/supported` answers with our credentials and lists the exact scheme on our network. */
export async function facilitator(config: Readonly<Config>): Promise<Finding[]> {
  if (config.paymentMode !== 'facilitator') return []
  const check = 'facilitator'
  const credentials = config.cdpApiKey ? 'CDP_API_KEY_ID and CDP_API_KEY_SECRET' : 'X402_FACILITATOR_HEADERS'
  let connection
  try {
    connection = await connectFacilitator({ ...config, facilitatorTimeoutMs: Math.min(config.facilitatorTimeoutMs, CHECK_TIMEOUT_MS) })
  } catch (e) {
    return [block(check, messageOf(e), credentials)]
  }
  const { url, auth } = connection
  try {
    const supported = await connection.client.getSupported()
    if (!Array.isArray(supported?.kinds))
      return [block(check, `${url}/supported answered something that is not a facilitator's list of kinds`, 'X402_FACILITATOR_URL')]
    const info = NETWORKS[config.network]
    // A v2 proof reaches the facilitator under the CAIP-2 id, a v1 proof under the v1 name (facilitator-settler.ts).
    const lists = (version: number, name: string) =>
      supported.kinds.some((k) => k.scheme === 'exact' && k.x402Version === version && k.network === name)
    const [v2, v1] = [lists(2, info.caip2), lists(1, info.name)]
    if (!v2) {
      const listed = supported.kinds.map((k) => `${k.scheme} on ${k.network} (v${k.x402Version})`).join(', ') || 'nothing'
      return [
        block(
          check,
          `${url} answers but does not settle x402 v2 exact payments on ${info.name} (${info.caip2}); it lists ${listed}`,
          'X402_NETWORK, or X402_FACILITATOR_URL (a facilitator for that network)',
        ),
      ]
    }
    const settles = ok(check, `${url} settles exact on ${info.caip2}; ${auth}`)
    if (v1) return [settles]
    return [settles, warn(check, `${url} does not list x402 v1 payments on ${info.name}: v1 clients (x402-fetch) cannot pay`)]
  } catch (e) {
    if (e instanceof FacilitatorAuthError) return [block(check, messageOf(e), credentials)]
    const status = refusedStatus(e)
    if (status === 401 || status === 403)
      return [block(check, `${url} refused this service's credentials (HTTP ${status}): every payment would fail`, credentials)]
    return [block(check, `${url} cannot be reached: ${messageOf(e)}`, 'X402_FACILITATOR_URL (and that the facilitator is running)')]
  }
}

/** The chain behind X402_RPC_URL: is it our network, with USDC on it. */
async function chainOf(config: Readonly<Config>): Promise<{ client: PublicClient; problem?: string }> {
  const info = NETWORKS[config.network]
  const client = createPublicClient({ transport: http(config.rpcUrl, { timeout: CHECK_TIMEOUT_MS, retryCount: 0 }) })
  const chainId = await client.getChainId()
  if (chainId !== info.chainId)
    return { client, problem: `${rpcOrigin(config.rpcUrl)} is chain ${chainId}, not ${info.name} (${info.chainId})` }
  const code = await client.getCode({ address: info.asset })
  if (!code || code === '0x')
    return { client, problem: `${rpcOrigin(config.rpcUrl)} has no contract at ${info.name}'s USDC address ${info.asset}` }
  return { client }
}

/**
 * Self mode: the RPC is our network, USDC is there and the settler can pay gas. Facilitator mode: the
 * reconciler reads settlements over the same RPC; when it cannot, pending settlements wait (a warning).
 */
export async function chain(config: Readonly<Config>): Promise<Finding[]> {
  if (config.paymentMode === 'local') return []
  const self = config.paymentMode === 'self'
  const check = self ? 'settlement chain' : 'reconciliation'
  const fix = self ? 'X402_RPC_URL' : 'X402_RPC_URL (your own RPC of this network)'
  const fail = self ? block : warn
  const publicNote = config.rpcUrlIsDefault ? ' (the public RPC: rate-limited; X402_RPC_URL sets your own)' : ''
  try {
    const { client, problem } = await chainOf(config)
    if (problem) return [fail(check, problem, fix)]
    if (!self) return [ok(check, `pending settlements are confirmed over ${rpcOrigin(config.rpcUrl)}${publicNote}`)]
    const settler = privateKeyToAccount(config.settlerPrivateKey!).address
    const gas = await client.getBalance({ address: settler })
    if (gas === 0n)
      return [
        block(check, `the settler ${settler} holds no ETH on ${config.network}: it cannot pay gas, so nothing settles`, 'fund the settler'),
      ]
    return [ok(check, `${rpcOrigin(config.rpcUrl)}: USDC deployed; the settler ${settler} holds ${formatEther(gas)} ETH for gas`)]
  } catch (e) {
    const detail = `${rpcOrigin(config.rpcUrl)} cannot be reached: ${messageOf(e).replaceAll(config.rpcUrl, rpcOrigin(config.rpcUrl))}${self ? '' : ': pending settlements stay pending until it can'}`
    return [fail(check, detail, fix)]
  }
}
