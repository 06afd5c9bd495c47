/**
 * The networks payments are taken on (PAYMENT_NETWORKS, or X402_NETWORK for one), the address paid on
 * each (PAY_TO_<NETWORK>, else PAY_TO) and the JSON-RPC endpoint of each (X402_RPC_URL_<NETWORK>; the
 * first network may use X402_RPC_URL).
 */
import { read } from './read'
import { ConfigError } from '../core'
import { type NetworkName, networkNamed, NETWORKS, type PaymentMode, type PaymentOffer, variableSuffix } from '../payments'
import { DEV_PAY_TO } from './settings'
import { type BatchSettings, readBatch } from './batch-settings'

/** Public JSON-RPC endpoints of the networks, for reconciling pending settlements when no RPC is set. */
export const PUBLIC_RPC: Record<NetworkName, string> = {
  base: 'https://mainnet.base.org',
  'base-sepolia': 'https://sepolia.base.org',
  polygon: 'https://polygon-rpc.com',
  'polygon-amoy': 'https://rpc-amoy.polygon.technology',
  arbitrum: 'https://arb1.arbitrum.io/rpc',
  'arbitrum-sepolia': 'https://sepolia-rollup.arbitrum.io/rpc',
}

export interface NetworkSettings {
  /** In the order the 402 offers them; the first is the primary. */
  networks: readonly NetworkName[]
  /** With batch-settlement on the networks of BATCH_NETWORKS (batch-settings.ts). */
  offers: readonly PaymentOffer[]
  batch?: BatchSettings
  /** Each network's JSON-RPC endpoint, and whether it is the public default. */
  rpc: Readonly<Partial<Record<NetworkName, { url: string; isDefault: boolean }>>>
  /**
   * Every known network's endpoint for reconciling: a payment taken on a network since dropped from
   * PAYMENT_NETWORKS is still read on its own chain (its X402_RPC_URL_<NETWORK>, else the public one).
   */
  reconcileRpc: Readonly<Record<NetworkName, string>>
  /** The networks paid to the development address (neither PAY_TO nor their PAY_TO_<NETWORK> set). */
  paidToDevAddress: readonly NetworkName[]
}

function listedNetworks(env: Record<string, string | undefined>): NetworkName[] {
  const single = read(env, 'X402_NETWORK') as NetworkName | undefined
  const list = read(env, 'PAYMENT_NETWORKS') as string | undefined
  if (!list) return [single ?? 'base-sepolia']
  const networks: NetworkName[] = []
  for (const entry of list.split(',')) {
    const name = networkNamed(entry)
    if (!name)
      throw new ConfigError(
        'PAYMENT_NETWORKS',
        `${JSON.stringify(entry.trim())} is not a network this service takes: ${Object.keys(NETWORKS).join(', ')} (or their CAIP-2 ids, eip155:137)`,
      )
    if (networks.includes(name)) throw new ConfigError('PAYMENT_NETWORKS', `lists ${name} twice`)
    networks.push(name)
  }
  if (single && single !== networks[0])
    throw new ConfigError('X402_NETWORK', `is ${single}, but PAYMENT_NETWORKS starts with ${networks[0]}: set one of them`)
  return networks
}

/**
 * PAY_TO_<NETWORK> of a network not listed, or X402_RPC_URL_<NETWORK> of no known network, is a typo or a
 * leftover: said, not ignored. (An RPC of a known network not listed still reconciles its old payments.)
 */
function refuseStrays(env: Record<string, string | undefined>, networks: readonly NetworkName[]): void {
  const known = Object.keys(NETWORKS) as NetworkName[]
  for (const name of Object.keys(env)) {
    const [, kind, suffix] = /^(PAY_TO|X402_RPC_URL)_(.+)$/.exec(name) ?? []
    if (!suffix || !env[name]) continue
    const allowed = kind === 'PAY_TO' ? networks : known
    if (!allowed.some((n) => variableSuffix(n) === suffix))
      throw new ConfigError(
        name,
        kind === 'PAY_TO'
          ? `names no network of PAYMENT_NETWORKS (${networks.map(variableSuffix).join(', ')})`
          : `names no network this service knows (${known.map(variableSuffix).join(', ')})`,
      )
  }
}

export function readNetworks(
  env: Record<string, string | undefined>,
  options: { payTo: `0x${string}` | undefined; paymentMode: PaymentMode },
): NetworkSettings {
  const networks = listedNetworks(env)
  refuseStrays(env, networks)
  const own = networks.map((name) => read(env, 'PAY_TO_<NETWORK>', `PAY_TO_${variableSuffix(name)}`) as `0x${string}` | undefined)
  const exact = networks.map((name, index) => ({ network: NETWORKS[name], payTo: own[index] ?? options.payTo ?? DEV_PAY_TO }))
  const { offers, batch } = readBatch(env, exact, options.paymentMode)
  const paidToDevAddress = options.payTo ? [] : networks.filter((_, index) => !own[index])
  const rpc: Partial<Record<NetworkName, { url: string; isDefault: boolean }>> = {}
  networks.forEach((name, index) => {
    const variable = `X402_RPC_URL_${variableSuffix(name)}`
    const own = (read(env, 'X402_RPC_URL_<NETWORK>', variable) ?? (index === 0 ? read(env, 'X402_RPC_URL') : undefined)) as
      | string
      | undefined
    if (!own && options.paymentMode === 'self')
      throw new ConfigError(index === 0 ? 'X402_RPC_URL' : variable, `is required when PAYMENT_MODE=self (the RPC that settles on ${name})`)
    rpc[name] = { url: own ?? PUBLIC_RPC[name], isDefault: !own }
  })
  const reconcileRpc = Object.fromEntries(
    (Object.keys(NETWORKS) as NetworkName[]).map((name) => [
      name,
      rpc[name]?.url ??
        (read(env, 'X402_RPC_URL_<NETWORK>', `X402_RPC_URL_${variableSuffix(name)}`) as string | undefined) ??
        PUBLIC_RPC[name],
    ]),
  ) as Record<NetworkName, string>
  return { networks, offers, rpc, reconcileRpc, paidToDevAddress, ...(batch ? { batch } : {}) }
}

/** Production pays no development address: PAY_TO, or PAY_TO_<NETWORK> for every network (`unpaid`, once they are read). */
export function requirePayee(
  env: Record<string, string | undefined>,
  payTo: string | undefined,
  unpaid: readonly NetworkName[] = [],
): void {
  if (!payTo && !Object.keys(env).some((name) => name.startsWith('PAY_TO_') && env[name]))
    throw new ConfigError('PAY_TO', 'is required when NODE_ENV=production (the address that receives payments)')
  if (unpaid.length > 0)
    throw new ConfigError(
      'PAY_TO',
      `is required when NODE_ENV=production (the address that receives payments; or PAY_TO_<NETWORK> for each of ${unpaid.join(', ')})`,
    )
}
