# Sourced by scripts/asan-test and scripts/fuzz-smoke: how AddressSanitizer's builds
# instrument our code.
#
# Every access is checked through a call into the sanitizer's runtime rather than
# inline code: the same checks, but the kernels are large unrolled functions, and
# inline checks made the fuzz targets' and the sanitized tests' builds several times
# longer, with fuzzing no faster (figures in docs/tuning.md, "Build time").
# shellcheck disable=SC2034  # used by the scripts that source this file
ASAN_CHECKS_AS_CALLS="-Cllvm-args=-asan-instrumentation-with-call-threshold=0"
