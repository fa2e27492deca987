//===- SpawnHelper.cpp - Outlining a spawned call and its result window ---===//
//
// The victim of a steal runs the spawn's window (the call, then the stores
// of its result) while a thief runs the continuation in the same coroutine
// frame. coro-split reloads a value that lives in the frame at the start of
// each block that uses it. For a plain call the window shares the push's
// block, so its reloads happen before the push, before any thief can move
// on. An invoke's window is in its normal destination, after the child
// returns: a reload there could read a slot (a loop index, say) that the
// thief has already advanced, and store the result to the wrong place.
//
// So such a window moves into a helper function, as OpenCilk's spawn helpers
// do; the parent evaluates every operand before the push and passes it:
//
//   push; %r = invoke @f(%a) to %ok ...      push; invoke @fn.weft.spawn(%a, %dst)
//   ok: store volatile %r, ptr %dst                  to %ok ...
//                                             define internal void @fn.weft.spawn(%a, %dst) noinline {
//                                               %r = call @f(%a)
//                                               store volatile %r, ptr %dst
//                                             }
//
// A window whose operands are all stable (allocas, arguments, constants) has
// nothing to reload wrongly and stays inline: fib's result slot is an alloca.
// In a loop, a window that uses a statement temporary is outlined too,
// although the temporary is an alloca here: it becomes each clone's own
// alloca (DynamicAllocas.cpp). Reloaded from the frame after the child
// returns, its address would be the thief's next iteration's; each use now
// computes it anew, so this is a second guard, and the helper receives the
// address before the push like any other operand.
//
//===----------------------------------------------------------------------===//

#include "lower/SpawnLowering.h"
#include "shared/Markers.h"

#include "llvm/IR/Attributes.h"
#include "llvm/IR/CFG.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace weft {
namespace {

/// Values the window reads from outside itself, in first-use order.
SmallVector<Value *, 8> externalOperands(ArrayRef<Instruction *> Window) {
  SmallPtrSet<Value *, 8> Inside(Window.begin(), Window.end());
  SmallVector<Value *, 8> External;
  for (Instruction *I : Window)
    for (Value *Op : I->operands())
      if ((isa<Instruction>(Op) || isa<Argument>(Op)) && !Inside.count(Op) &&
          !is_contained(External, Op))
        External.push_back(Op);
  return External;
}

/// A value every instance of the function sees unchanged at any time.
bool isStable(Value *V) { return isa<AllocaInst>(V) || isa<Argument>(V); }

/// Whether control can come back to \p BB once it has left it.
bool inCycle(BasicBlock *BB) {
  SmallVector<BasicBlock *, 8> Work(successors(BB));
  SmallPtrSet<BasicBlock *, 16> Seen;
  while (!Work.empty()) {
    BasicBlock *Next = Work.pop_back_val();
    if (Next == BB)
      return true;
    if (Seen.insert(Next).second)
      append_range(Work, successors(Next));
  }
  return false;
}

/// The helper's attributes: F's function attributes (target, frame
/// pointer, optnone), never inlined back into the coroutine.
AttributeList helperAttributes(Function &F) {
  LLVMContext &C = F.getContext();
  AttrBuilder FnAttrs(C, F.getAttributes().getFnAttrs());
  FnAttrs.removeAttribute(Attribute::PresplitCoroutine);
  FnAttrs.removeAttribute(Attribute::AlwaysInline);
  FnAttrs.removeAttribute(Attribute::NoUnwind);
  FnAttrs.removeAttribute(SpawningFunctionAttr);
  FnAttrs.addAttribute(Attribute::NoInline);
  FnAttrs.addAttribute(OutlinedFunctionAttr);
  return AttributeList::get(C, AttributeList::FunctionIndex, FnAttrs);
}

/// The spawned call itself, as a plain call inside the helper: an exception
/// leaves the helper and reaches the parent's invoke.
CallInst *cloneAsCall(CallBase *Spawn) {
  SmallVector<Value *, 8> Args(Spawn->args());
  SmallVector<OperandBundleDef, 1> Bundles;
  Spawn->getOperandBundlesAsDefs(Bundles);
  CallInst *Call = CallInst::Create(Spawn->getFunctionType(),
                                    Spawn->getCalledOperand(), Args, Bundles,
                                    Spawn->getName());
  Call->setCallingConv(Spawn->getCallingConv());
  Call->setAttributes(Spawn->getAttributes());
  return Call;
}

} // namespace

/// Lifetime markers of the statement's temporaries stay in the parent, in
/// the window after the helper returns: they tell coro-split that the
/// temporaries are dead before the next steal point, so that a loop's
/// temporaries stay out of the shared frame, where the thief's next
/// iteration would overwrite them while this child still reads them.
static bool staysInParent(const Instruction *I) {
  return I->isLifetimeStartOrEnd();
}

bool SpawnLowering::windowNeedsHelper(ArrayRef<Instruction *> Window) const {
  if (!isa<InvokeInst>(Window.front()) || Window.size() < 2)
    return false;
  // What the victim reads after the child returns (the call is Window[0]).
  // Lifetime markers stay in the parent whether or not there is a helper.
  SmallPtrSet<Value *, 8> Inside(Window.begin(), Window.end());
  for (Instruction *I : Window.drop_front()) {
    if (staysInParent(I))
      continue;
    for (Value *Op : I->operands()) {
      if ((!isa<Instruction>(Op) && !isa<Argument>(Op)) || Inside.count(Op))
        continue;
      if (!isStable(Op))
        return true;
      if (auto *AI = dyn_cast<AllocaInst>(Op);
          AI && StatementTemporaries.count(AI) &&
          inCycle(Window.front()->getParent()))
        return true;
    }
  }
  return false;
}

CallBase *SpawnLowering::outlineWindow(SmallVectorImpl<Instruction *> &Window) {
  LLVMContext &C = F.getContext();
  auto *Spawn = cast<CallBase>(Window.front());
  SmallVector<Instruction *, 4> Kept;
  for (Instruction *I : Window)
    if (staysInParent(I))
      Kept.push_back(I);
  erase_if(Window, staysInParent);
  SmallVector<Value *, 8> External = externalOperands(Window);
  SmallVector<Type *, 8> Params;
  for (Value *V : External)
    Params.push_back(V->getType());
  Function *Helper = Function::Create(
      FunctionType::get(Type::getVoidTy(C), Params, false),
      GlobalValue::InternalLinkage, F.getName() + ".weft.spawn", F.getParent());
  Helper->setAttributes(helperAttributes(F));
  Helper->setCallingConv(CallingConv::C);

  // Debug locations name F's scope, which the helper is not; the helper
  // has no debug info of its own, so its instructions carry none. Nor do
  // they keep the assignment-tracking ids that link a store to F's
  // variable records (-g at -O1 and above): the analysis would follow
  // them into F, and crashed there.
  BasicBlock *Body = BasicBlock::Create(C, "entry", Helper);
  ValueToValueMapTy Map;
  for (auto [Value, Arg] : zip(External, Helper->args()))
    Map[Value] = &Arg;
  for (Instruction *I : Window) {
    Instruction *Copy = I == Spawn ? cloneAsCall(Spawn) : I->clone();
    Copy->insertInto(Body, Body->end());
    Copy->setDebugLoc(DebugLoc());
    Copy->setMetadata(LLVMContext::MD_DIAssignID, nullptr);
    RemapInstruction(Copy, Map,
                     RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
    Map[I] = Copy;
  }
  ReturnInst::Create(C, Body);

  CallBase *Outlined;
  if (auto *Invoke = dyn_cast<InvokeInst>(Spawn))
    Outlined = InvokeInst::Create(Helper, Invoke->getNormalDest(),
                                  Invoke->getUnwindDest(), External, "",
                                  Spawn->getIterator());
  else
    Outlined = CallInst::Create(Helper, External, "", Spawn->getIterator());
  Outlined->setDebugLoc(Spawn->getDebugLoc());
  for (Instruction *I : reverse(Window))
    I->eraseFromParent();
  Window.assign(1, Outlined);
  Window.append(Kept);
  return Outlined;
}

} // namespace weft
