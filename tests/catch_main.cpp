// The one Catch2 main shared by every test executable (native and wasm), compiled once per build.
// The seed policy of every random test (README "Tests"): a fresh seed each run unless one is
// given, always printed, and that seed replays the run:
//   SWIGLU_TEST_SEED=N ctest ...     (tools/test.sh picks one for the whole run and prints it)
//   core_tests --rng-seed N          (Catch's own flag wins)
// Random tests draw from Catch::rngSeed().
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char* argv[]) {
  Catch::Session session;
  if (int rc = session.applyCommandLine(argc, argv)) return rc;
  bool given = false;
  for (int i = 1; i < argc; i++) given = given || std::strncmp(argv[i], "--rng-seed", 10) == 0;
  if (!given) {
    const char* env = std::getenv("SWIGLU_TEST_SEED");
    const unsigned fresh = unsigned(std::chrono::system_clock::now().time_since_epoch().count() % 2147483647u);
    session.configData().rngSeed = env && *env ? unsigned(std::strtoul(env, nullptr, 10)) : (fresh ? fresh : 1u);
  }
  const unsigned seed = session.configData().rngSeed;
  std::printf("seed %u (replay: SWIGLU_TEST_SEED=%u, or --rng-seed %u)\n", seed, seed, seed);
  std::fflush(stdout);
  return session.run();
}
