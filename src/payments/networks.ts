/**
 * Networks the payment gate can accept, each with Circle's USDC contract that prices are paid in and
 * that contract's EIP-712 domain. Source: `@x402/evm`'s default assets (@x402/evm:src/defaultAssets.ts) for every
 * network but Polygon Amoy, which is x402 v1's (x402:src/types/shared/evm/config.ts).
 */
export interface NetworkInfo {
  /** Our name for it, as PAYMENT_NETWORKS takes it. */
  name: string
  /** x402 v1 network name, or null when x402 v1 has none (v1 clients cannot pay there). */
  v1: string | null
  /** CAIP-2 id used by x402 v2. */
  caip2: `eip155:${number}`
  chainId: number
  /** USDC (EIP-3009 capable) token contract. */
  asset: `0x${string}`
  /** EIP-712 domain name and version of that contract. */
  eip712: { name: string; version: string }
  testnet: boolean
  /** Seconds between blocks, about (what a look-back by time comes to in blocks). */
  blockSeconds: number
}

export const NETWORKS = {
  base: {
    name: 'base',
    v1: 'base',
    caip2: 'eip155:8453',
    chainId: 8453,
    asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    eip712: { name: 'USD Coin', version: '2' },
    testnet: false,
    blockSeconds: 2,
  },
  'base-sepolia': {
    name: 'base-sepolia',
    v1: 'base-sepolia',
    caip2: 'eip155:84532',
    chainId: 84532,
    asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
    eip712: { name: 'USDC', version: '2' },
    testnet: true,
    blockSeconds: 2,
  },
  polygon: {
    name: 'polygon',
    v1: 'polygon',
    caip2: 'eip155:137',
    chainId: 137,
    asset: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
    eip712: { name: 'USD Coin', version: '2' },
    testnet: false,
    blockSeconds: 2,
  },
  'polygon-amoy': {
    name: 'polygon-amoy',
    v1: 'polygon-amoy',
    caip2: 'eip155:80002',
    chainId: 80002,
    asset: '0x41E94Eb019C0762f9Bfcf9Fb1E58725BfB0e7582',
    eip712: { name: 'USDC', version: '2' },
    testnet: true,
    blockSeconds: 2,
  },
  arbitrum: {
    name: 'arbitrum',
    v1: null,
    caip2: 'eip155:42161',
    chainId: 42161,
    asset: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
    eip712: { name: 'USD Coin', version: '2' },
    testnet: false,
    blockSeconds: 0.25,
  },
  'arbitrum-sepolia': {
    name: 'arbitrum-sepolia',
    v1: null,
    caip2: 'eip155:421614',
    chainId: 421614,
    asset: '0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d',
    eip712: { name: 'USD Coin', version: '2' },
    testnet: true,
    blockSeconds: 0.25,
  },
} as const satisfies Record<string, NetworkInfo>

export type NetworkName = keyof typeof NETWORKS

/** A network by our name or its CAIP-2 id (`polygon`, `eip155:137`), case-insensitively; undefined when unknown. */
export function networkNamed(text: string): NetworkName | undefined {
  const wanted = text.trim().toLowerCase()
  return (Object.keys(NETWORKS) as NetworkName[]).find((name) => name === wanted || NETWORKS[name].caip2 === wanted)
}

/**
 * x402 `batch-settlement` on a network (BATCH_NETWORKS): the buyer deposits once into the escrow and
 * pays each request with a signed cumulative voucher; the seller claims and settles them in batches.
 */
export interface BatchOffer {
  /** The address of the seller's receiver-authorizer key, which signs claims and refunds. */
  receiverAuthorizer: `0x${string}`
  /** Seconds a payer waits between asking to withdraw and withdrawing what is unclaimed. */
  withdrawDelaySeconds: number
  /** The smallest deposit announced, atomic USDC (at least one request's price). */
  minDepositAtomic: bigint
}

/** One network this service takes USDC on, the address paid there, and batch-settlement when offered there. */
export interface PaymentOffer {
  network: NetworkInfo
  payTo: `0x${string}`
  batch?: BatchOffer
}

/** A network's part of its variables' names: `polygon-amoy` -> `POLYGON_AMOY` (X402_RPC_URL_POLYGON_AMOY, PAY_TO_…). */
export const variableSuffix = (name: NetworkName) => name.toUpperCase().replaceAll('-', '_')
