/** Preloaded by `bun test` (bunfig.toml): once every file has run, removes the folders temp-dirs.ts made. */
import { rmSync } from 'node:fs'
import { afterAll } from 'bun:test'
import { madeTempDirs } from './temp-dirs'

afterAll(() => {
  for (const dir of madeTempDirs().splice(0)) rmSync(dir, { recursive: true, force: true })
})
