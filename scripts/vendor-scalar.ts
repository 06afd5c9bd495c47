/**
 * The API reference's browser bundle, taken from npm: `@scalar/api-reference`'s `dist/browser/standalone.js`
 * (MIT, its licence banner kept at the top) is the one file of that package the service serves, so it is
 * kept in the repository instead of installing the package and its ~200 dependencies (Vue, icons, an AI
 * SDK) with every `npm install`. Run this to move to another version (its banner names the version; a
 * test checks it against docs/pages.md), then check the reference page (test/docs/pages.test.ts).
 *
 *   bun scripts/vendor-scalar.ts <version>
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const version = process.argv[2]
if (!version) throw new Error('usage: bun scripts/vendor-scalar.ts <version of @scalar/api-reference>')
const dir = mkdtempSync(join(tmpdir(), 'vendor-scalar-'))
try {
  const run = (command: string[]) => {
    const done = Bun.spawnSync(command, { cwd: dir, stdout: 'pipe', stderr: 'pipe' })
    if (done.exitCode !== 0) throw new Error(`${command.join(' ')}: ${done.stderr.toString()}`)
    return done.stdout.toString().trim()
  }
  const tarball = run(['npm', 'pack', `@scalar/api-reference@${version}`, '--silent'])
  run(['tar', '-xzf', tarball])
  const to = resolve(import.meta.dir, '../src/http/assets/scalar-api-reference.js')
  cpSync(join(dir, 'package/dist/browser/standalone.js'), to)
  console.log(`wrote ${to}`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
