/**
 * `doctor`'s payment checks: the mode, where the money goes, the network, and whether the facilitator or
 * the chain that settles can be reached and does what this service will ask of it.
 */
import { createPublicClient, formatEther, http, type PublicClient } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { type Config, DEV_PAY_TO } from '../../config'
import {
  CDP_FACILITATOR_URL,
  connectFacilitator,
  FacilitatorAuthError,
  type NetworkInfo,
  type NetworkName,
  refusedStatus,
  variableSuffix,
} from '../../payments'
import { block, CHECK_TIMEOUT_MS, messageOf, ok, warn, type Finding } from './doctor-finding'
import { urlOrigin } from '../../core'

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
    return ok(check, `facilitator: ${urlOrigin(config.facilitatorUrl ?? CDP_FACILITATOR_URL)} verifies and settles${deferred}`)
  return ok(check, `self: this service verifies and settles over ${rpcOrigin(config.rpcUrl)} with its own key${deferred}`)
}

export function payTo(config: Readonly<Config>): Finding {
  const check = 'pay-to address'
  const fix = 'PAY_TO=0x… (your address), or PAY_TO_<NETWORK> for one network'
  for (const { network, payTo: address } of config.offers) {
    const on = config.offers.length > 1 ? ` on ${network.name}` : ''
    if (address.toLowerCase() === DEV_PAY_TO.toLowerCase())
      return block(check, `the address paid${on} is the development address ${DEV_PAY_TO} (anvil's well-known test account #9)`, fix)
    if (ZERO_ADDRESS.test(address)) return block(check, `the address paid${on} is the zero address: USDC sent there is lost`, fix)
  }
  return ok(check, `USDC goes to ${[...new Set(config.offers.map((o) => o.payTo))].join(', ')}`)
}

export function network(config: Readonly<Config>): Finding {
  const named = config.offers.map(({ network: info }) => `${info.name} (${info.caip2})`).join(', ')
  const testnets = config.offers.filter(({ network: info }) => info.testnet).map(({ network: info }) => info.name)
  if (testnets.length > 0)
    return warn(
      'network',
      `${named}: ${testnets.join(', ')} ${testnets.length === 1 ? 'is a test network' : 'are test networks'}: buyers pay with test USDC, worth nothing`,
      'PAYMENT_NETWORKS (or X402_NETWORK) of mainnets to take real USDC (keep the testnets for staging)',
    )
  return ok('network', named)
}

/** Facilitator mode: `/supported` answers with our credentials and lists the exact scheme on our network. */
export async function facilitator(config: Readonly<Config>): Promise<Finding[]> {
  if (config.paymentMode !== 'facilitator') return []
  const check = 'facilitator'
  const credentials = config.cdpApiKey ? 'CDP_API_KEY_ID and CDP_API_KEY_SECRET' : 'X402_FACILITATOR_HEADERS'
  let connection
  try {
    connection = await connectFacilitator({ ...config, facilitatorTimeoutMs: Math.min(config.facilitatorTimeoutMs, CHECK_TIMEOUT_MS) })
  } catch (error) {
    return [block(check, messageOf(error), credentials)]
  }
  const { url, auth } = connection
  try {
    const supported = await connection.client.getSupported()
    if (!Array.isArray(supported?.kinds))
      return [block(check, `${url}/supported answered something that is not a facilitator's list of kinds`, 'X402_FACILITATOR_URL')]
    // A v2 proof reaches the facilitator under the CAIP-2 id, a v1 proof under the v1 name (facilitator-settler.ts).
    const lists = (version: number, name: string | null) =>
      supported.kinds.some((k) => k.scheme === 'exact' && k.x402Version === version && k.network === name)
    const infos = config.offers.map((o) => o.network)
    const missing = infos.filter((info) => !lists(2, info.caip2))
    if (missing.length > 0) {
      const listed = supported.kinds.map((k) => `${k.scheme} on ${k.network} (v${k.x402Version})`).join(', ') || 'nothing'
      return [
        block(
          check,
          `${url} answers but does not settle x402 v2 exact payments on ${missing.map((i) => `${i.name} (${i.caip2})`).join(', ')}; it lists ${listed}`,
          'PAYMENT_NETWORKS (or X402_NETWORK), or X402_FACILITATOR_URL (a facilitator for those networks)',
        ),
      ]
    }
    const settles = ok(check, `${url} settles exact on ${infos.map((i) => i.caip2).join(', ')}; ${auth}`)
    const noV1 = infos.filter((info) => info.v1 !== null && !lists(1, info.v1)).map((info) => info.name)
    if (noV1.length === 0) return [settles]
    return [settles, warn(check, `${url} does not list x402 v1 payments on ${noV1.join(', ')}: v1 clients (x402-fetch) cannot pay there`)]
  } catch (error) {
    if (error instanceof FacilitatorAuthError) return [block(check, messageOf(error), credentials)]
    const status = refusedStatus(error)
    if (status === 401 || status === 403)
      return [block(check, `${url} refused this service's credentials (HTTP ${status}): every payment would fail`, credentials)]
    return [block(check, `${url} cannot be reached: ${messageOf(error)}`, 'X402_FACILITATOR_URL (and that the facilitator is running)')]
  }
}

/** The chain behind a network's RPC: is it that network, with USDC on it. */
async function chainOf(info: NetworkInfo, rpcUrl: string): Promise<{ client: PublicClient; problem?: string }> {
  const client = createPublicClient({ transport: http(rpcUrl, { timeout: CHECK_TIMEOUT_MS, retryCount: 0 }) })
  const chainId = await client.getChainId()
  if (chainId !== info.chainId) return { client, problem: `${rpcOrigin(rpcUrl)} is chain ${chainId}, not ${info.name} (${info.chainId})` }
  const code = await client.getCode({ address: info.asset })
  if (!code || code === '0x')
    return { client, problem: `${rpcOrigin(rpcUrl)} has no contract at ${info.name}'s USDC address ${info.asset}` }
  return { client }
}

/**
 * Each network's RPC. Self mode: it is that network, USDC is there and the settler can pay gas.
 * Facilitator mode: the reconciler reads settlements over it; when it cannot, pending settlements wait (a warning).
 */
export async function chain(config: Readonly<Config>): Promise<Finding[]> {
  if (config.paymentMode === 'local') return []
  return Promise.all(config.offers.map(({ network: info }) => chainFinding(config, info)))
}

async function chainFinding(config: Readonly<Config>, info: NetworkInfo): Promise<Finding> {
  const self = config.paymentMode === 'self'
  const check = self ? 'settlement chain' : 'reconciliation'
  const { url, isDefault } = config.rpc[info.name as NetworkName]!
  const variable = info.name === config.network ? 'X402_RPC_URL' : `X402_RPC_URL_${variableSuffix(info.name as NetworkName)}`
  const fix = self ? variable : `${variable} (your own RPC of ${info.name})`
  const fail = self ? block : warn
  const publicNote = isDefault ? ` (the public RPC: rate-limited; ${variable} sets your own)` : ''
  try {
    const { client, problem } = await chainOf(info, url)
    if (problem) return fail(check, problem, fix)
    if (!self) return ok(check, `${info.name}: pending settlements are confirmed over ${rpcOrigin(url)}${publicNote}`)
    const settler = privateKeyToAccount(config.settlerPrivateKey!).address
    const gas = await client.getBalance({ address: settler })
    if (gas === 0n) return block(check, `the settler ${settler} holds no gas on ${info.name}: nothing settles there`, 'fund the settler')
    return ok(check, `${info.name} over ${rpcOrigin(url)}: USDC deployed; the settler ${settler} holds ${formatEther(gas)} for gas`)
  } catch (error) {
    const why = messageOf(error).replaceAll(url, rpcOrigin(url))
    return fail(
      check,
      `${info.name}: ${rpcOrigin(url)} cannot be reached: ${why}${self ? '' : '; pending settlements stay pending until it can'}`,
      fix,
    )
  }
}
