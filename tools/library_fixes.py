"""Helper of tools/verify-library-fixes.sh: plans the bytecode checks of knowledge.json's "libraries",
runs them with vtscope's scan and turns its answers into verdicts.

  python3 tools/library_fixes.py plan KNOWLEDGE JARDIR
      checks the entries' format, then writes JARDIR/tasks.tsv (one line per library, pin and release)
      and JARDIR/pom.xml (a maven-dependency-plugin "copy" of the jars not yet in JARDIR); prints the
      number of jars to download.
  python3 tools/library_fixes.py check TASKS VTSCOPE
      runs "VTSCOPE scan JAR --format json --calls-of CLASS.METHOD ..." once per jar of TASKS and
      prints one line per task: RESULT TAB label TAB status TAB detail, status one of
        AFFECTED  a class file holds a monitor (synchronized method or block) around a call of the
                  pin's blocksIn, or that call runs the caller's function under a JDK monitor
                  (ConcurrentHashMap.compute: the scan's CALLBACK)
        FIXED     the call is there and no class file holds a monitor around it; or the call went
                  with the monitor: the method is there with neither the call nor any monitor, and
                  none of the methods it calls is a finding of the scan (a wait that became a
                  Condition.await, a wait moved into a helper that holds no monitor)
        NOCALL    the method is there but makes no such call
        NOMETHOD  the class is there but has no method of that name
        NOCLASS   the jar has no such class
      A multi-release jar's class is read in each variant a JDK 21, 22 or 23 loads: AFFECTED when one
      of them is, FIXED only when all of them are.
  python3 tools/library_fixes.py report KNOWLEDGE JARDIR RESULTS
      prints one CHECK line per (library, pin, release) and one verdict line per claim; exits 1
      when a claim or an entry's format fails.
"""

import json
import os
import subprocess
import sys
from xml.sax.saxutils import escape

FIELDS = ["name", "category", "packages", "artifact", "pins", "lastAffected", "fixedIn",
          "checkedUpTo", "change", "remedy", "asyncApi", "source"]
CATEGORIES = {"JDBC driver", "connection pool", "HTTP client", "cache", "logger", "database client",
              "messaging client", "coordination client", "other"}
DEPENDENCY_PLUGIN = "3.6.1"


def format_errors(lib):
    """What is wrong with one entry's format, as a list of sentences."""
    errors = []
    if set(lib.keys()) != set(FIELDS):
        errors.append("fields are %s, want exactly %s" % (sorted(lib.keys()), FIELDS))
        return errors
    for field in ["name", "category", "artifact", "change", "remedy", "source"]:
        if not isinstance(lib[field], str) or not lib[field].strip():
            errors.append("%s must be a non-empty string" % field)
    if lib["asyncApi"] is not None and (not isinstance(lib["asyncApi"], str) or not lib["asyncApi"].strip()):
        errors.append("asyncApi must be null or a non-empty string")
    if lib["category"] not in CATEGORIES:
        errors.append("category %r is not one of %s" % (lib["category"], sorted(CATEGORIES)))
    if not lib["packages"] or any(not isinstance(p, str) or not p.endswith(".") for p in lib["packages"]):
        errors.append("packages must be prefixes that end with a dot")
    if isinstance(lib["artifact"], str) and lib["artifact"].count(":") != 1:
        errors.append("artifact must be groupId:artifactId")
    if not lib["pins"]:
        errors.append("pins must name at least one method")
    for pin in lib["pins"] or []:
        if sorted(pin.keys()) != ["blocksIn", "method"]:
            errors.append("a pin has fields %s, want method and blocksIn" % sorted(pin.keys()))
            continue
        for field in ["method", "blocksIn"]:
            value = pin[field]
            if not isinstance(value, str) or "." not in value or value.endswith(".") or " " in value:
                errors.append("pin %s %r is not package.Class.method" % (field, value))
    if lib["fixedIn"] is None:
        if lib["lastAffected"] is not None:
            errors.append("lastAffected must be null when fixedIn is null")
        if not isinstance(lib["checkedUpTo"], str):
            errors.append("checkedUpTo must name the newest release checked when fixedIn is null")
    else:
        if not isinstance(lib["fixedIn"], str) or not isinstance(lib["lastAffected"], str):
            errors.append("fixedIn and lastAffected must be release strings")
        if lib["checkedUpTo"] is not None:
            errors.append("checkedUpTo must be null when fixedIn is set")
    return errors


def releases(lib):
    """(role, version) pairs a claim rests on."""
    if lib["fixedIn"] is None:
        return [("checkedUpTo", lib["checkedUpTo"])]
    return [("lastAffected", lib["lastAffected"]), ("fixedIn", lib["fixedIn"])]


def jar_name(artifact, version):
    return "%s-%s.jar" % (artifact.replace(":", "__"), version)


def split_method(qualified):
    dot = qualified.rindex(".")
    return qualified[:dot], qualified[dot + 1:]


def load(knowledge):
    with open(knowledge, encoding="utf-8") as f:
        return json.load(f)["libraries"]


def plan(knowledge, jardir):
    libs = load(knowledge)
    os.makedirs(jardir, exist_ok=True)
    tasks, wanted = [], {}
    for i, lib in enumerate(libs):
        if format_errors(lib):
            continue
        for role, version in releases(lib):
            jar = os.path.join(jardir, jar_name(lib["artifact"], version))
            wanted[jar] = (lib["artifact"], version)
            for j, pin in enumerate(lib["pins"]):
                cls, method = split_method(pin["method"])
                tasks.append("\t".join(["%d/%d/%s" % (i, j, role), jar, cls, method, pin["blocksIn"]]))
    with open(os.path.join(jardir, "tasks.tsv"), "w", encoding="utf-8") as f:
        f.write("\n".join(tasks) + "\n")
    missing = [(jar, ga, v) for jar, (ga, v) in sorted(wanted.items()) if not os.path.exists(jar)]
    items = "".join(
        "<artifactItem><groupId>%s</groupId><artifactId>%s</artifactId><version>%s</version><type>jar</type>"
        "<outputDirectory>%s</outputDirectory><destFileName>%s</destFileName></artifactItem>"
        % (escape(ga.split(":")[0]), escape(ga.split(":")[1]), escape(v), escape(os.path.abspath(jardir)),
           escape(os.path.basename(jar)))
        for jar, ga, v in missing)
    with open(os.path.join(jardir, "pom.xml"), "w", encoding="utf-8") as f:
        f.write('<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>'
                "<groupId>local.vtscope</groupId><artifactId>library-jars</artifactId><version>0</version>"
                "<packaging>pom</packaging><build><plugins><plugin><groupId>org.apache.maven.plugins</groupId>"
                "<artifactId>maven-dependency-plugin</artifactId><version>%s</version><configuration>"
                "<artifactItems>%s</artifactItems></configuration></plugin></plugins></build></project>\n"
                % (DEPENDENCY_PLUGIN, items))
    print(len(missing))


JDK_FEATURES = [21, 22, 23]


def loaded_variants(class_files):
    """The class files a JDK 21, 22 or 23 loads: per feature release, the greatest variant not
    above it, else the base entry; of the first jar or folder that has the class."""
    if not class_files:
        return []
    location = class_files[0]["location"]
    mine = {f["release"]: f for f in class_files if f["location"] == location}
    chosen = []
    for feature in JDK_FEATURES:
        fit = [r for r in mine if r <= feature]
        if fit and max(fit) not in [f["release"] for f in chosen]:
            chosen.append(mine[max(fit)])
    return chosen


def parameters(descriptor):
    """(Query,ParameterList,int) of (Lorg/postgresql/core/Query;Lorg/...;I)V"""
    names = {"B": "byte", "C": "char", "D": "double", "F": "float", "I": "int", "J": "long",
             "S": "short", "Z": "boolean"}
    out, i = [], 1
    while descriptor[i] != ")":
        dims = 0
        while descriptor[i] == "[":
            dims, i = dims + 1, i + 1
        if descriptor[i] == "L":
            end = descriptor.index(";", i)
            out.append(descriptor[i + 1:end].rsplit("/", 1)[-1] + "[]" * dims)
            i = end + 1
        else:
            out.append(names.get(descriptor[i], descriptor[i]) + "[]" * dims)
            i += 1
    return "(" + ",".join(out) + ")"


def verdict(listing, method, blocks_in, findings):
    """(status, detail) of one pin in one jar, from the scan's --calls-of listing and the
    methods (a.b.C.m) its findings name."""
    owner, name = split_method(blocks_in)
    files = loaded_variants(listing["classFiles"])
    if not files:
        return "NOCLASS", "no class %s" % listing["className"]
    details = []
    any_affected, all_fixed, any_method, any_call, any_monitor = False, True, False, False, False
    callees_found = set()
    for f in files:
        where = "%s%s" % (listing["className"], "" if f["release"] == 0 else " (JDK %d+ variant)" % f["release"])
        held, free = [], []
        for o in f["overloads"]:
            any_monitor |= o["synchronized"] or o["monitorEnter"]
            for c in o["calls"]:
                if c["owner"] + "." + c["name"] in findings:
                    callees_found.add(c["owner"] + "." + c["name"])
                if c["owner"] != owner or c["name"] != name:
                    continue
                at = "%s%s line %d" % (method, parameters(o["descriptor"]), c["line"])
                if o["synchronized"]:
                    held.append("synchronized method " + at)
                elif c["monitors"] > 0:
                    held.append("synchronized block " + at)
                elif c["blocking"] == "CALLBACK" and owner.startswith("java."):
                    held.append("%s (runs the caller's function under its own monitor) at %s"
                                % (blocks_in, at))
                else:
                    free.append(at)
        any_method |= bool(f["overloads"])
        any_call |= bool(held or free)
        any_affected |= bool(held)
        all_fixed &= bool(free) and not held
        if not f["overloads"]:
            details.append("%s: no method %s" % (where, method))
        elif not held and not free:
            details.append("%s: no call of %s" % (where, blocks_in))
        elif held:
            details.append("%s: held by %s" % (where, ", ".join(held)))
        else:
            details.append("%s: call at %s outside any monitor" % (where, ", ".join(free)))
    # A call inside a monitor can go away with the monitor (a wait that became a Condition.await
    # under a lock, a wait moved into a helper): the method still there, with neither the call nor
    # any monitor, and calling no method the scan finds holding one across a block, is fixed too.
    went_with_monitor = (not any_call and any_method and not any_monitor and not callees_found)
    if went_with_monitor:
        details.append("no call of %s and no monitor left in %s; no method it calls is a finding"
                       % (short(blocks_in), method))
    elif not any_call and any_method and not any_monitor:
        details.append("no monitor left in %s, but it calls %s, which the scan finds"
                       % (method, ", ".join(sorted(callees_found))))
    if not any_method:
        status = "NOMETHOD"
    elif any_affected:
        status = "AFFECTED"
    elif went_with_monitor or (any_call and all_fixed):
        status = "FIXED"
    else:
        status = "NOCALL"
    return status, " | ".join(details)


def check(tasks_path, vtscope):
    by_jar = {}
    with open(tasks_path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                label, jar, cls, method, blocks_in = line.rstrip("\n").split("\t")
                by_jar.setdefault(jar, []).append((label, cls, method, blocks_in))
    for jar, tasks in by_jar.items():
        wanted = []
        for _, cls, method, _ in tasks:
            if cls + "." + method not in wanted:
                wanted.append(cls + "." + method)
        command = [vtscope, "scan", jar, "--format", "json"]
        for m in wanted:
            command += ["--calls-of", m]
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0:
            for label, _, _, _ in tasks:
                print("RESULT\t%s\tERROR\tvtscope scan exited %d: %s"
                      % (label, run.returncode, run.stderr.strip().splitlines()[-1:]))
            continue
        scan = json.loads(run.stdout)
        listings = {l["className"] + "." + l["method"]: l for l in scan["callsOf"]}
        findings = {f["className"] + "." + f["method"] for f in scan["findings"]}
        for label, cls, method, blocks_in in tasks:
            status, detail = verdict(listings[cls + "." + method], method, blocks_in, findings)
            print("RESULT\t%s\t%s\t%s" % (label, status, detail))


def short(qualified):
    """org.postgresql.core.v3.QueryExecutorImpl.execute -> QueryExecutorImpl.execute"""
    cls, method = split_method(qualified)
    return "%s.%s" % (cls.rsplit(".", 1)[-1], method)


def report(knowledge, jardir, results_path):
    libs = load(knowledge)
    results = {}
    with open(results_path, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 3 and parts[0] == "RESULT":
                results[parts[1]] = (parts[2], parts[3] if len(parts) > 3 else "")
    failed = 0
    verdicts = []
    for i, lib in enumerate(libs):
        errors = format_errors(lib)
        artifact = lib.get("artifact", "?")
        if errors:
            failed += 1
            verdicts.append("FAILED    %s  format: %s" % (artifact, "; ".join(errors)))
            continue
        pin_ok = []
        seen = {}  # role -> statuses of its pins
        for j, pin in enumerate(lib["pins"]):
            statuses = {}
            for role, version in releases(lib):
                status, detail = results.get("%d/%d/%s" % (i, j, role), ("MISSING", "no result"))
                statuses[role] = status
                seen.setdefault(role, [])
                if status.lower() not in seen[role]:
                    seen[role].append(status.lower())
                print("CHECK  %-45s %-20s %-12s %s -> %s  %s  %s"
                      % (artifact, version, role, pin["method"], pin["blocksIn"], status, detail))
            if lib["fixedIn"] is None:
                pin_ok.append(statuses["checkedUpTo"] == "AFFECTED")
            else:
                pin_ok.append(statuses["lastAffected"] == "AFFECTED" and statuses["fixedIn"] == "FIXED")
        pins = ", ".join("%s -> %s" % (short(p["method"]), short(p["blocksIn"])) for p in lib["pins"])
        word = "VERIFIED" if all(pin_ok) else "FAILED  "
        if not all(pin_ok):
            failed += 1
        def found(role):
            return "/".join(seen.get(role, ["missing"]))
        if lib["fixedIn"] is None:
            verdicts.append("%s  %s  no fix  (%s still %s)  %s"
                            % (word, artifact, lib["checkedUpTo"], found("checkedUpTo"), pins))
        else:
            verdicts.append("%s  %s  fixedIn %s  (%s %s, %s %s)  %s"
                            % (word, artifact, lib["fixedIn"], lib["lastAffected"], found("lastAffected"),
                               lib["fixedIn"], found("fixedIn"), pins))
    print()
    for v in verdicts:
        print(v)
    print()
    print("%d claims, %d verified, %d failed" % (len(libs), len(libs) - failed, failed))
    return 1 if failed else 0


def main(argv):
    if len(argv) == 4 and argv[1] == "plan":
        plan(argv[2], argv[3])
        return 0
    if len(argv) == 4 and argv[1] == "check":
        check(argv[2], argv[3])
        return 0
    if len(argv) == 5 and argv[1] == "report":
        return report(argv[2], argv[3], argv[4])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
