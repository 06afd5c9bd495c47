/**
 * Preloaded by `bun test` (bunfig.toml): once every file has run, names each real-part suite that was
 * skipped because its program is missing here (nginx, PostgreSQL, chromium, ...) and why, just before
 * Bun's own summary, so a green run cannot hide what it did not test. CI never skips: .ci/run installs
 * them, and a missing one fails there (required-tool.ts).
 */
import { afterAll } from 'bun:test'

afterAll(() => {
  const skipped = (globalThis as { skippedSuites?: { file: string; missing: string; why: string }[] }).skippedSuites ?? []
  if (!skipped.length) return
  const lines = skipped.map((s) => `  ${s.file}: ${s.missing} (${s.why})`)
  console.warn(`\nNot run here, ${skipped.length} real-part suite(s) (.ci/run installs what they need):\n${lines.join('\n')}`)
})
