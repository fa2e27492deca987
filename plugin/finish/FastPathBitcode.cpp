//===- FastPathBitcode.cpp - runtime/fast_path.cpp's bitcode, embedded ----===//
//
// The build compiles runtime/fast_path.cpp to bitcode and passes its path
// in WEFT_FAST_PATH_BITCODE; the bytes become part of the plugin, so that an
// installed or moved plugin needs no file beside it (FastPath.cpp reads
// them).
//
//===----------------------------------------------------------------------===//

#ifndef WEFT_FAST_PATH_BITCODE
#error "WEFT_FAST_PATH_BITCODE must name the fast path's bitcode file"
#endif

__asm__(".pushsection .rodata.weft_fast_path,\"a\",@progbits\n"
        ".p2align 3\n"
        ".globl weft_fast_path_bitcode\n"
        ".hidden weft_fast_path_bitcode\n"
        "weft_fast_path_bitcode:\n"
        ".incbin \"" WEFT_FAST_PATH_BITCODE "\"\n"
        ".globl weft_fast_path_bitcode_end\n"
        ".hidden weft_fast_path_bitcode_end\n"
        "weft_fast_path_bitcode_end:\n"
        ".popsection\n");
