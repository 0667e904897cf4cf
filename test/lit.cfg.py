# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "GATHER"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".py", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.gather_obj_root, "test")
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py", "Inputs", "__pycache__"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%gather_src_root", config.gather_src_root))
config.substitutions.append(("%gather_bin", config.gather_tools_dir))
config.substitutions.append(("%gather_lib", config.gather_lib_dir))
# Debian's own interpreter: it has numpy and onnx; the first python3 on PATH
# may not.
config.substitutions.append(("%python", "/usr/bin/python3"))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

tool_dirs = [config.gather_tools_dir, config.llvm_tools_dir]
tools = ["gather-opt", "gather-run"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
llvm_config.with_environment("PATH", config.gather_tools_dir, append_path=True)
# not, count and FileCheck live in the LLVM tools directory.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PYTHONPATH", os.path.join(config.gather_src_root, "python"), append_path=True)
