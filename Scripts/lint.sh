#!/usr/bin/env bash
# Checks formatting the way CI reviewers do: swift-format with the committed .swift-format.
set -euo pipefail
cd "$(dirname "$0")/.."
swift format lint --strict -r Sources Tests Snippets Fuzz Examples Scripts/Samples
