// Regenerates the tables in docs/ (routes, configuration, errors, intelligence rules) from their sources.
// `bun scripts/doc-tables.ts --check` exits 1 when one is out of date.
import { resolve } from 'node:path'
import { GENERATED, renderDoc } from '../src/docs/doc-tables'

const check = process.argv.includes('--check')
let stale = 0
for (const file of Object.keys(GENERATED)) {
  const path = resolve(import.meta.dir, '..', file)
  const current = await Bun.file(path).text()
  const next = renderDoc(file, current)
  if (next === current) continue
  stale++
  if (check) console.error(`${file}: generated tables are out of date: run \`npm run docs:tables\`.`)
  else await Bun.write(path, next)
}
if (check && stale) process.exit(1)
console.log(
  check
    ? 'Generated tables are up to date.'
    : stale
      ? `Regenerated the tables of ${stale} file(s).`
      : 'Generated tables already up to date.',
)
