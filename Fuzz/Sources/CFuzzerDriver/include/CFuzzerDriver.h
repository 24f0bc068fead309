// libFuzzer's driver, which the fuzz binary calls from its own main: SwiftPM renames an
// executable's `main` in debug builds, so libFuzzer's own `main` cannot be relied on.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
