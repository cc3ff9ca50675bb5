# -*- Python -*-
# lit configuration for the matc test suite.

import os

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

tool_dirs = [config.matc_tools_dir, config.llvm_tools_dir]
tools = [
    ToolSubst("%matc", os.path.join(config.matc_tools_dir, "matc")),
    ToolSubst("%matc-opt", os.path.join(config.matc_tools_dir, "matc-opt")),
    "mlir-runner",
    "mlir-opt",
]
llvm_config.add_tool_substitutions(tools, tool_dirs)
llvm_config.with_environment("PATH", config.matc_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
