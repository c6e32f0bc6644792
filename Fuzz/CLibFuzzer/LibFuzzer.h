// libFuzzer's entry point for programs that keep their own main (compiler-rt's
// FuzzerInterface.h). It is defined by the libFuzzer runtime that `-sanitize=fuzzer` links;
// the fuzz targets call it only when built with -DFUZZING, so a normal build links nothing.
#ifndef STEPWISE_LIBFUZZER_H
#define STEPWISE_LIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// Parses libFuzzer's flags from argc/argv and fuzzes UserCb, or runs it on the given inputs.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));

#endif
