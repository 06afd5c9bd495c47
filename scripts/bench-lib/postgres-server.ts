// A throwaway PostgreSQL for the ledger benchmark (the same cluster the tests start: Debian's binaries,
// a temp dir, trust auth on 127.0.0.1). Prints its URL, then lives until it is killed; the cluster and
// its directory go with it.
import { startPostgres } from '../../support/postgres'

const pg = await startPostgres()
console.log(pg.url)
const stop = async () => {
  await pg.destroy()
  process.exit(0)
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
setInterval(() => {}, 1 << 30)
