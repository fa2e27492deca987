//===- race_abi.h - What the race runtime defines for compiled code -------===//
//
// The hooks the pass emits in race mode and the anchor every race-mode
// module references are the WEFT_RACE entries of weft/runtime_abi.def,
// declared from it by weft/frame_abi.h, so that a definition here that
// drifts from its entry does not compile. Besides them, the call by which
// the runtime's reducers announce their views (views.cpp, hyper.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_ANALYSIS_RACE_RACE_ABI_H
#define WEFT_RUNTIME_ANALYSIS_RACE_RACE_ABI_H

#include "weft/frame_abi.h"

#include <cstddef>

extern "C" void __weft_race_reducer_view(void *View, std::size_t Size,
                                         int Live);

#endif // WEFT_RUNTIME_ANALYSIS_RACE_RACE_ABI_H
