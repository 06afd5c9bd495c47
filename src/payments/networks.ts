/** Networks the payment gate accepts, with the USDC contract that prices are paid in. */
export interface NetworkInfo {
  /** x402 v1 network name. */
  name: string
  /** CAIP-2 id used by x402 v2. */
  caip2: `eip155:${number}`
  chainId: number
  /** USDC (EIP-3009 capable) token contract. */
  asset: `0x${string}`
  /** EIP-712 domain name and version of that contract. */
  eip712: { name: string; version: string }
  testnet: boolean
}

export const NETWORKS = {
  'base-sepolia': {
    name: 'base-sepolia',
    caip2: 'eip155:84532',
    chainId: 84532,
    asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
    eip712: { name: 'USDC', version: '2' },
    testnet: true,
  },
  base: {
    name: 'base',
    caip2: 'eip155:8453',
    chainId: 8453,
    asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    eip712: { name: 'USD Coin', version: '2' },
    testnet: false,
  },
} as const satisfies Record<string, NetworkInfo>

export type NetworkName = keyof typeof NETWORKS

/** USDC has 6 decimals: "0.10" -> 100000n. Prices are decimal strings so no float ever rounds a price. */
export function usdToAtomic(usd: string): bigint {
  const m = /^(\d+)(?:\.(\d{1,6}))?$/.exec(usd)
  if (!m) throw new Error(`invalid USD amount ${usd}`)
  return BigInt(m[1]!) * 1_000_000n + BigInt((m[2] ?? '').padEnd(6, '0'))
}

/** Atomic USDC (6 decimals) as a USD string: 1234567n -> "1.234567", 100000n -> "0.10", -50000n -> "-0.05". */
export function atomicToUsd(atomic: bigint): string {
  // BigInt division truncates toward zero, so format the magnitude and put the sign in front.
  if (atomic < 0n) return `-${atomicToUsd(-atomic)}`
  const whole = atomic / 1_000_000n
  const frac = (atomic % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '')
  return `${whole}.${frac.padEnd(2, '0')}`
}
