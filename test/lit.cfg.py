# -*- Python -*-
# lit configuration for tscc. Run through the `check` target or
#   python3 /usr/lib/llvm-19/build/utils/lit/lit.py -sv build/test
import os
import shutil
import subprocess

import lit.formats
import lit.util

config.name = "tscc"
config.test_format = lit.formats.ShTest(not lit.util.which("bash") is None)
config.suffixes = [".t", ".test", ".c"]
config.excludes = ["Inputs", "unit", "lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tscc_obj_root, "test")

llvm_bin = config.llvm_tools_dir
bin_dir = os.path.join(config.tscc_obj_root, "bin")
config.environment["PATH"] = os.pathsep.join(
    [bin_dir, llvm_bin, config.environment.get("PATH", os.environ.get("PATH", ""))])
# Tests must not depend on the user's locale or terminal.
config.environment["LC_ALL"] = "C"
config.environment.pop("TERM", None)

def tool(name):
    return os.path.join(bin_dir, name)

python = config.python_executable
# Longer names first: lit substitutes in list order, and %tscc is a prefix.
config.substitutions.append(("%tscc_obj_root", config.tscc_obj_root))
config.substitutions.append(("%tscc", tool("tscc")))
# Native targets run their clauses in the process (the in-process agent) by
# default; `lit --param tsrun_mode=ptrace` runs the same tests with every
# clause in tsrun at a ptrace stop (run-tests.sh runs the native suites
# both ways). Tests about one mode say REQUIRES: inprocess or ptrace-mode.
tsrun_mode = lit_config.params.get("tsrun_mode", "inprocess")
if tsrun_mode not in ("inprocess", "ptrace"):
    lit_config.fatal("tsrun_mode must be inprocess or ptrace")
config.available_features.add("inprocess" if tsrun_mode == "inprocess" else "ptrace-mode")
config.name = "tscc" if tsrun_mode == "inprocess" else "tscc-ptrace"
tsrun_cmd = tool("tsrun")
if tsrun_mode == "ptrace":
    # One path, so that test drivers can run it like tsrun itself.
    os.makedirs(config.test_exec_root, exist_ok=True)
    tsrun_cmd = os.path.join(config.test_exec_root, "tsrun-ptrace")
    with open(tsrun_cmd, "w") as f:
        f.write('#!/bin/sh\nexec "%s" --ptrace "$@"\n' % tool("tsrun"))
    os.chmod(tsrun_cmd, 0o755)
config.substitutions.append(("%tsrun", tsrun_cmd))
config.substitutions.append(("%tsreport", tool("tsreport")))
# What linking libtsrt by hand needs besides the libraries: in a sanitizer
# build (TSCC_SANITIZE), whose libtsrt is instrumented, the sanitizer
# runtimes.
config.substitutions.append(("%tsrt_ldflags", getattr(config, "tscc_sanitizer_link_flags", "")))
# Memory limits of hostile-stub tests allow for ASan's own memory
# (test/Remote/Inputs/run_bounded.py).
if getattr(config, "tscc_sanitizer_link_flags", ""):
    config.environment["TSCC_TEST_ASAN"] = "1"
config.substitutions.append(("%python", python))
config.substitutions.append(("%utils", os.path.join(config.tscc_src_root, "utils")))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
# Test programs: both data models, with frame pointers so stack traces are
# meaningful. %run32 runs a 32-bit program under qemu-user (the gdb-remote
# tests); where the kernel runs i386 code (feature native-i386) they also
# run natively.
common_cflags = "-O0 -g -fno-omit-frame-pointer -w"
config.substitutions.append(("%cc64", "gcc -m64 " + common_cflags))
config.substitutions.append(("%cc32", "gcc -m32 " + common_cflags))
config.substitutions.append(("%run32", "qemu-i386"))
config.substitutions.append(("%FileCheck", os.path.join(llvm_bin, "FileCheck")))
config.substitutions.append(("%not", os.path.join(llvm_bin, "not")))

# Features: optional peers and oracles. Tests that need one say
# `REQUIRES: <feature>` and are reported UNSUPPORTED (with the reason) where
# it is absent.
for feature, exe in [("bpftrace", "bpftrace"), ("strace", "strace"),
                     ("ltrace", "ltrace"), ("gdbserver", "gdbserver"),
                     ("qemu-i386", "qemu-i386"), ("gdb", "gdb")]:
    if shutil.which(exe):
        config.available_features.add(feature)

# Running as root: tsrun then refuses object files others could write;
# with setpriv, tests can also show what an unprivileged user gets.
if os.geteuid() == 0:
    config.available_features.add("root")
if shutil.which("setpriv"):
    config.available_features.add("setpriv")

# Whether a process can be started in PID and mount namespaces of its own
# (unprivileged user namespaces, or root): a stub tsrun cannot see.
def _can_unshare():
    try:
        return subprocess.run(
            ["unshare", "--user", "--map-root-user", "--pid", "--fork",
             "--mount-proc", "--kill-child", "true"],
            capture_output=True, timeout=20).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False

if shutil.which("unshare") and _can_unshare():
    config.available_features.add("unshare")

def _can_build_m32():
    try:
        r = subprocess.run(["gcc", "-m32", "-x", "c", "-", "-o", os.devnull],
                           input=b"int main(void){return 0;}", capture_output=True)
        return r.returncode == 0
    except OSError:
        return False

def _runs_i386_natively():
    """Whether this kernel runs i386 programs (CONFIG_IA32_EMULATION, not
    disabled with ia32_emulation=0): build a -m32 program and run it."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        exe = os.path.join(d, "probe32")
        try:
            r = subprocess.run(["gcc", "-m32", "-x", "c", "-", "-o", exe],
                               input=b"int main(void){return sizeof(long) == 4 ? 42 : 1;}",
                               capture_output=True)
            return r.returncode == 0 and subprocess.run([exe]).returncode == 42
        except OSError:
            return False

if _can_build_m32():
    config.available_features.add("m32")
    # Tests of native 32-bit processes say REQUIRES: native-i386; where the
    # kernel cannot run them they are UNSUPPORTED, and the qemu-i386 tests
    # (test/Remote) keep covering ILP32.
    if _runs_i386_natively():
        config.available_features.add("native-i386")
        # Real Debian i386 programs, fetched by
        # utils/setup/fetch-debian-i386.sh (run-tests.sh runs it).
        debian_i386 = os.path.join(config.tscc_obj_root, "debian-i386")
        if os.access(os.path.join(debian_i386, "usr/bin/hello"), os.X_OK):
            config.available_features.add("debian-i386")
            config.substitutions.append(("%debian_i386", debian_i386))
if os.geteuid() == 0:
    config.available_features.add("root")

def _has_usdt(path, provider):
    """Whether the ELF file at path carries USDT probes of provider (builds
    of python and libstdc++ differ between distributions)."""
    try:
        r = subprocess.run(["readelf", "-n", path], capture_output=True,
                           text=True)
        return "Provider: " + provider in r.stdout
    except OSError:
        return False

for feature, path, provider in [
        ("python-usdt", "/usr/bin/python3", "python"),
        ("libstdcxx-usdt", "/lib/x86_64-linux-gnu/libstdc++.so.6", "libstdcxx"),
        ("libc-usdt", "/lib/x86_64-linux-gnu/libc.so.6", "libc")]:
    if _has_usdt(path, provider):
        config.available_features.add(feature)
def _has_debug_file(path):
    """Whether the separate debug file of path is installed where tsrun
    looks by build-id (libc6-dbg for libc)."""
    try:
        r = subprocess.run(["readelf", "-n", path], capture_output=True,
                           text=True)
        build_id = r.stdout.split("Build ID: ")[1].split()[0]
    except (OSError, IndexError):
        return False
    return os.path.exists("/usr/lib/debug/.build-id/%s/%s.debug" %
                          (build_id[:2], build_id[2:]))

if _has_debug_file("/lib/x86_64-linux-gnu/libc.so.6"):
    config.available_features.add("libc-debug-file")
if config.tscc_build_compiler:
    config.available_features.add("compiler")
if getattr(config, "tscc_static_llvm", False):
    config.available_features.add("static-llvm")
