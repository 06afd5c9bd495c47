/** Amounts of USDC: prices are decimal strings of USD, payments atomic units (6 decimals). */

/** USDC has 6 decimals: "0.10" -> 100000n. Prices are decimal strings so no float ever rounds a price. */
export function usdToAtomic(usd: string): bigint {
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(usd)
  if (!match) throw new Error(`invalid USD amount ${usd}`)
  return BigInt(match[1]!) * 1_000_000n + BigInt((match[2] ?? '').padEnd(6, '0'))
}

/** Atomic USDC (6 decimals) as a USD string: 1234567n -> "1.234567", 100000n -> "0.10", -50000n -> "-0.05". */
export function atomicToUsd(atomic: bigint): string {
  // BigInt division truncates toward zero, so format the magnitude and put the sign in front.
  if (atomic < 0n) return `-${atomicToUsd(-atomic)}`
  const whole = atomic / 1_000_000n
  const frac = (atomic % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '')
  return `${whole}.${frac.padEnd(2, '0')}`
}
