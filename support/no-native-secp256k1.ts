// Preload (bun --preload) that makes every prebuilt secp256k1 binding fail to load, as on a platform the
// package ships none for: src/payments/chain/secp256k1.ts must then fall back to @noble/curves and say why.
import { plugin } from 'bun'

plugin({
  name: 'no libsecp256k1',
  setup(build) {
    build.onResolve({ filter: /^secp256k1\/prebuilds\// }, () => ({ path: 'unavailable', namespace: 'no-native-secp256k1' }))
    build.onLoad({ filter: /.*/, namespace: 'no-native-secp256k1' }, () => ({
      contents: 'throw new Error("simulated: no binding here")',
      loader: 'js',
    }))
  },
})
