#!/usr/bin/env bash
# Rewrites Versions/ from the Swift sample histories in Sources/StepwiseDemo and
# Tests/StepwiseTestSupport/Samples.
# Run it after changing a sample model; SampleHistoriesTests fails until you do.
set -euo pipefail
cd "$(dirname "$0")/.."
swift run stepwise-samples --write Versions
