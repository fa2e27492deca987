//===- ClangCompat.h - The Clang APIs that differ between 19 and 22 -------===//
//
// The front end's counterpart of shared/LLVMCompat.h: the few Clang
// interfaces that changed between the versions Weft builds against, so
// that the version tests live in one place.
//
//   22: the ElaboratedType sugar node is gone (a type's qualifier is on the
//       type itself); ASTContext::getRecordType became getCanonicalTagType;
//       TypedefTypeLoc's declaration is getDecl(); an asm label has no
//       "literal" flag; substituting a default template argument takes the
//       `template` keyword's location too.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLUGIN_FRONTEND_CLANGCOMPAT_H
#define WEFT_PLUGIN_FRONTEND_CLANGCOMPAT_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/Version.h"
#include "clang/Sema/Sema.h"

#include <optional>

namespace weft::compat {

/// The type an elaborated type (`struct S`, `ns::T`) names, written as
/// \p TL; none if \p TL is not one (always none since Clang 22, where
/// the qualifier is part of the named type).
inline std::optional<clang::TypeLoc> elaboratedNamed(clang::TypeLoc TL) {
#if CLANG_VERSION_MAJOR < 22
  if (auto E = TL.getAs<clang::ElaboratedTypeLoc>())
    return E.getNamedTypeLoc();
#else
  (void)TL;
#endif
  return std::nullopt;
}

/// The typedef or alias declaration \p TL names.
inline clang::TypedefNameDecl *typedefDecl(clang::TypedefTypeLoc TL) {
#if CLANG_VERSION_MAJOR >= 22
  return TL.getDecl();
#else
  return TL.getTypedefNameDecl();
#endif
}

/// The type of an object of class \p RD.
inline clang::QualType recordType(const clang::ASTContext &Ctx,
                                  const clang::CXXRecordDecl *RD) {
#if CLANG_VERSION_MAJOR >= 22
  return Ctx.getCanonicalTagType(RD);
#else
  return Ctx.getRecordType(RD);
#endif
}

/// An implicit asm label that makes \p Name the symbol, as written. (Since
/// 22 Clang spells it "\01Name" where C symbols take a prefix; the lowering
/// drops that, lower/LowerSpawns.cpp.)
inline clang::AsmLabelAttr *asmLabel(clang::ASTContext &Ctx,
                                     llvm::StringRef Name) {
#if CLANG_VERSION_MAJOR >= 22
  return clang::AsmLabelAttr::CreateImplicit(Ctx, Name);
#else
  return clang::AsmLabelAttr::CreateImplicit(Ctx, Name,
                                             /*IsLiteralLabel=*/false);
#endif
}

/// The default argument of template parameter \p Param of \p Template,
/// given the arguments before it, at \p Loc; null if there is none.
inline clang::TemplateArgumentLoc
defaultTemplateArgument(clang::Sema &S, clang::TemplateDecl *Template,
                        clang::SourceLocation Loc, clang::Decl *Param,
                        llvm::ArrayRef<clang::TemplateArgument> Args,
                        bool &HasDefault) {
#if CLANG_VERSION_MAJOR >= 22
  return S.SubstDefaultTemplateArgumentIfAvailable(
      Template, /*TemplateKWLoc=*/clang::SourceLocation(), Loc, Loc, Param,
      Args, Args, HasDefault);
#else
  return S.SubstDefaultTemplateArgumentIfAvailable(Template, Loc, Loc, Param,
                                                   Args, Args, HasDefault);
#endif
}

/// The type `Element[Length]`, an array whose length \p Length is only
/// known at run time.
inline clang::QualType variableArrayType(clang::ASTContext &Ctx,
                                         clang::QualType Element,
                                         clang::Expr *Length,
                                         clang::SourceLocation Loc) {
#if CLANG_VERSION_MAJOR >= 21
  (void)Loc;
  return Ctx.getVariableArrayType(Element, Length,
                                  clang::ArraySizeModifier::Normal, 0);
#else
  return Ctx.getVariableArrayType(Element, Length,
                                  clang::ArraySizeModifier::Normal, 0,
                                  clang::SourceRange(Loc, Loc));
#endif
}

} // namespace weft::compat

#endif // WEFT_PLUGIN_FRONTEND_CLANGCOMPAT_H
