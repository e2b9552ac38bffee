import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeElement;
import java.lang.classfile.CodeModel;
import java.lang.classfile.Instruction;
import java.lang.classfile.Label;
import java.lang.classfile.MethodModel;
import java.lang.classfile.Opcode;
import java.lang.classfile.instruction.BranchInstruction;
import java.lang.classfile.instruction.DiscontinuedInstruction;
import java.lang.classfile.instruction.ExceptionCatch;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.classfile.instruction.LabelTarget;
import java.lang.classfile.instruction.LookupSwitchInstruction;
import java.lang.classfile.instruction.MonitorInstruction;
import java.lang.classfile.instruction.SwitchCase;
import java.lang.classfile.instruction.TableSwitchInstruction;
import java.lang.reflect.AccessFlag;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;

/**
 * Reads the bytecode of a library jar and tells whether a method holds a monitor around a call.
 * Needs JDK 24+ (java.lang.classfile); no other dependency. Run as a single-file program:
 *
 * <pre>
 *   java tools/LibraryFixCheck.java check TASKS.tsv
 *       each line of TASKS.tsv: label TAB jar TAB class TAB method TAB blocksIn
 *       (class: binary name with '$' for nested classes; method: a name, every overload is read;
 *        blocksIn: owner.method of an invoke instruction, the owner as the instruction names it)
 *       prints one line per task:
 *       RESULT TAB label TAB status TAB detail
 *       status: AFFECTED   some overload is synchronized, or holds a monitorenter, around the invoke
 *               FIXED      the invoke is there and no overload holds a monitor around it; or,
 *                          for blocksIn java.lang.Object.wait, the method is there with neither
 *                          the wait nor any monitor (the wait became a Condition.await)
 *               NOCALL     the method is there but none of its overloads invokes blocksIn
 *               NOMETHOD   the class is there but has no method of that name
 *               NOCLASS    the jar has no such class
 *   java tools/LibraryFixCheck.java scan JAR [REGEX]
 *       lists every invoke made while a monitor is held (by ACC_SYNCHRONIZED or monitorenter) whose
 *       "owner.name" matches REGEX (default: everything), to find pins worth listing.
 * </pre>
 *
 * Monitor ranges come from a data-flow pass over each method's code: the number of monitors held is
 * carried along every branch, switch, fall-through and exception edge (a handler starts with the
 * count of the instruction it covers), monitorenter adds one, monitorexit takes one away. An invoke
 * whose incoming count is above zero is inside a synchronized block.
 *
 * Multi-release jars: a class is read from every variant a JDK 21, 22 or 23 runtime would load
 * (META-INF/versions/N for the greatest N not above the feature release, else the base entry); the
 * method is AFFECTED when one of them is, FIXED only when all of them are. The detail names the
 * entries read.
 *
 * A blocksIn in java.* that is not itself under the library's monitor is looked up in the running
 * JDK's java.base: when that JDK method holds a monitor around a call of a java.util.function
 * interface (ConcurrentHashMap.compute runs the caller's function inside synchronized), the call is
 * reported AFFECTED "via" that JDK monitor, as the library's callback then runs under it.
 */
public class LibraryFixCheck {

    static final int[] JDK_FEATURES = {21, 22, 23};

    public static void main(String[] args) throws Exception {
        if (args.length >= 2 && args[0].equals("check")) {
            for (String line : Files.readAllLines(Path.of(args[1]))) {
                if (line.isBlank() || line.startsWith("#")) continue;
                String[] f = line.split("\t");
                if (f.length != 5) throw new IllegalArgumentException("want 5 tab-separated fields: " + line);
                String result;
                try {
                    result = check(Path.of(f[1]), f[2], f[3], f[4]);
                } catch (IOException | RuntimeException e) {
                    result = "ERROR\t" + e;
                }
                System.out.println("RESULT\t" + f[0] + "\t" + result);
            }
        } else if (args.length >= 2 && args[0].equals("scan")) {
            scan(Path.of(args[1]), Pattern.compile(args.length > 2 ? args[2] : ".*"));
        } else {
            System.err.println("usage: java LibraryFixCheck.java check TASKS.tsv | scan JAR [REGEX]");
            System.exit(2);
        }
    }

    // ---------------------------------------------------------------- check

    static String check(Path jar, String className, String methodName, String blocksIn) throws IOException {
        int dot = blocksIn.lastIndexOf('.');
        String wantOwner = blocksIn.substring(0, dot).replace('.', '/');
        String wantName = blocksIn.substring(dot + 1);
        Map<String, byte[]> variants = readVariants(jar, className.replace('.', '/') + ".class");
        if (variants.isEmpty()) return "NOCLASS\tno " + className + " in " + jar.getFileName();
        List<String> details = new ArrayList<>();
        boolean anyAffected = false, allFixed = true, anyMethod = false, anyCall = false, anyMonitor = false;
        for (var v : variants.entrySet()) {
            ClassModel cm = ClassFile.of().parse(v.getValue());
            boolean entryAffected = false, entryCall = false, entryMethod = false;
            Set<String> held = new LinkedHashSet<>(), free = new LinkedHashSet<>(), locks = new TreeSet<>();
            for (MethodModel mm : cm.methods()) {
                if (!mm.methodName().equalsString(methodName)) continue;
                entryMethod = true;
                boolean sync = mm.flags().has(AccessFlag.SYNCHRONIZED);
                CodeModel code = mm.code().orElse(null);
                anyMonitor |= sync;
                if (code == null) continue;
                for (CodeElement e : code) {
                    if (e instanceof MonitorInstruction) anyMonitor = true;
                }
                for (Site s : sites(code)) {
                    InvokeInstruction inv = s.invoke;
                    String owner = inv.owner().asInternalName(), name = inv.name().stringValue();
                    if (isLock(owner, name)) locks.add(owner.replace('/', '.') + "." + name);
                    if (!owner.equals(wantOwner) || !name.equals(wantName)) continue;
                    entryCall = true;
                    String where = signature(mm) + " @" + s.bci;
                    if (sync) {
                        entryAffected = true;
                        held.add("synchronized method " + where);
                    } else if (s.monitors > 0) {
                        entryAffected = true;
                        held.add("monitorenter " + where);
                    } else {
                        free.add(where);
                    }
                }
            }
            String via = null;
            if (entryCall && !entryAffected && wantOwner.startsWith("java/")) {
                via = jdkMonitorAroundCallback(wantOwner, wantName);
                if (via != null) entryAffected = true;
            }
            anyMethod |= entryMethod;
            anyCall |= entryCall;
            anyAffected |= entryAffected;
            allFixed &= entryCall && !entryAffected;
            String d = v.getKey() + ": ";
            if (!entryMethod) d += "no method " + methodName;
            else if (!entryCall) d += "no invoke of " + blocksIn;
            else if (entryAffected && via == null) d += "held by " + String.join(", ", held);
            else if (entryAffected) d += "invoke at " + String.join(", ", free) + " enters " + via;
            else d += "invoke at " + String.join(", ", free) + " outside any monitor";
            if (entryMethod) d += "; lock calls: " + (locks.isEmpty() ? "none" : String.join(" ", locks));
            details.add(d);
        }
        // A wait inside a monitor can go away with the monitor (a Condition.await under a lock):
        // the method still there, with neither the wait nor any monitor, is fixed too.
        boolean waitGone = !anyCall && anyMethod && !anyMonitor && blocksIn.equals("java.lang.Object.wait");
        if (waitGone) details.add("no Object.wait and no monitor left in " + methodName);
        String status = !anyMethod ? "NOMETHOD" : anyAffected ? "AFFECTED" : waitGone ? "FIXED" : !anyCall ? "NOCALL" : allFixed ? "FIXED" : "NOCALL";
        return status + "\t" + String.join(" | ", details);
    }

    /** name(ParamType,...) with simple type names, to tell overloads apart. */
    static String signature(MethodModel mm) {
        StringBuilder b = new StringBuilder(mm.methodName().stringValue()).append('(');
        var params = mm.methodTypeSymbol().parameterList();
        for (int i = 0; i < params.size(); i++) b.append(i == 0 ? "" : ",").append(params.get(i).displayName());
        return b.append(')').toString();
    }

    /** A call that takes a lock other than a monitor: any method named lock, lockInterruptibly or tryLock, or a Semaphore acquire. */
    static boolean isLock(String owner, String name) {
        return name.equals("lock") || name.equals("lockInterruptibly") || name.equals("tryLock")
                || (name.equals("acquire") && owner.startsWith("java/util/concurrent/"));
    }

    static final Map<String, String> JDK_CACHE = new HashMap<>();

    /** "java.util.concurrent.ConcurrentHashMap.compute (synchronized block around java.util.function.BiFunction.apply, java.base of JDK 25)" or null. */
    static String jdkMonitorAroundCallback(String owner, String name) {
        return JDK_CACHE.computeIfAbsent(owner + "." + name, k -> {
            try {
                FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
                Path p = jrt.getPath("modules", "java.base", owner + ".class");
                if (!Files.exists(p)) return null;
                ClassModel cm = ClassFile.of().parse(Files.readAllBytes(p));
                for (MethodModel mm : cm.methods()) {
                    if (!mm.methodName().equalsString(name) || mm.code().isEmpty()) continue;
                    boolean sync = mm.flags().has(AccessFlag.SYNCHRONIZED);
                    for (Site s : sites(mm.code().get())) {
                        String o = s.invoke.owner().asInternalName();
                        if ((sync || s.monitors > 0) && o.startsWith("java/util/function/")) {
                            return owner.replace('/', '.') + "." + name + " (its synchronized block holds "
                                    + o.replace('/', '.') + "." + s.invoke.name().stringValue()
                                    + ", java.base of JDK " + Runtime.version().feature() + ")";
                        }
                    }
                }
                return null;
            } catch (IOException e) {
                return null;
            }
        });
    }

    // ---------------------------------------------------------------- scan

    static void scan(Path jar, Pattern filter) throws IOException {
        try (JarFile jf = new JarFile(jar.toFile())) {
            var names = jf.stream().map(ZipEntry::getName).filter(n -> n.endsWith(".class")).sorted().toList();
            for (String n : names) {
                if (n.startsWith("META-INF/versions/") || n.endsWith("module-info.class")) continue;
                ClassModel cm;
                try (InputStream in = jf.getInputStream(jf.getEntry(n))) {
                    cm = ClassFile.of().parse(in.readAllBytes());
                } catch (RuntimeException e) {
                    continue;
                }
                String cls = cm.thisClass().asInternalName().replace('/', '.');
                for (MethodModel mm : cm.methods()) {
                    if (mm.code().isEmpty()) continue;
                    boolean sync = mm.flags().has(AccessFlag.SYNCHRONIZED);
                    Set<String> seen = new LinkedHashSet<>();
                    for (Site s : sites(mm.code().get())) {
                        if (!sync && s.monitors == 0) continue;
                        String call = s.invoke.owner().asInternalName().replace('/', '.') + "." + s.invoke.name().stringValue();
                        if (filter.matcher(call).find() && seen.add(call)) {
                            System.out.println(cls + "." + mm.methodName().stringValue() + "\t" + call + "\t"
                                    + (sync ? "synchronized-method" : "monitorenter"));
                        }
                    }
                }
            }
        }
    }

    // ---------------------------------------------------------------- jar reading

    /** Entry name -> class bytes, for each variant a JDK 21..23 runtime would load. */
    static Map<String, byte[]> readVariants(Path jar, String entry) throws IOException {
        Map<String, byte[]> out = new java.util.LinkedHashMap<>();
        try (JarFile jf = new JarFile(jar.toFile())) {
            Manifest mf = jf.getManifest();
            boolean multi = mf != null && "true".equalsIgnoreCase(mf.getMainAttributes().getValue("Multi-Release"));
            TreeSet<Integer> versions = new TreeSet<>();
            if (multi) {
                jf.stream().map(ZipEntry::getName).filter(n -> n.startsWith("META-INF/versions/") && n.endsWith("/" + entry))
                        .forEach(n -> {
                            String num = n.substring("META-INF/versions/".length(), n.indexOf('/', "META-INF/versions/".length()));
                            try {
                                versions.add(Integer.parseInt(num));
                            } catch (NumberFormatException ignored) {
                            }
                        });
            }
            Set<String> chosen = new LinkedHashSet<>();
            for (int f : JDK_FEATURES) {
                Integer v = versions.floor(f);
                chosen.add(v == null ? entry : "META-INF/versions/" + v + "/" + entry);
            }
            for (String name : chosen) {
                ZipEntry ze = jf.getEntry(name);
                if (ze == null) continue;
                try (InputStream in = jf.getInputStream(ze)) {
                    out.put(name, in.readAllBytes());
                }
            }
        }
        return out;
    }

    // ---------------------------------------------------------------- monitor data flow

    record Site(InvokeInstruction invoke, int bci, int monitors) {}

    static final int MAX_DEPTH = 32;

    /** Every invoke of the method with its bytecode offset and the number of monitors held when it runs. */
    static List<Site> sites(CodeModel code) {
        List<Instruction> ins = new ArrayList<>();
        List<Integer> bcis = new ArrayList<>();
        Map<Label, Integer> labelAt = new HashMap<>();
        List<ExceptionCatch> catches = new ArrayList<>();
        List<Label> pending = new ArrayList<>();
        int bci = 0;
        for (CodeElement e : code) {
            if (e instanceof LabelTarget lt) {
                pending.add(lt.label());
            } else if (e instanceof ExceptionCatch ec) {
                catches.add(ec);
            } else if (e instanceof Instruction i) {
                for (Label l : pending) labelAt.put(l, ins.size());
                pending.clear();
                ins.add(i);
                bcis.add(bci);
                bci += i.sizeInBytes();
            }
        }
        for (Label l : pending) labelAt.put(l, ins.size()); // labels at the very end
        int n = ins.size();
        List<List<Integer>> handlersOf = new ArrayList<>();
        for (int i = 0; i < n; i++) handlersOf.add(new ArrayList<>());
        for (ExceptionCatch ec : catches) {
            Integer from = labelAt.get(ec.tryStart()), to = labelAt.get(ec.tryEnd()), h = labelAt.get(ec.handler());
            if (from == null || to == null || h == null) continue;
            for (int i = from; i < to && i < n; i++) handlersOf.get(i).add(h);
        }
        int[] depth = new int[n];
        Arrays.fill(depth, -1);
        ArrayDeque<Integer> work = new ArrayDeque<>();
        if (n > 0) {
            depth[0] = 0;
            work.add(0);
        }
        while (!work.isEmpty()) {
            int i = work.poll();
            int d = depth[i];
            Instruction in = ins.get(i);
            Opcode op = in.opcode();
            int after = op == Opcode.MONITORENTER ? Math.min(d + 1, MAX_DEPTH) : op == Opcode.MONITOREXIT ? Math.max(d - 1, 0) : d;
            List<Integer> next = new ArrayList<>();
            if (in instanceof BranchInstruction b) {
                next.add(labelAt.get(b.target()));
                if (op != Opcode.GOTO && op != Opcode.GOTO_W) next.add(i + 1);
            } else if (in instanceof TableSwitchInstruction t) {
                next.add(labelAt.get(t.defaultTarget()));
                for (SwitchCase c : t.cases()) next.add(labelAt.get(c.target()));
            } else if (in instanceof LookupSwitchInstruction t) {
                next.add(labelAt.get(t.defaultTarget()));
                for (SwitchCase c : t.cases()) next.add(labelAt.get(c.target()));
            } else if (in instanceof DiscontinuedInstruction.JsrInstruction j) {
                next.add(labelAt.get(j.target()));
                next.add(i + 1);
            } else if (op == Opcode.ATHROW || op == Opcode.RET || op == Opcode.RET_W
                    || op == Opcode.IRETURN || op == Opcode.LRETURN || op == Opcode.FRETURN
                    || op == Opcode.DRETURN || op == Opcode.ARETURN || op == Opcode.RETURN) {
                // no successor in this method
            } else {
                next.add(i + 1);
            }
            for (Integer s : next) flow(s, after, depth, work, n);
            for (Integer h : handlersOf.get(i)) flow(h, d, depth, work, n);
        }
        List<Site> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (ins.get(i) instanceof InvokeInstruction inv) out.add(new Site(inv, bcis.get(i), Math.max(depth[i], 0)));
        }
        return out;
    }

    static void flow(Integer to, int d, int[] depth, ArrayDeque<Integer> work, int n) {
        if (to == null || to >= n) return;
        if (d > depth[to]) {
            depth[to] = d;
            work.add(to);
        }
    }
}
