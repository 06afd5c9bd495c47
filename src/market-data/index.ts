/**
 * The face of market-data/: the monthly destination spend and flight-arrival routes over DuckDB.
 */
export { flightHandlers } from './flights'
export type { MarketServices } from './market-services'
export { spendHandlers } from './spend'
