"""Fails when CMake or a test uses a Debian package that `make test` does not
install (ctest deps/installed-by-make-test).

A machine that already has every package hides a missing install step: the
build finds a peer library, a test runs a peer tool, and both pass, until a
fresh clone fails. This check asks dpkg which package owns each thing the
build and the tests use, and requires that package to be in the set
scripts/install-deps.sh installs, or to come with it (a dependency of a
package in the set, or an essential one).

What counts as used:
  - every file path CMake found (CMakeCache.txt: libraries, headers,
    programs: pkg-config modules, find_program, the compilers);
  - every program a test script or test source names that is on PATH;
  - every Python module a test imports (in .py files, or in Python code
    that a C test hands to python3);
  - every .proto file a test schema imports from /usr/include.

Usage: check_deps.py BUILD_DIR SOURCE_DIR
"""
import glob
import os
import re
import subprocess
import sys

TEST_GLOBS = ["tests/**/*.c", "tests/**/*.h", "tests/**/*.sh", "tests/**/*.bash",
              "tests/**/*.py", "bench/tests/*", "scripts/check-*.sh", "examples/*.c"]
PYTHON = "/usr/bin/python3"


def norm(path):
    """One spelling per file on a merged-/usr system (/bin is /usr/bin)."""
    for short in ("/bin/", "/sbin/", "/lib/", "/lib64/"):
        if path.startswith(short):
            return "/usr" + path
    return path


def file_owners():
    owners = {}
    for listing in glob.glob("/var/lib/dpkg/info/*.list"):
        pkg = os.path.basename(listing)[:-5].split(":")[0]
        with open(listing, encoding="utf-8", errors="replace") as f:
            for line in f:
                owners.setdefault(norm(line.rstrip("\n")), pkg)
    return owners


def installed_packages():
    out = subprocess.run(
        ["dpkg-query", "-W", "-f=${Package}\t${Status}\t${Essential}\t${Priority}\t"
         "${Depends}\t${Pre-Depends}\t${Provides}\n"],
        check=True, capture_output=True, text=True).stdout
    deps, provides, base = {}, {}, set()
    for line in out.splitlines():
        name, status, essential, priority, dep, predep, prov = (line.split("\t") + [""] * 7)[:7]
        if not status.endswith("installed") or "not-installed" in status:
            continue
        names = [re.split(r"[\s(:]", alt.strip())[0]
                 for group in (dep + "," + predep).split(",") if group.strip()
                 for alt in group.split("|") if alt.strip()]
        deps[name] = names
        for p in prov.split(","):
            if p.strip():
                provides.setdefault(re.split(r"[\s(:]", p.strip())[0], []).append(name)
        if essential == "yes" or priority == "required":
            base.add(name)
    return deps, provides, base


def closure(roots, deps, provides):
    seen, todo = set(), list(roots)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo.extend(deps.get(name, []))
        todo.extend(provides.get(name, []))
    return seen


def cmake_paths(build):
    paths = []
    with open(os.path.join(build, "CMakeCache.txt"), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"([A-Za-z0-9_.+-]+):(FILEPATH|PATH)=(/usr/.+)$", line.rstrip("\n"))
            if m and os.path.isfile(m.group(3)):
                paths.append(("CMake " + m.group(1), m.group(3)))
            m = re.match(r"__pkg_config_arguments_(\w+):INTERNAL=(.*)$", line.rstrip("\n"))
            for module in m.group(2).split(";") if m else []:
                pc = subprocess.run(["pkg-config", "--path", module],
                                    capture_output=True, text=True).stdout.strip()
                if pc.startswith("/usr/"):   # header-only modules have only their .pc file
                    paths.append(("CMake pkg-config " + module, pc))
    return paths


def test_files(src):
    files = set()
    for pattern in TEST_GLOBS:
        files.update(p for p in glob.glob(os.path.join(src, pattern), recursive=True)
                     if os.path.isfile(p))
    return sorted(files)


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


COMMAND_WORD = re.compile(r"(?:^|[|;&`!]|\$\(|\b(?:then|do|else|exec|command -v)\b)"
                          r"\s*([a-z][a-z0-9_+.-]*[a-z0-9])(?=\s|$)(?!\s*=)", re.M)


def command_texts(path):
    """The pieces of a file that can run a program: a script's lines without
    their comments; in C, the string literals that hold a command line (a
    word and its arguments, as handed to system() or popen()); in Python,
    the first string of an argument list (subprocess.run(["prog", ...]))."""
    text = read(path)
    if path.endswith((".sh", ".bash")) or text.startswith("#!/"):
        return [line.split(" #")[0] for line in text.splitlines()
                if not line.lstrip().startswith("#")]
    if path.endswith(".py"):
        return re.findall(r'\(\[\s*"([^"\n]*)"', text)
    literals = re.findall(r'"((?:[^"\\\n]|\\.)*)"', text)
    return [lit for lit in literals if re.match(r"\s*[a-z][\w+.-]*\s+[-%'<>/$]", lit) or "|" in lit]


def program_paths(files):
    """Programs under /usr/bin or /usr/sbin that test code runs: words in
    command position (first in a line or string, or after | ; & $( and the
    like)."""
    on_path = {}
    for d in ("/usr/sbin", "/usr/bin"):
        for name in os.listdir(d):
            on_path[name] = os.path.join(d, name)
    used = {}
    for path in files:
        for piece in command_texts(path):
            for word in COMMAND_WORD.findall(piece):
                if word in on_path:
                    used.setdefault(word, (os.path.relpath(path), on_path[word]))
        for full in re.findall(r"/usr/s?bin/[\w+.-]+", read(path)):
            if os.path.isfile(full):
                used.setdefault(os.path.basename(full), (os.path.relpath(path), full))
    return [("program " + w + " (" + where + ")", p) for w, (where, p) in sorted(used.items())]


def python_module_paths(files):
    modules = {}
    for path in files:
        for m in re.finditer(r"^\s*(?:import|from)\s+([A-Za-z_]\w*)", read(path), re.M):
            modules.setdefault(m.group(1), os.path.relpath(path))
        for m in re.finditer(r"\b(?:import|from) ([A-Za-z_]\w*)[\w., ]*(?:\\n|;|\")", read(path)):
            modules.setdefault(m.group(1), os.path.relpath(path))
    code = ("import importlib.util, sys\n"
            "for n in sys.argv[1:]:\n"
            "    try: s = importlib.util.find_spec(n)\n"
            "    except Exception: s = None\n"
            "    o = s.origin if s and s.origin not in (None, 'built-in', 'frozen') else ''\n"
            "    print(n + '\\t' + o)\n")
    out = subprocess.run([PYTHON, "-c", code, *sorted(modules)],
                         check=True, capture_output=True, text=True).stdout
    found = []
    for line in out.splitlines():
        name, origin = line.split("\t")
        if origin.startswith("/usr/"):
            found.append(("python module " + name + " (" + modules[name] + ")", origin))
    return found


def proto_import_paths(src):
    found = []
    for proto in glob.glob(os.path.join(src, "tests/data/**/*.proto"), recursive=True):
        for m in re.finditer(r'^\s*import\s+(?:public\s+)?"([^"]+)"', read(proto), re.M):
            system = os.path.join("/usr/include", m.group(1))
            if not os.path.exists(os.path.join(os.path.dirname(proto), m.group(1))):
                found.append(("proto import " + m.group(1) + " (" + os.path.relpath(proto) + ")",
                              system))
    return found


def main():
    build, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    os.chdir(src)
    listed = subprocess.run(["scripts/install-deps.sh", "--list"], check=True,
                            capture_output=True, text=True).stdout.split()
    deps, provides, base = installed_packages()
    allowed = closure(set(listed) | base, deps, provides)
    owners = file_owners()
    files = test_files(src)
    uses = (cmake_paths(build) + program_paths(files) + python_module_paths(files)
            + proto_import_paths(src))
    missing = []
    for what, path in uses:
        candidates = [norm(path), norm(os.path.realpath(path))]
        owner = next((owners[c] for c in candidates if c in owners), None)
        if owner is None:
            missing.append(f"{what}: {path} belongs to no installed package (install it)")
        elif owner not in allowed:
            missing.append(f"{what}: {path} comes from package {owner}, "
                           "which scripts/install-deps.sh does not install")
    for line in missing:
        print("FAIL:", line)
    print(f"check_deps: {len(uses)} things used, {len(missing)} not installed by make test")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
