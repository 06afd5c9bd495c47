import { DEV_PAY_TO } from '../src/config/config'
import { NETWORKS, type PaymentOffer } from '../src/payments/networks'

/** The development offer: Base Sepolia's USDC, paid to the development address (what a default config offers). */
export const DEV_OFFER: PaymentOffer = { network: NETWORKS['base-sepolia'], payTo: DEV_PAY_TO }
