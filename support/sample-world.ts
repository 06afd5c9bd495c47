/** A sample world written by `scripts/generate-sample-data.ts` into a fresh folder, for the suites that need a larger or long-tail one. */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dir, '..')

/** The folder the generator wrote; `args` are its options (`--scale N`, `--long-tail`, `--cities K`). Throws with its output when it fails. */
export async function generateSampleWorld(name: string, args: string[] = []): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), `${name}-`))
  const proc = Bun.spawn([process.execPath, join(ROOT, 'scripts/generate-sample-data.ts'), out, ...args], {
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()])
  if (code !== 0) throw new Error(`generate-sample-data.ts ${args.join(' ')} exited with ${code}: ${err}`)
  return out
}
