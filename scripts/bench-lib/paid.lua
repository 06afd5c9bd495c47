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

-- The service marks answers served again from a stored result: count them, so a benchmark that
-- accidentally replays proofs (measuring the replay path, not payment) says so.
local replays = 0
response = function(status, headers, body)
  if headers["x-payment-replay"] then replays = replays + 1 end
end

done = function(summary, latency, requests)
  if summary.requests > #proofs then
    io.stderr:write(string.format("WARNING: %d requests but only %d proofs; later requests were replays\n", summary.requests, #proofs))
  end
  if replays > 0 then
    io.stderr:write(string.format("WARNING: %d answers were replays of an already used proof\n", replays))
  end
end
