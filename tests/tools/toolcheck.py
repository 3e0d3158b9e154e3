"""What the tests of Kite's tools (tests/tools/*/) share: checks that are
counted, the @marks of a test program's source, and running a kite
command on a program into a fresh work directory."""
import os
import re
import shutil
import subprocess
import sys

failures = []


def check(cond, what):
    """Records a failed expectation (printed either way); returns cond."""
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)
    return cond


def marks(source):
    """@name -> line number, from the /* @name */ (or ! @name) marks."""
    found = {}
    with open(source) as f:
        for n, line in enumerate(f, 1):
            for m in re.finditer(r"(?:/\*|!) @(\w+)", line):
                found[m.group(1)] = n
    return found


def run_kite(kite, command, runtime, workdir, out_name, program, options=()):
    """Runs `kite COMMAND --runtime RUNTIME [OPTIONS] -o WORKDIR/OUT_NAME --
    PROGRAM` in a fresh WORKDIR; returns (completed process, output directory)."""
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    out = os.path.join(workdir, out_name)
    r = subprocess.run([sys.executable, kite, command, "--runtime", runtime] + list(options) +
                       ["-o", out, "--", program], capture_output=True, text=True)
    print(r.stdout)
    print(r.stderr)
    check(r.returncode == 0, "kite %s exits with the program's status 0 (%d)"
          % (command, r.returncode))
    return r, out


def runtime_prefix(runtime):
    """How the tools' reports name the runtime a run was made on."""
    return "kite " if runtime == "kite" else "LLVM OMP"


def finish():
    if failures:
        print("%d check(s) failed" % len(failures))
        sys.exit(1)
    print("all checks passed")
    sys.exit(0)
