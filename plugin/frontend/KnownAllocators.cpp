//===- KnownAllocators.cpp - Library allocators the race mode recognises --===//
//
// The table below names, for each library allocator that race mode models
// without the library's help, the member functions that hand out and take
// back a block, and where each finds the block's size. A definition that
// matches gets an annotation (shared/AllocatorAnnotation.h) before CodeGen
// emits it:
//
//   namespace parlay::internal {
//   struct block_allocator {
//     size_t block_size;                  // byte 24, say
//     void *alloc() { ... }               // annotate("weft-race-allocator:
//                                         //   alloc:size=arg0+24")
//     void free(void *p) { ... }          // annotate("weft-race-allocator:
//   };                                    //   free:ptr=arg1:size=arg0+24")
//   }
//
// and the IR pass (analysis/RaceAllocators.cpp) wraps the function in the
// model at the start of the pipeline, before the inliner spreads its body
// into its callers. Only the front end knows which field is the size: the
// IR has no field names.
//
// A definition whose shape is not the one expected (another version of the
// library) is left alone: the reports come back, nothing breaks.
//
//===----------------------------------------------------------------------===//

#include "frontend/KnownAllocators.h"
#include "shared/AllocatorAnnotation.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecordLayout.h"

#include <optional>

using namespace clang;

namespace weft {
namespace {

/// Where a table entry finds the block's size: a parameter, or a data member
/// of the allocator object (`this`).
struct SizeFrom {
  int Param = -1;              // the parameter's index in the source
  const char *Field = nullptr; // or the data member's name
};

struct KnownAllocatorEntry {
  const char *Class;  // fully qualified
  const char *Method; // a non-static member function of Class
  AllocatorEntry::Kind Role;
  int PtrParam; // Free: the parameter that is the block given back
  SizeFrom Size;
};

// Known library allocators. Add a library's entries here; the mechanism
// (analysis/RaceAllocators.cpp) is the same for all: checking is off inside
// the call, and the block is announced as allocated on return or freed on
// entry, with its size.
const KnownAllocatorEntry KnownLibraryAllocators[] = {
    // parlaylib (include/parlay/internal/): pool_allocator serves
    // parlay::allocator, sequences and p_malloc, by size n; its small
    // sizes come from block_allocators, its large ones from lock-free
    // stacks (private allocate_large/deallocate_large, reached only from
    // these two).
    {"parlay::internal::pool_allocator", "allocate", AllocatorEntry::Alloc,
     -1, {0, nullptr}},
    {"parlay::internal::pool_allocator", "deallocate", AllocatorEntry::Free,
     0, {1, nullptr}},
    // block_allocator hands out fixed-size blocks from per-worker free
    // lists; type_allocator<T> calls it directly, so its size is the
    // allocator's own block_size (sizeof(T) rounded up to a free-list link).
    {"parlay::internal::block_allocator", "alloc", AllocatorEntry::Alloc, -1,
     {-1, "block_size"}},
    {"parlay::internal::block_allocator", "free", AllocatorEntry::Free, 0,
     {-1, "block_size"}},
};

bool isSizeType(QualType T, ASTContext &Ctx) {
  return T->isIntegerType() &&
         Ctx.getTypeSize(T) == Ctx.getTypeSize(Ctx.getSizeType());
}

/// The byte offset of the size_t data member \p Name of \p Class, if it has
/// one of that name and type.
std::optional<unsigned> sizeFieldOffset(const CXXRecordDecl *Class,
                                        StringRef Name, ASTContext &Ctx) {
  if (!Class->hasDefinition() || Class->isDependentType())
    return std::nullopt;
  const ASTRecordLayout &Layout = Ctx.getASTRecordLayout(Class);
  for (const FieldDecl *Field : Class->fields())
    if (Field->getName() == Name && !Field->isBitField() &&
        isSizeType(Field->getType(), Ctx))
      return static_cast<unsigned>(
          Ctx.toCharUnitsFromBits(Layout.getFieldOffset(Field->getFieldIndex()))
              .getQuantity());
  return std::nullopt;
}

/// The annotation's entry for \p Method as \p Known describes it, if the
/// method has the shape the table expects. Arguments count as in the IR,
/// where `this` is the first.
std::optional<AllocatorEntry> entryFor(const CXXMethodDecl *Method,
                                       const KnownAllocatorEntry &Known,
                                       ASTContext &Ctx) {
  auto IRArg = [](int Param) { return static_cast<unsigned>(Param) + 1; };
  AllocatorEntry E;
  E.Role = Known.Role;
  if (Known.Role == AllocatorEntry::Alloc) {
    if (!Method->getReturnType()->isPointerType())
      return std::nullopt;
  } else {
    if (Known.PtrParam >= static_cast<int>(Method->getNumParams()) ||
        !Method->getParamDecl(Known.PtrParam)->getType()->isPointerType())
      return std::nullopt;
    E.PtrArg = IRArg(Known.PtrParam);
  }
  if (Known.Size.Field) {
    std::optional<unsigned> Offset =
        sizeFieldOffset(Method->getParent(), Known.Size.Field, Ctx);
    if (!Offset)
      return std::nullopt;
    E.Size.Arg = 0; // this
    E.Size.FieldOffset = Offset;
  } else {
    if (Known.Size.Param >= static_cast<int>(Method->getNumParams()) ||
        !isSizeType(Method->getParamDecl(Known.Size.Param)->getType(), Ctx))
      return std::nullopt;
    E.Size.Arg = IRArg(Known.Size.Param);
  }
  return E;
}

bool hasAllocatorAnnotation(const Decl *D) {
  for (const auto *A : D->specific_attrs<AnnotateAttr>())
    if (A->getAnnotation().starts_with(AllocatorAnnotationPrefix))
      return true;
  return false;
}

void markIfKnown(FunctionDecl *FD, ASTContext &Ctx) {
  auto *Method = dyn_cast<CXXMethodDecl>(FD);
  if (!Method || Method->isStatic() || !Method->getIdentifier() ||
      !Method->doesThisDeclarationHaveABody() || Method->isDependentContext())
    return;
  StringRef Name = Method->getName();
  for (const KnownAllocatorEntry &Known : KnownLibraryAllocators) {
    if (Name != Known.Method ||
        Method->getParent()->getQualifiedNameAsString() != Known.Class)
      continue;
    if (std::optional<AllocatorEntry> E = entryFor(Method, Known, Ctx))
      if (!hasAllocatorAnnotation(Method))
        Method->addAttr(AnnotateAttr::CreateImplicit(Ctx, E->encode(),
                                                     nullptr, 0));
    return;
  }
}

} // namespace

void markKnownAllocators(Decl *D, ASTContext &Ctx) {
  if (auto *FD = dyn_cast<FunctionDecl>(D)) {
    markIfKnown(FD, Ctx);
    return;
  }
  // Out-of-line definitions inside a namespace arrive with the namespace.
  // A class's inline definitions arrive one by one
  // (HandleInlineFunctionDefinition), so classes are not walked here.
  if (isa<NamespaceDecl>(D) || isa<LinkageSpecDecl>(D))
    for (Decl *Inner : cast<DeclContext>(D)->decls())
      markKnownAllocators(Inner, Ctx);
}

} // namespace weft
