//===- ArgumentTemporaries.h - Which operands are by-value temporaries ----===//
//
// The front end says, in the spawn marker's layout string, which arguments
// of a spawned call are classes passed by value through a temporary of the
// call (frontend/ArgumentLayout.cpp). The lowering places those letters on
// the call's IR operands (LowerSpawns.cpp), lists the operands on the call
// as ArgumentTemporariesAttr, "1,3" (shared/Markers.h), and reads the list
// back where it gives each temporary its own lifetime (SpawnArguments.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLUGIN_LOWER_ARGUMENTTEMPORARIES_H
#define WEFT_PLUGIN_LOWER_ARGUMENTTEMPORARIES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/InstrTypes.h"

namespace weft {

/// The operands of \p Call that \p Layout (the front end's letters) marks
/// 'T', or false if one of them has no certain place among the IR
/// arguments: letters line up with the arguments other than `sret` from
/// the front up to the first '?' and from the back up to the last.
bool placeTemporaries(llvm::CallBase *Call, llvm::StringRef Layout,
                      llvm::SmallVectorImpl<unsigned> &Temporaries);

/// Lists \p Temporaries on \p Call as ArgumentTemporariesAttr.
void listTemporaries(llvm::CallBase *Call,
                     llvm::ArrayRef<unsigned> Temporaries);

/// Whether \p Call's list names operand \p ArgNo.
bool isListedTemporary(const llvm::CallBase *Call, unsigned ArgNo);

} // namespace weft

#endif // WEFT_PLUGIN_LOWER_ARGUMENTTEMPORARIES_H
