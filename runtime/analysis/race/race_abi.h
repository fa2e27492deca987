//===- race_abi.h - What the race runtime defines for compiled code -------===//
//
// The hooks the pass emits in race mode and the anchor every race-mode
// module references are the WEFT_RACE entries of weft/runtime_abi.def,
// declared from it by weft/frame_abi.h, so that a definition here that
// drifts from its entry does not compile. Besides them, the calls by which
// the runtime's reducers announce a reducer's life and ask for the calling
// strand's view (views.cpp, hyper.cpp; strand_views.h).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_ANALYSIS_RACE_RACE_ABI_H
#define WEFT_RUNTIME_ANALYSIS_RACE_RACE_ABI_H

#include "weft/frame_abi.h"

#include "weft/reducer.h"

extern "C" {
/// \p R was registered (\p Live) or is unregistered.
void __weft_race_reducer(__weft_reducer *R, int Live);
/// The calling strand's view of \p R in the race run.
void *__weft_race_view(__weft_reducer *R);
}

#endif // WEFT_RUNTIME_ANALYSIS_RACE_RACE_ABI_H
