/**
 * The face of postgres/: the PostgreSQL client and the state instances share.
 */
export { PostgresAnswerCache } from './answer-cache'
export { Postgres, SchemaTooNew, redactUrl } from './client'
export { InstanceRegistry, LEASE_SECONDS } from './instances'
export { PostgresRateLimiter } from './rate-buckets'
export { PostgresSessions } from './session-store'
