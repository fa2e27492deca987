//===- ArgumentTemporaries.cpp - Which operands are by-value temporaries --===//
//
// The front end's letters describe the call as the source passes it; the
// IR call may pass a struct as one argument, two, or none, and may add a
// hidden `sret` one. So the letters are placed on the IR operands only
// where their place is certain, and the list the lowering keeps is of IR
// operand numbers (ArgumentTemporaries.h).
//
//===----------------------------------------------------------------------===//

#include "lower/ArgumentTemporaries.h"
#include "shared/Markers.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Attributes.h"

#include <string>

using namespace llvm;

namespace weft {

bool placeTemporaries(CallBase *Call, StringRef Layout,
                      SmallVectorImpl<unsigned> &Temporaries) {
  SmallVector<unsigned, 8> Operands;
  for (unsigned I = 0, E = Call->arg_size(); I != E; ++I)
    if (!Call->paramHasAttr(I, Attribute::StructRet))
      Operands.push_back(I);
  size_t Letters = Layout.size(), Front = 0, Back = 0;
  if (!Layout.contains('?') && Letters != Operands.size())
    return false; // not the call the front end described
  while (Front < Letters && Front < Operands.size() && Layout[Front] != '?')
    ++Front;
  while (Back < Letters - Front && Back < Operands.size() - Front &&
         Layout[Letters - 1 - Back] != '?')
    ++Back;
  for (size_t I = 0; I != Letters; ++I) {
    if (Layout[I] != 'T')
      continue;
    unsigned Operand;
    if (I < Front)
      Operand = Operands[I];
    else if (I >= Letters - Back)
      Operand = Operands[Operands.size() - (Letters - I)];
    else
      return false;
    if (!Call->getArgOperand(Operand)->getType()->isPointerTy())
      return false;
    Temporaries.push_back(Operand);
  }
  return true;
}

void listTemporaries(CallBase *Call, ArrayRef<unsigned> Temporaries) {
  std::string List;
  for (unsigned Operand : Temporaries)
    List += (List.empty() ? "" : ",") + utostr(Operand);
  Call->addFnAttr(
      Attribute::get(Call->getContext(), ArgumentTemporariesAttr, List));
}

bool isListedTemporary(const CallBase *Call, unsigned ArgNo) {
  StringRef List =
      Call->getFnAttr(ArgumentTemporariesAttr).getValueAsString();
  SmallVector<StringRef, 4> Operands;
  List.split(Operands, ',', -1, /*KeepEmpty=*/false);
  return any_of(Operands, [&](StringRef Operand) {
    unsigned N;
    return !Operand.getAsInteger(10, N) && N == ArgNo;
  });
}

} // namespace weft
