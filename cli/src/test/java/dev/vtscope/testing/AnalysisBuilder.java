package dev.vtscope.testing;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.CarrierWork;
import dev.vtscope.analysis.CarriersAtEnd;
import dev.vtscope.analysis.Concurrency;
import dev.vtscope.analysis.DurationSummary;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.analysis.InputFacts;
import dev.vtscope.analysis.MonitorSummary;
import dev.vtscope.analysis.PinnedSummary;
import dev.vtscope.analysis.RecordingSettings;
import dev.vtscope.analysis.SchedulerSetting;
import dev.vtscope.analysis.SchedulerSettings;
import dev.vtscope.analysis.Site;
import dev.vtscope.analysis.SubmitFailedSummary;
import dev.vtscope.attribution.Artifact;
import dev.vtscope.attribution.Attribution;
import dev.vtscope.attribution.Culprit;
import dev.vtscope.attribution.CulpritKind;
import dev.vtscope.attribution.LineRange;
import dev.vtscope.attribution.Owner;
import dev.vtscope.recording.Frame;
import dev.vtscope.recording.JvmFacts;
import dev.vtscope.recording.RecordedStack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A small {@link Analysis} made by hand, for testing rules and renderers without a recording:
 * {@code AnalysisBuilder.jdk(21).recorded(Duration.ofSeconds(10)).pinned(site)...build()}.
 * Everything not set is what a quiet recording with vtscope's settings would show.
 */
public final class AnalysisBuilder {

  private int feature = 21;
  private long recordedNanos = Duration.ofSeconds(10).toNanos();
  private int parallelism = 2;
  private int maxPoolSize = 256;
  private int carriersStarted = 2;
  private int cpus = 2;
  private boolean pinnedEnabled = true;
  private Long pinnedThreshold = 0L;
  private int stackDepth = 64;
  private final List<Site> pinned = new ArrayList<>();
  private final List<Site> monitorEnters = new ArrayList<>();
  private final List<Site> monitorWaits = new ArrayList<>();
  private int peak;
  private long saturatedNanos;
  private CarriersAtEnd carriersAtEnd;

  private AnalysisBuilder(int feature) {
    this.feature = feature;
  }

  /** A recording of a JVM of this JDK feature release (21, 25, ...). */
  public static AnalysisBuilder jdk(int feature) {
    return new AnalysisBuilder(feature);
  }

  public AnalysisBuilder recorded(Duration duration) {
    recordedNanos = duration.toNanos();
    return this;
  }

  public AnalysisBuilder parallelism(int parallelism) {
    this.parallelism = parallelism;
    this.cpus = parallelism;
    this.carriersStarted = parallelism;
    return this;
  }

  public AnalysisBuilder carriersStarted(int started, int maxPoolSize) {
    this.carriersStarted = started;
    this.maxPoolSize = maxPoolSize;
    return this;
  }

  public AnalysisBuilder pinnedThreshold(Duration threshold) {
    pinnedThreshold = threshold.toNanos();
    return this;
  }

  /** Recorded with {@code jdk.VirtualThreadPinned} off: no pin could be. */
  public AnalysisBuilder pinnedEventOff() {
    pinnedEnabled = false;
    return this;
  }

  public AnalysisBuilder stackDepth(int depth) {
    stackDepth = depth;
    return this;
  }

  public AnalysisBuilder pinned(SiteBuilder site) {
    pinned.add(site.build());
    return this;
  }

  /**
   * A pinned site of {@code events} pins of 20 ms on {@code stack}, blamed as the attribution rules
   * blamed it: for rules whose advice depends on the whole stack (nested monitors).
   */
  public AnalysisBuilder pinned(RecordedStack stack, Attribution attribution, long events) {
    long each = Duration.ofMillis(20).toNanos();
    long total = events * each;
    Culprit culprit = attribution.culprit();
    pinned.add(
        new Site(
            culprit.kind() + " " + culprit.qualifiedMethod(),
            new DurationSummary(events, total, each, each, each, each, each, each),
            (int) events,
            0,
            total,
            stack,
            stack.topApplicationFrame(),
            0,
            Map.of(),
            Map.of(),
            Map.of(),
            attribution,
            Map.of()));
    return this;
  }

  public AnalysisBuilder monitorEnter(SiteBuilder site) {
    monitorEnters.add(site.build());
    return this;
  }

  public AnalysisBuilder monitorWait(SiteBuilder site) {
    monitorWaits.add(site.build());
    return this;
  }

  /** Carriers held at once: the peak, and how long every carrier was held. */
  public AnalysisBuilder carriersHeld(int peak, Duration allHeld) {
    this.peak = peak;
    this.saturatedNanos = allHeld.toNanos();
    return this;
  }

  /** What the recording's last thread dumps showed of the carriers when it ended. */
  public AnalysisBuilder carriersAtEnd(CarriersAtEnd atEnd) {
    this.carriersAtEnd = atEnd;
    return this;
  }

  public Analysis build() {
    JvmFacts jvm =
        new JvmFacts(
            "OpenJDK 64-Bit Server VM", feature + ".0.8", feature + ".0.8", feature, 0, -1);
    InputFacts input =
        new InputFacts("hand-built.jfr", 1, 1, 0, recordedNanos, jvm, cpus, null, List.of());
    SchedulerSettings scheduler =
        new SchedulerSettings(
            new SchedulerSetting(
                "jdk.virtualThreadScheduler.parallelism",
                parallelism,
                SchedulerSetting.Source.DEFAULT),
            new SchedulerSetting(
                "jdk.virtualThreadScheduler.maxPoolSize",
                maxPoolSize,
                SchedulerSetting.Source.DEFAULT),
            new SchedulerSetting(
                "jdk.virtualThreadScheduler.minRunnable", 1, SchedulerSetting.Source.DEFAULT),
            carriersStarted);
    RecordingSettings settings =
        new RecordingSettings(
            pinnedEnabled, pinnedThreshold, true, true, 20_000_000L, true, 20_000_000L, stackDepth);
    Concurrency concurrency = concurrency(peak, saturatedNanos);
    PinnedSummary pinnedSummary =
        new PinnedSummary(
            summary(pinned),
            pinned.stream().mapToInt(Site::virtualThreads).sum(),
            0,
            concurrency,
            List.copyOf(pinned));
    return new Analysis(
        List.of(input),
        jvm,
        cpus,
        scheduler,
        settings,
        GroupBy.CULPRIT,
        pinnedSummary,
        concurrency,
        monitors(monitorEnters),
        monitors(monitorWaits),
        new SubmitFailedSummary(0, List.of()),
        new CarrierWork(
            true,
            "10 ms",
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            List.of(),
            true,
            10_000_000L,
            summary(List.of()),
            0,
            List.of(),
            // no thread-start stacks: compensation is read off the carriers started
            false,
            -1,
            List.of()),
        null,
        null,
        carriersAtEnd,
        List.of());
  }

  private Concurrency concurrency(int peak, long saturated) {
    List<Long> atLevel = new ArrayList<>();
    for (int level = 0; level <= peak; level++) {
      atLevel.add(level == peak ? saturated : 0L);
    }
    atLevel.set(0, Math.max(0, recordedNanos - saturated));
    return new Concurrency(peak, peak >= parallelism ? saturated : 0, parallelism, atLevel);
  }

  private static MonitorSummary monitors(List<Site> sites) {
    return new MonitorSummary(
        summary(sites), sites.stream().mapToInt(Site::virtualThreads).sum(), List.copyOf(sites));
  }

  private static DurationSummary summary(List<Site> sites) {
    long count = sites.stream().mapToLong(s -> s.durations().count()).sum();
    long total = sites.stream().mapToLong(s -> s.durations().totalNanos()).sum();
    long max = sites.stream().mapToLong(s -> s.durations().maxNanos()).max().orElse(0);
    long min = sites.stream().mapToLong(s -> s.durations().minNanos()).min().orElse(0);
    long mean = count == 0 ? 0 : total / count;
    return new DurationSummary(count, total, min, mean, mean, max, max, max);
  }

  /**
   * A site: {@code site("com.example.Cache", "load").synchronizedBlock(10, 14).pins(50, ms(20))}.
   */
  public static SiteBuilder site(String className, String method) {
    return new SiteBuilder(className, method);
  }

  /** One site of a hand-built analysis, its culprit at the top of its stack. */
  public static final class SiteBuilder {
    private final String className;
    private final String method;
    private CulpritKind kind = CulpritKind.SYNCHRONIZED_METHOD;
    private Owner owner = Owner.APPLICATION;
    private Artifact artifact;
    private LineRange lines;
    private long events = 1;
    private long eachNanos = Duration.ofMillis(20).toNanos();
    private int threads = 1;
    private Frame waitedAt;
    private Frame calledFrom;
    private String monitorClass;

    private SiteBuilder(String className, String method) {
      this.className = className;
      this.method = method;
    }

    public SiteBuilder synchronizedBlock(int first, int last) {
      kind = CulpritKind.SYNCHRONIZED_BLOCK;
      lines = new LineRange(first, last);
      return this;
    }

    public SiteBuilder kind(CulpritKind kind) {
      this.kind = kind;
      return this;
    }

    /** Owned by a library, e.g. {@code library("com.h2database:h2", "2.1.214")}. */
    public SiteBuilder library(String name, String version) {
      owner = Owner.LIBRARY;
      artifact = new Artifact(name, version, Artifact.Source.MAVEN, name + "-" + version + ".jar");
      return this;
    }

    public SiteBuilder jdk() {
      owner = Owner.JDK;
      return this;
    }

    /** {@code events} events of {@code each}, from {@code threads} virtual threads. */
    public SiteBuilder pins(long events, Duration each) {
      this.events = events;
      this.eachNanos = each.toNanos();
      this.threads = (int) Math.min(Integer.MAX_VALUE, events);
      return this;
    }

    public SiteBuilder waitedAt(String className, String method) {
      waitedAt = frame(className, method, 42);
      return this;
    }

    public SiteBuilder calledFrom(String className, String method) {
      calledFrom = frame(className, method, 7);
      return this;
    }

    public SiteBuilder monitorClass(String monitorClass) {
      this.monitorClass = monitorClass;
      return this;
    }

    Site build() {
      List<Frame> frames = new ArrayList<>();
      if (waitedAt != null) {
        frames.add(waitedAt);
      }
      Frame culpritFrame = frame(className, method, lines == null ? 12 : lines.first());
      frames.add(culpritFrame);
      if (calledFrom != null) {
        frames.add(calledFrom);
      }
      int index = frames.indexOf(culpritFrame);
      Culprit culprit =
          new Culprit(
              className, method, culpritFrame.line(), kind, owner, artifact, lines, index, null);
      List<Owner> owners = new ArrayList<>();
      for (Frame f : frames) {
        owners.add(f == culpritFrame ? owner : Owner.APPLICATION);
      }
      long total = events * eachNanos;
      return new Site(
          kind + " " + className + "." + method,
          new DurationSummary(
              events, total, eachNanos, eachNanos, eachNanos, eachNanos, eachNanos, eachNanos),
          threads,
          0,
          total,
          new RecordedStack(frames, false),
          frames.stream().filter(Frame::isApplicationFrame).findFirst().orElse(null),
          0,
          Map.of(),
          Map.of(),
          monitorClass == null ? Map.of() : Map.of(monitorClass, events),
          new Attribution(culprit, List.of(), waitedAt, calledFrom, null, owners, null),
          Map.of());
    }

    private static Frame frame(String className, String method, int line) {
      return new Frame(
          className, method, "()V", line, 0, "Interpreted", 0, Frame.ClassLoaderKind.APPLICATION);
    }
  }
}
