// Regenerates the README tables (routes, configuration, errors) from their sources.
// `bun scripts/readme-routes.ts --check` exits 1 when README.md is out of date.
import { resolve } from 'node:path'
import { renderReadme } from '../src/docs/readme-tables'

const path = resolve(import.meta.dir, '../README.md')
const current = await Bun.file(path).text()
const next = renderReadme(current)
if (process.argv.includes('--check')) {
  if (next !== current) {
    console.error('README.md tables are out of date: run `npm run readme:routes`.')
    process.exit(1)
  }
  console.log('README.md tables are up to date.')
} else {
  await Bun.write(path, next)
  console.log(next === current ? 'README.md already up to date.' : 'README.md tables regenerated.')
}
