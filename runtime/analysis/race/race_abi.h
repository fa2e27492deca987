//===- race_abi.h - What the race runtime defines for compiled code -------===//
//
// The hooks the pass emits in race mode, the anchor every race-mode module
// references, and the call by which the runtime's reducers announce their
// views. Same signatures as include/weft/runtime_abi.def's WEFT_RACE
// entries.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_ANALYSIS_RACE_RACE_ABI_H
#define WEFT_RUNTIME_ANALYSIS_RACE_RACE_ABI_H

#include <cstddef>
#include <cstdint>

extern "C" {
std::uint32_t __weft_race_enter(void);
void __weft_race_spawn(std::uint32_t Record);
void __weft_race_continue(std::uint32_t Record);
void __weft_race_sync(std::uint32_t Record);
void __weft_race_exit(std::uint32_t Record);
void __weft_race_anchor(void);
void __weft_race_reducer_view(void *View, std::size_t Size, int Live);
}

#endif // WEFT_RUNTIME_ANALYSIS_RACE_RACE_ABI_H
