#!/usr/bin/env python3
"""install.py BUILD_DIR SOURCE_DIR — `make install` checked end to end (ctest readme_install).

Installs the build tree into a temporary DESTDIR (cmake --install, as `make install` does), then:
  * every file of cmake/install.cmake is there: tools, libraries, headers, pkg-config files, man
    pages, the models file;
  * groff reads each man page without a warning, and every line of every `--help` the page was
    made from appears in the rendered page (the pages are built from --help; this catches a build
    that did not remake them, and roff escapes that lose a character);
  * the installed tool runs (`opticoll --help`, `opticoll train`, which reads the models file);
  * every ```c block of the README and docs/*.md is compiled, linked and run against the installed tree with
    the commands written in its own first comment (lines starting `cc`, `mpicc` or `mpirun`),
    pkg-config pointed at the staged tree by PKG_CONFIG_SYSROOT_DIR and PKG_CONFIG_PATH, as a
    user's would be at the real prefix. A program must exit 0 and print something.
Prints "ok - ..." / "FAIL - ..." lines and exits 1 if any check failed.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

build, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
failed = 0


def check(ok, what, detail=""):
    global failed
    print(("ok - " if ok else "FAIL - ") + what)
    if not ok:
        failed += 1
        for l in detail.strip().splitlines()[-15:]:
            print("    | " + l)


def sh(cmd, cwd, env):
    p = subprocess.run(["bash", "-c", cmd], cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=300)
    return p.returncode, p.stdout.decode("utf-8", "replace")


cache = open(os.path.join(build, "CMakeCache.txt")).read()
prefix = re.search(r"^CMAKE_INSTALL_PREFIX:PATH=(.*)$", cache, re.M).group(1)
with_mpi = os.path.exists(os.path.join(build, "opticoll-mpi"))

tmp = tempfile.mkdtemp(prefix="opticoll-install-")
try:
    stage = os.path.join(tmp, "stage")
    env = dict(os.environ, DESTDIR=stage)
    rc, out = sh(f"cmake --install {build}", tmp, env)
    check(rc == 0, f"cmake --install into DESTDIR (prefix {prefix})", out)
    root = stage + prefix
    want = ["bin/opticoll", "lib/libopticoll.a", "include/opticoll.h", "include/opticoll_core.h",
            "include/opticoll_studies.h", "include/opticoll_json.h", "lib/pkgconfig/opticoll.pc",
            "share/man/man1/opticoll.1", "share/opticoll/models.tsv"]
    if with_mpi:
        want += ["bin/opticoll-mpi", "bin/opticoll-cluster", "lib/libopticoll_mpi.a",
                 "include/opticoll_mpi.h", "lib/pkgconfig/opticoll-mpi.pc",
                 "share/man/man1/opticoll-mpi.1"]
    for w in want:
        check(os.path.isfile(os.path.join(root, w)), f"installed {w}")

    # The man pages against the tools' --help.
    # every command `opticoll --help` lists ("  NAME  what it does"), as scripts/man.sh reads it
    top = subprocess.run([os.path.join(build, "opticoll"), "--help"], stdout=subprocess.PIPE).stdout
    cmds = re.findall(r"^  ([a-z][a-z-]*)  ", top.decode(), re.M)
    check(len(cmds) >= 10, f"opticoll --help lists its commands ({len(cmds)})")
    pages = [("opticoll", ["--help"] + [[c, "--help"] for c in cmds])]
    if with_mpi:
        pages.append(("opticoll-mpi", ["--help"]))
    for tool, helps in pages:
        page = os.path.join(root, "share/man/man1", tool + ".1")
        if not os.path.isfile(page):
            continue
        p = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", page], stderr=subprocess.PIPE)
        check(p.returncode == 0 and not p.stderr, f"groff reads {tool}.1 without a warning",
              p.stderr.decode())
        r = subprocess.run(["groff", "-man", "-Tascii", "-P-cbou", "-rLL=200n", page],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           env=dict(os.environ, MANWIDTH="200"))
        rendered = re.sub(r"[ \t]+", " ", r.stdout.decode("ascii", "replace"))
        for h in helps:
            args = h if isinstance(h, list) else [h]
            ht = subprocess.run([os.path.join(root, "bin", tool)] + args, stdout=subprocess.PIPE).stdout
            missing = [l for l in ht.decode().splitlines()
                       if l.strip() and re.sub(r"[ \t]+", " ", l.strip()) not in rendered]
            check(not missing, f"{tool}.1 holds `{tool} {' '.join(args)}` line for line",
                  "not in the page:\n" + "\n".join(missing[:5]))

    # The installed tool runs, and finds its models file.
    tool = os.path.join(root, "bin", "opticoll")
    rc, out = sh(f"{tool} train -m VGG16 -t ring -n 16 -w 4 -a ring", tmp, dict(os.environ))
    check(rc == 0 and "VGG16" in out, "the installed opticoll runs `train` (models file found)", out)

    # The C examples of the README and docs/, built and run with the commands their comments give.
    pages = [os.path.join(src, "README.md")] + sorted(
        os.path.join(src, "docs", f) for f in os.listdir(os.path.join(src, "docs")) if f.endswith(".md"))
    blocks = [b for page in pages
              for b in re.findall(r"^```c\n(.*?)^```", open(page, encoding="utf-8").read(), re.M | re.S)]
    check(len(blocks) >= (2 if with_mpi else 1), f"the README and docs/ have C examples ({len(blocks)})")
    penv = dict(os.environ, PKG_CONFIG_SYSROOT_DIR=stage,
                PKG_CONFIG_PATH=os.path.join(root, "lib/pkgconfig"),
                OMPI_MCA_rmaps_base_oversubscribe="1")
    for code in blocks:
        m = re.match(r"/\*\s*(\S+\.c):", code)
        if not m:
            check(False, "a C example names its file in its first comment", code[:200])
            continue
        name = m.group(1)
        if "opticoll_mpi.h" in code and not with_mpi:
            print(f"skip - {name}: MPI was not found")
            continue
        comment = code[:code.index("*/") + 2]
        cmds = [c.strip() for c in re.findall(r"^\s*(?:/\*|\*)\s+((?:cc|mpicc|mpirun) .*?)\s*(?:\*/)?$",
                                               comment, re.M)]
        check(any("pkg-config --cflags --libs" in c for c in cmds),
              f"{name}: its comment builds it with pkg-config --cflags --libs", comment)
        with open(os.path.join(tmp, name), "w") as f:
            f.write(code)
        for c in cmds:
            rc, out = sh(c, tmp, penv)
            runs = "./" in c  # it runs the program, which must say something
            check(rc == 0 and (out.strip() or not runs),
                  f"{name}: {c}" + (f"  -> {out.strip().splitlines()[-1]}" if runs and out.strip() else ""),
                  out or "(no output)")
            if rc:
                break
finally:
    shutil.rmtree(tmp, ignore_errors=True)

print(f"{'0' if not failed else failed} failed")
sys.exit(1 if failed else 0)
