// Unit tests of the placing of a spawned call's by-value temporaries
// (plugin/lower/ArgumentTemporaries.h) on calls parsed from IR: the front
// end's letters lined up with the IR operands from the front up to the
// first '?' and from the back up to the last, `sret` skipped, a 'T' with
// no certain place refused; and the operand list's round trip through the
// call's attribute.
#include "lower/ArgumentTemporaries.h"
#include "shared/Markers.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <vector>

namespace {

using namespace llvm;

/// One call of each shape, to a callee named after it. A '?' struct may be
/// passed as two i64 operands, as one, or as none at all (an empty class).
constexpr const char *Calls = R"IR(
%Big = type { [8 x i64] }

declare void @four(ptr, ptr, i64, ptr)
declare void @sret_first(ptr sret(%Big), ptr, i64)
declare void @sret_second(ptr, ptr sret(%Big), ptr)
declare void @pair_then_temp(i64, i64, ptr)
declare void @temp_then_pair(ptr, i64, i64)
declare void @temp_empty_int(ptr, i32)
declare void @empty_then_temp(ptr)
declare void @pair_temp_pair(i64, i64, ptr, i64, i64)
declare void @temp_pairs_temp(ptr, i64, i64, i64, ptr)
declare void @ptr_int(ptr, i64)
declare void @listed(ptr, ptr, ptr, ptr)

define void @spawner(ptr %p, ptr %q, ptr %r, i64 %n, i32 %k) {
  call void @four(ptr %p, ptr %q, i64 %n, ptr %r)
  call void @sret_first(ptr sret(%Big) %p, ptr %q, i64 %n)
  call void @sret_second(ptr %p, ptr sret(%Big) %q, ptr %r)
  call void @pair_then_temp(i64 %n, i64 %n, ptr %q)
  call void @temp_then_pair(ptr %q, i64 %n, i64 %n)
  call void @temp_empty_int(ptr %q, i32 %k)
  call void @empty_then_temp(ptr %q)
  call void @pair_temp_pair(i64 %n, i64 %n, ptr %q, i64 %n, i64 %n)
  call void @temp_pairs_temp(ptr %p, i64 %n, i64 %n, i64 %n, ptr %q)
  call void @ptr_int(ptr %p, i64 %n)
  call void @listed(ptr %p, ptr %q, ptr %r, ptr %p) #0
  ret void
}

attributes #0 = { "weft-arg-temporaries"="0,2" }
)IR";

class ArgumentTemporaries : public testing::Test {
protected:
  void SetUp() override {
    SMDiagnostic Error;
    M = parseAssemblyString(Calls, Error, Ctx);
    ASSERT_TRUE(M) << Error.getMessage().str();
  }

  /// The call of @\p Callee in @spawner.
  CallBase *call(StringRef Callee) {
    for (Instruction &I : M->getFunction("spawner")->getEntryBlock())
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (CB->getCalledFunction() &&
            CB->getCalledFunction()->getName() == Callee)
          return CB;
    ADD_FAILURE() << "no call of " << Callee.str();
    return nullptr;
  }

  /// The operands placeTemporaries gives, or none if it refuses.
  std::optional<std::vector<unsigned>> place(StringRef Callee,
                                             StringRef Layout) {
    SmallVector<unsigned, 4> Temporaries;
    if (!weft::placeTemporaries(call(Callee), Layout, Temporaries))
      return std::nullopt;
    return std::vector<unsigned>(Temporaries.begin(), Temporaries.end());
  }

  LLVMContext Ctx;
  std::unique_ptr<Module> M;
};

using Operands = std::vector<unsigned>;

TEST_F(ArgumentTemporaries, OneLetterPerOperand) {
  EXPECT_EQ(place("four", "STST"), Operands({1, 3}));
  EXPECT_EQ(place("four", "TSSS"), Operands({0}));
  EXPECT_EQ(place("four", "SSSS"), Operands{});
}

// Without a '?' the letters must match the operands one for one: another
// count is not the call the front end described.
TEST_F(ArgumentTemporaries, CountMismatchRefused) {
  EXPECT_EQ(place("four", "STS"), std::nullopt);
  EXPECT_EQ(place("four", "STSTS"), std::nullopt);
}

// The hidden sret operand has no letter, wherever the ABI puts it.
TEST_F(ArgumentTemporaries, SretSkipped) {
  EXPECT_EQ(place("sret_first", "TS"), Operands({1}));
  EXPECT_EQ(place("sret_second", "ST"), Operands({2}));
}

// A '?' struct passed as two operands: the letters after it line up from
// the back, those before it from the front.
TEST_F(ArgumentTemporaries, StructOfTwoOperands) {
  EXPECT_EQ(place("pair_then_temp", "?T"), Operands({2}));
  EXPECT_EQ(place("temp_then_pair", "T?"), Operands({0}));
}

// A '?' struct passed as nothing (an empty class).
TEST_F(ArgumentTemporaries, StructOfNoOperand) {
  EXPECT_EQ(place("temp_empty_int", "T?S"), Operands({0}));
  EXPECT_EQ(place("empty_then_temp", "?T"), Operands({0}));
}

// Temporaries at both ends around one or more '?' are placed; one between two
// '?' has no certain place.
TEST_F(ArgumentTemporaries, BetweenUnknownsRefused) {
  EXPECT_EQ(place("temp_pairs_temp", "T??T"), Operands({0, 4}));
  EXPECT_EQ(place("temp_pairs_temp", "T?T"), Operands({0, 4}));
  EXPECT_EQ(place("temp_pairs_temp", "?T?T"), std::nullopt);
  EXPECT_EQ(place("pair_temp_pair", "?T?"), std::nullopt);
}

// A temporary is passed by address: a 'T' on an integer operand means the
// letters do not describe this call.
TEST_F(ArgumentTemporaries, NonPointerRefused) {
  EXPECT_EQ(place("ptr_int", "ST"), std::nullopt);
  EXPECT_EQ(place("ptr_int", "TS"), Operands({0}));
}

// The list the lowering writes reads back operand by operand.
TEST_F(ArgumentTemporaries, ListRoundTrip) {
  CallBase *Four = call("four");
  EXPECT_FALSE(weft::isListedTemporary(Four, 1));
  weft::listTemporaries(Four, {1, 3});
  EXPECT_EQ(Four->getFnAttr(weft::ArgumentTemporariesAttr).getValueAsString(),
            "1,3");
  for (unsigned ArgNo = 0; ArgNo < 14; ++ArgNo)
    EXPECT_EQ(weft::isListedTemporary(Four, ArgNo), ArgNo == 1 || ArgNo == 3)
        << "operand " << ArgNo;
}

// A list from the IR itself (as the lowering's later steps see it).
TEST_F(ArgumentTemporaries, ListFromIR) {
  CallBase *Listed = call("listed");
  EXPECT_TRUE(weft::isListedTemporary(Listed, 0));
  EXPECT_FALSE(weft::isListedTemporary(Listed, 1));
  EXPECT_TRUE(weft::isListedTemporary(Listed, 2));
  EXPECT_FALSE(weft::isListedTemporary(Listed, 3));
}

// Empty entries are skipped; an entry that is no number names nothing.
TEST_F(ArgumentTemporaries, ListParsing) {
  CallBase *Four = call("four");
  Four->addFnAttr(
      Attribute::get(Ctx, weft::ArgumentTemporariesAttr, ",2,,x,12,"));
  EXPECT_TRUE(weft::isListedTemporary(Four, 2));
  EXPECT_TRUE(weft::isListedTemporary(Four, 12));
  EXPECT_FALSE(weft::isListedTemporary(Four, 1));
  EXPECT_FALSE(weft::isListedTemporary(Four, 0));
  weft::listTemporaries(Four, {});
  EXPECT_EQ(Four->getFnAttr(weft::ArgumentTemporariesAttr).getValueAsString(),
            "");
  EXPECT_FALSE(weft::isListedTemporary(Four, 2));
}

} // namespace
