// The seed policy of every random test under Node (tests/catch_main.cpp is the C++ side): a fresh
// seed each run unless one is given (--seed N, or SWIGLU_TEST_SEED=N, which tools/test.sh sets
// for a whole run), always printed, and that seed replays the run.
export function testSeed(argv = process.argv) {
  const i = argv.indexOf("--seed");
  const given = i >= 0 ? argv[i + 1] : process.env.SWIGLU_TEST_SEED;
  const seed = given ? Number(given) >>> 0 : (Date.now() % 2147483647) || 1;
  console.log(`seed ${seed} (replay: SWIGLU_TEST_SEED=${seed}, or --seed ${seed})`);
  return seed;
}

// next(n): a whole number in [0, n) from a xorshift32 stream over `seed`, the same in every Node.
export function seededNext(seed) {
  let state = seed >>> 0 || 1;
  return (n) => { state ^= state << 13; state >>>= 0; state ^= state >>> 17; state ^= state << 5; state >>>= 0; return state % n; };
}
