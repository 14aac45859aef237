"""One namespace (ctest symbols/namespace): codec can sit next to any other
library in one process.

  - every global symbol that libcodec.a defines starts with `codec_`;
  - the public API is `codec_*` and internal symbols are `codec__*`: libcodec.so
    exports every public one and no internal one, and every global of the
    static library that is not `codec__*` is one the shared library exports;
  - an internal symbol is used outside the file that defines it (by another
    file of the library, the command, a test or the benchmark); a function
    used in one file only must be static. (Checked in the full configuration
    only: in one that leaves optional parts out, a function's other users may
    be among the files left out, as the envelope's header reader's are.)

Usage: check_symbols.py BUILD_DIR [WITHOUT]   (the build tree: libcodec.a,
       libcodec.so; WITHOUT: the comma list of optional parts left out)
"""
import collections
import glob
import os
import subprocess
import sys

DEFINED = set("TDBRVWCGiu")
# Instrumented builds add globals of their own: clang's source-based
# coverage (make coverage) its per-function records and profile runtime,
# AddressSanitizer (make asan, make fuzz) one ODR indicator per global and
# its module constructors, libFuzzer's coverage its section bounds.
INSTRUMENTATION = ("__covrec_", "__llvm_profile_", "__start___llvm_prf_",
                   "__stop___llvm_prf_", "lprof", "__odr_asan", "__asan_", "___asan_",
                   "__sancov_", "__start___sancov", "__stop___sancov", "__ubsan_")


def nm(*args):
    return subprocess.run(["nm", *args], check=True, capture_output=True,
                          text=True).stdout.splitlines()


def static_globals(archive):
    """{symbol: object file} for the globals the archive's members define."""
    defs = {}
    for line in nm("-A", "-g", "--defined-only", archive):
        parts = line.split()   # ARCHIVE:MEMBER:[ADDRESS] TYPE SYMBOL
        if len(parts) >= 3 and parts[-2] in DEFINED:
            defs[parts[-1]] = parts[0].split(":")[1]
    return {s: o for s, o in defs.items() if not s.startswith(INSTRUMENTATION)}


def shared_exports(library):
    return {p[-1] for p in (l.split() for l in nm("-D", "--defined-only", library))
            if len(p) >= 3 and p[-2] in DEFINED and not p[-1].startswith(INSTRUMENTATION)}


def undefined_uses(build):
    """{symbol: set of object files that reference it}."""
    uses = collections.defaultdict(set)
    objects = glob.glob(os.path.join(build, "**", "*.o"), recursive=True)
    for chunk in range(0, len(objects), 200):
        for line in nm("-A", "-u", *objects[chunk:chunk + 200]):
            path, _, rest = line.rpartition(":")   # OBJECT: U SYMBOL
            if rest.split():
                uses[rest.split()[-1]].add(os.path.basename(path))
    return uses


def main():
    build = sys.argv[1]
    full = len(sys.argv) < 3 or not sys.argv[2]
    defs = static_globals(os.path.join(build, "libcodec.a"))
    exports = shared_exports(os.path.join(build, "libcodec.so"))
    uses = undefined_uses(build)
    problems = []
    for sym, obj in sorted(defs.items()):
        if not sym.startswith("codec_"):
            problems.append(f"{sym} ({obj}): a global without the codec_ prefix")
        elif sym.startswith("codec__"):
            if sym in exports:
                problems.append(f"{sym} ({obj}): internal, but libcodec.so exports it")
            if full and not uses[sym] - {obj}:
                problems.append(f"{sym} ({obj}): used in its own file only: make it static")
        elif sym not in exports:
            problems.append(f"{sym} ({obj}): not exported by libcodec.so, so not public API: "
                            "name it codec__ (internal) or declare it CODEC_API")
    for sym in sorted(exports):
        if not sym.startswith("codec_") or sym.startswith("codec__"):
            problems.append(f"{sym}: libcodec.so exports it, and it is not public API")
    for p in problems:
        print("FAIL:", p)
    print(f"check_symbols: {len(defs)} globals in libcodec.a, {len(exports)} exported by "
          f"libcodec.so, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
