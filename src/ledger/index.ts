/**
 * The face of ledger/: the payment ledger's contract and its engines (SQLite, PostgreSQL), export and backup.
 */
export { backupLedger } from './backup'
export type { BackupResult } from './backup'
export type { Business } from './business'
export type {
  ChannelSummary,
  LedgerRetention,
  PaymentClaim,
  PaymentEvent,
  PaymentEventKind,
  PaymentLedger,
  PaymentState,
  PendingPayment,
  RedemptionEntry,
  RedemptionKind,
  RedemptionTotal,
  SpendRecord,
  StoredArtifact,
} from './contract'
export { STATES, exportCsv, exportCsvPostgres } from './export'
export { postgresLedgerState, sqliteLedgerPayments } from './health'
export { OutputFileError, checkDestination, discard, publish, tempPathFor } from './output-file'
export { migrate } from './postgres-migrations'
export { PostgresLedger } from './postgres'
export { isoUtc, marginByRoute, money, noRevenue, readReport, readReportPostgres, reportJson, revenueJson, totals } from './revenue-report'
export type { GroupBy, Report, RevenueRow, RevenueTotals } from './revenue-report'
export { SqliteLedger } from './sqlite'
