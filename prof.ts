import { testRuntime } from './test/helpers/runtime'
const rt = await testRuntime()
const url = 'http://localhost:3000/v1/market-data/flights/summary?destination=Tokyo'
const N = Number(process.argv[2] ?? 20000)
for (let i = 0; i < 2000; i++) await (await rt.app.handle(new Request(url))).text()
let t = performance.now()
for (let i = 0; i < N; i++) await (await rt.app.handle(new Request(url))).text()
console.log('402 path µs/req', ((performance.now() - t) / N) * 1000)
t = performance.now()
rt.close()
