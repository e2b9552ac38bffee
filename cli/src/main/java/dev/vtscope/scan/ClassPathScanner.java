package dev.vtscope.scan;

import dev.vtscope.advice.Knowledge;
import dev.vtscope.advice.Severity;
import dev.vtscope.analysis.Cores;
import dev.vtscope.attribution.BlockingCalls;
import dev.vtscope.attribution.BlockingKind;
import dev.vtscope.attribution.CallSite;
import dev.vtscope.attribution.DeclaredMethod;
import dev.vtscope.attribution.LineRange;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Scans a class path: reads its classes, then for each method of each class (on every core) finds
 * the monitors held across blocking calls, the class initialisers that block, the native methods,
 * the foreign-function upcalls and the calls of JDK methods that run a function under their own
 * monitor. The JDK's own classes are not read: a call into the JDK is looked up in the table of
 * blocking JDK methods.
 */
public final class ClassPathScanner {

  /** The depth used when none is given: enough for a logger's append through its writer. */
  public static final int DEFAULT_DEPTH = 5;

  private static final int HIGH_SCORE = 26;
  private static final int MEDIUM_SCORE = 16;
  private static final int NATIVE_SCORE = 10;
  private static final int CALLBACK_SCORE = 12;
  private static final int KNOWN_PIN_BONUS = 4;

  private final Knowledge knowledge;
  private final BlockingCalls table;
  private final int depth;

  /**
   * @param depth the most calls followed from a monitor to the call that blocks, 1 for the calls
   *     made in the monitor's own code
   */
  public ClassPathScanner(Knowledge knowledge, int depth) {
    if (depth < 1) {
      throw new IllegalArgumentException("a depth of at least 1");
    }
    this.knowledge = knowledge;
    this.table = BlockingCalls.standard();
    this.depth = depth;
  }

  /** Scans the jars and folders of {@code classPath}, in class path order. */
  public ScanResult scan(List<Path> classPath) {
    return scan(classPath, List.of());
  }

  /**
   * Scans the jars and folders of {@code classPath}, in class path order, and lists the calls of
   * the methods {@code callsOf} names.
   *
   * @param callsOf methods as {@code a.b.C.m} (a nested class {@code a.b.C$D.m}), every overload
   */
  public ScanResult scan(List<Path> classPath, List<String> callsOf) {
    List<ClassPathReader.Read> reads = ClassPathReader.read(classPath);
    List<ScannedArchive> archives = new ArrayList<>();
    List<ScannedClass> classes = new ArrayList<>();
    for (ClassPathReader.Read r : reads) {
      archives.add(r.archive());
      classes.addAll(r.classes());
    }
    ClassIndex index = new ClassIndex(classes);
    ChainSearch search =
        new ChainSearch(
            index,
            table,
            depth,
            knowledge.scanDoesNotFollow().stream()
                .map(Knowledge.UnfollowedCall::method)
                .collect(java.util.stream.Collectors.toSet()));
    ThreadRoots roots =
        ThreadRoots.find(classes, archives, index, search, knowledge.scanNotRanked());
    // each core takes the next class when done (a parallel stream left one core idle at times)
    List<List<ScanFinding>> found = new ArrayList<>(Collections.nCopies(classes.size(), null));
    Cores.forEach(
        found.size(),
        i -> {
          ScannedClass c = classes.get(i);
          found.set(i, findings(c, archives.get(c.archive()), search, roots));
        });
    List<ScanFinding> findings = found.stream().flatMap(List::stream).sorted(ORDER).toList();
    long methods = classes.stream().mapToLong(c -> c.code().methods().size()).sum();
    List<CallListing> listings =
        callsOf.stream().map(m -> listing(m, classes, archives, search)).toList();
    return new ScanResult(archives, findings, classes.size(), methods, depth, listings);
  }

  private CallListing listing(
      String qualified,
      List<ScannedClass> classes,
      List<ScannedArchive> archives,
      ChainSearch search) {
    int dot = qualified.lastIndexOf('.');
    String className = qualified.substring(0, Math.max(dot, 0));
    String name = qualified.substring(dot + 1);
    List<CallListing.ClassFile> files = new ArrayList<>();
    for (ScannedClass c : classes) {
      if (!c.name().equals(className)) {
        continue;
      }
      List<CallListing.Overload> overloads = new ArrayList<>();
      for (DeclaredMethod m : c.code().methods()) {
        if (!m.name().equals(name)) {
          continue;
        }
        List<CallListing.Call> calls = new ArrayList<>();
        boolean monitorEnter = false;
        for (CallSite call : m.calls()) {
          if (!call.reached() || call.kind() == CallSite.Kind.LAMBDA) {
            continue;
          }
          monitorEnter |= call.monitors() > 0;
          ChainSearch.Chain chain = search.from(call, depth);
          BlockingKind blocking =
              chain != null ? chain.kind() : runsCallback(call) ? BlockingKind.CALLBACK : null;
          calls.add(
              new CallListing.Call(
                  call.owner(),
                  call.name(),
                  call.descriptor(),
                  call.line(),
                  call.monitors(),
                  blocking));
        }
        overloads.add(
            new CallListing.Overload(m.descriptor(), m.isSynchronized(), monitorEnter, calls));
      }
      files.add(
          new CallListing.ClassFile(archives.get(c.archive()).location(), c.release(), overloads));
    }
    return new CallListing(className, name, files);
  }

  // equal scores: the fewest calls to the block first (the plainest case), then by name; the
  // demoted (code no virtual thread runs) after all the others
  private static final Comparator<ScanFinding> ORDER =
      Comparator.comparing((ScanFinding f) -> f.demotion() != null)
          .thenComparing(Comparator.comparingInt(ScanFinding::score).reversed())
          .thenComparingInt(f -> f.chain().size())
          .thenComparing(ScanFinding::className)
          .thenComparing(ScanFinding::method)
          .thenComparing(ScanFinding::descriptor)
          .thenComparing(f -> f.kind().ordinal())
          .thenComparingInt(ScanFinding::release)
          .thenComparing(ScanFinding::artifact);

  private List<ScanFinding> findings(
      ScannedClass c, ScannedArchive archive, ChainSearch search, ThreadRoots roots) {
    List<ScanFinding> found = new ArrayList<>();
    Knowledge.JdkFacts jdk = knowledge.jdk();
    int first = Math.max(jdk.virtualThreadsFinalIn(), c.release());
    for (DeclaredMethod m : c.code().methods()) {
      Demotion demotion = roots.of(m);
      if (m.isNative()) {
        found.add(
            finding(
                c,
                archive,
                m,
                FindingKind.NATIVE_METHOD,
                NATIVE_SCORE,
                m.lines(),
                List.of(),
                BlockingKind.NATIVE,
                new Releases(first, 0),
                0,
                demotion));
        continue;
      }
      boolean initialiser = m.name().equals("<clinit>");
      ChainSearch.Chain held = null;
      CallSite heldAt = null;
      CallSite upcall = null;
      CallSite callback = null;
      for (CallSite call : m.calls()) {
        if (!call.reached() || call.kind() == CallSite.Kind.LAMBDA) {
          continue;
        }
        if (upcall == null
            && call.owner().equals("java.lang.foreign.Linker")
            && call.name().equals("upcallStub")) {
          upcall = call;
        }
        if (callback == null && runsCallback(call)) {
          callback = call;
        }
        if (initialiser || m.isSynchronized() || call.monitors() > 0) {
          ChainSearch.Chain chain = search.from(call, depth);
          if (chain != null && (held == null || chain.score() > held.score())) {
            held = chain;
            heldAt = call;
          }
        }
      }
      if (held != null) {
        List<ChainStep> steps =
            held.after(new ChainStep(c.name(), m.name(), m.descriptor(), heldAt.line(), false))
                .steps();
        if (initialiser) {
          found.add(
              finding(
                  c,
                  archive,
                  m,
                  FindingKind.CLASS_INIT,
                  held.score(),
                  m.lines(),
                  steps,
                  held.kind(),
                  new Releases(first, 0),
                  jdk.classInitWaitUnmountsIn() - 1,
                  demotion));
        } else if (first < jdk.monitorsStopPinningIn()) {
          boolean block = heldAt.monitors() > 0;
          LineRange lines =
              block
                  ? (heldAt.block() != null
                      ? heldAt.block()
                      : heldAt.line() < 0 ? null : new LineRange(heldAt.line(), heldAt.line()))
                  : m.lines();
          found.add(
              finding(
                  c,
                  archive,
                  m,
                  block ? FindingKind.SYNCHRONIZED_BLOCK : FindingKind.SYNCHRONIZED_METHOD,
                  held.score(),
                  lines,
                  steps,
                  held.kind(),
                  new Releases(first, jdk.monitorsStopPinningIn() - 1),
                  0,
                  demotion));
        }
      }
      if (upcall != null) {
        List<ChainStep> steps =
            List.of(
                new ChainStep(c.name(), m.name(), m.descriptor(), upcall.line(), false),
                new ChainStep(upcall.owner(), upcall.name(), upcall.descriptor(), -1, false));
        found.add(
            finding(
                c,
                archive,
                m,
                FindingKind.FOREIGN_UPCALL,
                5 * BlockingKind.NATIVE.weight(),
                m.lines(),
                steps,
                BlockingKind.NATIVE,
                new Releases(Math.max(first, jdk.foreignFunctionsFinalIn()), 0),
                0,
                demotion));
      }
      if (callback != null) {
        List<ChainStep> steps =
            List.of(
                new ChainStep(c.name(), m.name(), m.descriptor(), callback.line(), false),
                new ChainStep(callback.owner(), callback.name(), callback.descriptor(), -1, false));
        found.add(
            finding(
                c,
                archive,
                m,
                FindingKind.JDK_MONITOR_CALLBACK,
                CALLBACK_SCORE,
                m.lines(),
                steps,
                BlockingKind.CALLBACK,
                new Releases(first, jdk.monitorsStopPinningIn() - 1),
                0,
                demotion));
      }
    }
    return found;
  }

  /** Whether {@code call} is of a JDK method that runs the caller's function under its monitor. */
  private boolean runsCallback(CallSite call) {
    return BlockingCalls.isJdkClass(call.owner())
        && table
            .match(call.owner(), call.name(), call.descriptor())
            .filter(b -> b.kind() == BlockingKind.CALLBACK)
            .isPresent();
  }

  private ScanFinding finding(
      ScannedClass c,
      ScannedArchive archive,
      DeclaredMethod m,
      FindingKind kind,
      int score,
      LineRange lines,
      List<ChainStep> chain,
      BlockingKind blocking,
      Releases releases,
      int waitersPinnedUpTo,
      Demotion demotion) {
    String qualified = c.name() + "." + m.name();
    Optional<Knowledge.Library> library = knowledge.library(c.name());
    KnownFix fix =
        library
            .map(
                l ->
                    new KnownFix(
                        l.name(),
                        l.knownPin(qualified),
                        l.fixedIn(),
                        l.lastAffected(),
                        l.checkedUpTo(),
                        l.remedy(),
                        l.source()))
            .orElse(null);
    int risk = score + (fix != null && fix.knownPin() ? KNOWN_PIN_BONUS : 0);
    return new ScanFinding(
        demotion != null ? Severity.INFO : severity(risk),
        risk,
        kind,
        archive.artifact(),
        archive.location(),
        c.release(),
        c.name(),
        m.name(),
        m.descriptor(),
        lines,
        chain,
        blocking,
        releases,
        waitersPinnedUpTo,
        fix,
        demotion);
  }

  static Severity severity(int score) {
    return score >= HIGH_SCORE
        ? Severity.HIGH
        : score >= MEDIUM_SCORE ? Severity.MEDIUM : Severity.LOW;
  }
}
