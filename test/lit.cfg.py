# -*- Python -*-
# lit configuration for the matc test suite.

import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "matc"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)

# Mat sources use '#' comments for RUN/CHECK lines; MLIR files use '//'.
config.suffixes = [".mat", ".mlir", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.matc_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%shlibext", ".so"))
config.substitutions.append(("%mlir_lib_dir", config.mlir_lib_dir))
config.substitutions.append(("%matc_src_root", config.matc_src_root))
config.substitutions.append(("%host_cc", config.host_cc))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

# Tests that compare with NumPy need it in the Python that runs lit (Debian:
# python3-numpy for /usr/bin/python3).
try:
    import numpy  # noqa: F401

    config.available_features.add("numpy")
except ImportError:
    pass

# Optimized code (-O1 and up) runs its outer tiles on OpenMP threads:
# mlir-runner always loads the OpenMP runtime, as `matc --run` does.
libomp = os.path.join(config.mlir_lib_dir, "libomp.so")
config.substitutions.append(("%libomp", libomp))

# C programs linking a Mat object compiled at -O1 and up (whose code calls
# the OpenMP runtime) add %omp_ldflags; see docs/c-interop.md.
llvm_lib_dir = os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")
config.substitutions.append(
    ("%omp_ldflags", "-L{0} -Wl,-rpath,{0} -lomp".format(llvm_lib_dir)))
# Executables built for a CPU run only where the host has its vector
# features: `REQUIRES: host-avx512f` (or host-avx2, host-fma4).
try:
    with open("/proc/cpuinfo") as cpuinfo:
        for line in cpuinfo:
            if line.startswith("flags"):
                flags = set(line.split(":", 1)[1].split())
                for flag in ("avx2", "avx512f", "fma4"):
                    if flag in flags:
                        config.available_features.add("host-" + flag)
                break
except OSError:
    pass

# test/C runs the C suite under valgrind where there is one.
if shutil.which("valgrind"):
    config.available_features.add("valgrind")

# MPI programs (matc --ranks) run under MPICH's mpiexec (Debian: mpich,
# libmpich-dev; scripts/setup.sh installs them): tests that run one say
# `REQUIRES: mpi`. As root, MPICH's mpiexec needs no extra flag.
mpiexec = shutil.which("mpiexec.mpich") or shutil.which("mpiexec")
mpich = getattr(config, "matc_mpich_library", "")
if mpiexec and mpich and os.path.exists(mpich):
    config.available_features.add("mpi")
    config.substitutions.append(("%mpiexec", mpiexec))

# matc and matc-opt linked with LLVM's and MLIR's static libraries (the
# default; -DMATC_LINK_DYLIBS=ON links libLLVM.so and libMLIR.so).
if getattr(config, "matc_link_dylibs", "OFF").upper() not in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("static-link")

# matc and matc-opt allocate with jemalloc (matc/CMakeLists.txt; not in the
# sanitized build, and not when libjemalloc.a was missing at configure time).
if getattr(config, "matc_jemalloc", "").endswith(".a"):
    config.available_features.add("jemalloc")

# A build with ASan + UBSan (-DMATC_SANITIZE=ON, scripts/test-sanitized.sh):
# tests too slow there say `UNSUPPORTED: sanitized`. Every sanitizer report
# (including LeakSanitizer's at exit) aborts matc, so that even a test
# expecting an error (`not %matc ...`) fails: `not` does not accept a crash.
if getattr(config, "matc_sanitized", "0") == "1":
    config.available_features.add("sanitized")
    for var in ["ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"]:
        if var in os.environ:
            config.environment[var] = os.environ[var]
    # allocator_may_return_null: a malloc the machine cannot satisfy returns
    # NULL, as glibc's does, so that generated code reports it itself
    # (test/matc/out-of-memory.mat) instead of ASan aborting in the JIT.
    config.environment.setdefault(
        "ASAN_OPTIONS",
        "detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=0:"
        "allocator_may_return_null=1")
    config.environment.setdefault(
        "UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1:abort_on_error=1")
    config.environment["ASAN_SYMBOLIZER_PATH"] = os.path.join(
        config.llvm_tools_dir, "llvm-symbolizer")

# Every pass's output verified (matc verifies only the lowered module by
# default, matc/matc.cpp), in every matc the tests start, those of the
# scripts and of the Python package too: a pass that breaks the IR fails
# where it does.
config.environment["MATC_VERIFY_EACH"] = "1"

tool_dirs = [config.matc_tools_dir, config.llvm_tools_dir]
tools = [
    ToolSubst("%matc", os.path.join(config.matc_tools_dir, "matc")),
    ToolSubst("%matc-opt", os.path.join(config.matc_tools_dir, "matc-opt")),
    ToolSubst("mlir-runner", extra_args=["-shared-libs=" + libomp]),
    "mlir-opt",
]
llvm_config.add_tool_substitutions(tools, tool_dirs)
llvm_config.with_environment("PATH", config.matc_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
