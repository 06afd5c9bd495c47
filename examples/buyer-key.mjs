/**
 * The buyer's wallet for the examples: BUYER_PRIVATE_KEY (0x and 64 hex digits), or a throwaway key made
 * now. A throwaway key holds no USDC, so only a server in development payment mode (proofs checked
 * offline, no money moves) accepts its payments; the examples say so on stderr.
 */
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'

export function buyerAccount() {
  const given = process.env.BUYER_PRIVATE_KEY
  if (given) {
    if (!/^0x[0-9a-fA-F]{64}$/.test(given)) throw new Error('BUYER_PRIVATE_KEY must be 0x followed by 64 hex digits')
    return privateKeyToAccount(given)
  }
  const account = privateKeyToAccount(generatePrivateKey())
  console.error(
    `No BUYER_PRIVATE_KEY: paying with a throwaway key (${account.address}). It holds no USDC, so only a server in ` +
      'development payment mode accepts it. To pay a live seller, set BUYER_PRIVATE_KEY to a wallet holding USDC on its network.',
  )
  return account
}
