// The declaration in include/CFuzzerDriver.h is all this target provides; libFuzzer
// (linked by -sanitize=fuzzer) defines the function.
#include "CFuzzerDriver.h"
