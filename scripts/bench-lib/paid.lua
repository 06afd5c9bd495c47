-- wrk script: each request carries the next unused proof from PROOFS (one base64 line each).
-- Run with one wrk thread so every proof is used exactly once.
local proofs = {}
local i = 0
local path = os.getenv("BENCH_PATH")
for line in io.lines(os.getenv("PROOFS")) do proofs[#proofs + 1] = line end

request = function()
  i = i + 1
  if i > #proofs then i = 1 end -- out of proofs: reuse (the server answers 200 from the stored result)
  return wrk.format("GET", path, { ["x402-payment"] = proofs[i] })
end

done = function(summary, latency, requests)
  if summary.requests > #proofs then
    io.stderr:write(string.format("WARNING: %d requests but only %d proofs; later requests were replays\n", summary.requests, #proofs))
  end
end
