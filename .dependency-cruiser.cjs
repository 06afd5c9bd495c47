/**
 * The layer rule of src/ (docs/development.md, "Layers"): a folder imports only from its own layer or the
 * layers below it, and nothing imports in a cycle. Checked by test/architecture/layers.test.ts (npm test).
 */
const LAYERS = [
  ['core'],
  ['catalog'],
  ['formats'],
  ['native', 'payments', 'postgres', 'data'],
  ['intelligence', 'signals', 'market-data', 'ledger-admin'],
  ['capabilities'],
  ['discovery', 'mcp', 'http'],
  ['docs', 'embedded', 'cli', 'entry'],
]

const folder = (name) => (name === 'entry' ? '^src/[^/]+\\.ts$' : `^src/${name}/`)
const below = (i) => LAYERS.slice(0, i + 1).flat()
const above = (i) => LAYERS.slice(i + 1).flat()

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle means neither side can be read or tested without the other.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...LAYERS.flatMap((layer, i) =>
      above(i).length === 0
        ? []
        : layer.map((name) => ({
            name: `layer-${name}`,
            severity: 'error',
            comment: `${name} sits above ${below(i - 1).join(', ') || 'nothing'} and below ${above(i).join(', ')}: it imports no layer above it.`,
            from: { path: folder(name) },
            to: { path: above(i).map(folder).join('|') },
          })),
    ),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    moduleSystems: ['es6'],
  },
}
