package dev.vtscope.advice;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What vtscope knows that no recording says: JDK facts, library releases that fixed pinning, what
 * submit-failure messages mean, and the thresholds the rules use. Loaded from {@code
 * knowledge.json} beside this class; docs/findings.md describes each entry.
 */
public record Knowledge(
    JdkFacts jdk,
    Thresholds thresholds,
    List<Library> libraries,
    List<SubmitFailureMeaning> submitFailures,
    List<UnfollowedCall> scanDoesNotFollow,
    List<UnrunPackage> scanNotRanked) {

  public Knowledge {
    libraries = List.copyOf(libraries);
    submitFailures = List.copyOf(submitFailures);
    scanDoesNotFollow = List.copyOf(scanDoesNotFollow);
    scanNotRanked = List.copyOf(scanNotRanked);
  }

  /**
   * A library method {@code vtscope scan} does not follow calls into: what it reaches blocks only
   * on a switch that is off by default, or too briefly to report.
   *
   * @param method the method, {@code package.Class.method} (every descriptor)
   * @param why when it blocks, and why that is not worth a finding
   */
  public record UnfollowedCall(String method, String why) {}

  /**
   * A package a library's jar carries that an application using the library does not run (a server
   * shipped in its client's jar): {@code vtscope scan} lists its findings unranked, unless the
   * scan's calls reach them from outside the package.
   *
   * @param packagePrefix the package, {@code a.b.c} (its subpackages too)
   * @param artifact the jar it ships in, {@code group:artifact}
   * @param what what the package is, for the finding's line
   * @param why why an application does not run it, and how that was checked
   */
  public record UnrunPackage(String packagePrefix, String artifact, String what, String why) {}

  /**
   * The JDK releases where virtual-thread behaviour changes: every release number the analysis and
   * the rules use comes from here.
   *
   * @param virtualThreadsPreviewIn the first release with virtual threads as a preview feature
   * @param virtualThreadsFinalIn the first release where they are final
   * @param pinnedReasonRecordedIn the first release whose pinned events record their reason
   * @param monitorsStopPinningIn the first release where synchronized no longer pins (JEP 491)
   * @param monitorsStopPinningSource where that is stated
   * @param foreignFunctionsFinalIn the first release with the final foreign-function API
   * @param classInitWaitUnmountsIn the first release where a virtual thread waiting for another
   *     thread's class initialiser unmounts, on the common paths (static call, new, static field)
   * @param classInitWaitUnmountsSource where that is stated
   */
  public record JdkFacts(
      int virtualThreadsPreviewIn,
      int virtualThreadsFinalIn,
      int pinnedReasonRecordedIn,
      int monitorsStopPinningIn,
      String monitorsStopPinningSource,
      int foreignFunctionsFinalIn,
      int classInitWaitUnmountsIn,
      String classInitWaitUnmountsSource) {

    /** The releases as the analysis takes them. */
    public dev.vtscope.analysis.JdkReleases releases() {
      return new dev.vtscope.analysis.JdkReleases(
          virtualThreadsPreviewIn,
          virtualThreadsFinalIn,
          monitorsStopPinningIn,
          pinnedReasonRecordedIn);
    }
  }

  /**
   * @param highCapacityShare share of carrier capacity (recording time × parallelism) at stake from
   *     which a finding is high
   * @param mediumCapacityShare the same, for medium
   * @param lowCapacityShare the same, for low; below it a finding is only information
   * @param starvationMinNanos how long every carrier must have been held before it is starvation
   * @param resizeSaturatedShare share of the recording with every carrier held from which a larger
   *     pool is recommended
   * @param contendedMonitorShare share of held carrier time spent entering monitors from which more
   *     carriers would only queue on the monitors
   * @param compensationHighShareOfMaxPool carriers started, as a share of maxPoolSize, from which
   *     compensation is high
   * @param shortRecordingNanos recordings shorter than this say little when nothing was seen
   * @param nearThresholdFactor pins shorter than this many times the threshold suggest that shorter
   *     ones were cut off
   * @param pinnedTimeQuantile the quantile of time the recommendation sizes for
   * @param maxRecommendedParallelism the largest parallelism vtscope recommends
   */
  public record Thresholds(
      double highCapacityShare,
      double mediumCapacityShare,
      double lowCapacityShare,
      long starvationMinNanos,
      double resizeSaturatedShare,
      double contendedMonitorShare,
      double compensationHighShareOfMaxPool,
      long shortRecordingNanos,
      double nearThresholdFactor,
      double pinnedTimeQuantile,
      int maxRecommendedParallelism) {}

  /**
   * A library known to pin, the release that stopped it or what to do when none did. Every release
   * named here is checked from the jars' bytecode by tools/verify-library-fixes.sh; its output is
   * docs/evidence/library-fixes.txt.
   *
   * @param name its name
   * @param category what kind of library it is (JDBC driver, connection pool, cache, ...)
   * @param packages package prefixes of its classes, each ending with a dot
   * @param artifact its Maven {@code group:artifact}
   * @param pins the methods that hold a monitor around blocking work in the affected releases
   * @param lastAffected the newest release that still pins there, or null when no release fixed it
   * @param fixedIn the first release that no longer pins there, or null when there is none
   * @param checkedUpTo with no fixed release: the newest release checked, which still pins
   * @param change what the fixed release changed, or why there is none
   * @param remedy what a user does without that release, or when there is none
   * @param asyncApi the library's non-blocking or asynchronous API that makes a virtual thread wait
   *     for a future instead of in {@code Object.wait()}, or null when it has none
   * @param source where this is stated
   */
  public record Library(
      String name,
      String category,
      List<String> packages,
      String artifact,
      List<Pin> pins,
      String lastAffected,
      String fixedIn,
      String checkedUpTo,
      String change,
      String remedy,
      String asyncApi,
      String source) {

    public Library {
      packages = List.copyOf(packages);
      pins = List.copyOf(pins);
      if (pins.isEmpty()) {
        throw new IllegalArgumentException(name + " names no pinning method");
      }
      if (fixedIn != null && (lastAffected == null || checkedUpTo != null)) {
        throw new IllegalArgumentException(
            name + ": a fixed release needs the last affected one, and no checkedUpTo");
      }
      if (fixedIn == null && (checkedUpTo == null || lastAffected != null)) {
        throw new IllegalArgumentException(
            name + ": with no fixed release, checkedUpTo names the newest release checked");
      }
    }

    /** Whether {@code qualifiedMethod} is one of the pins this entry names. */
    public boolean knownPin(String qualifiedMethod) {
      return pins.stream().anyMatch(p -> p.method().equals(qualifiedMethod));
    }
  }

  /**
   * A method of a library that holds a monitor around blocking work.
   *
   * @param method the method, {@code package.Class.method}
   * @param blocksIn the call made inside the monitor through which the thread blocks
   */
  public record Pin(String method, String blocksIn) {}

  /**
   * What a submit-failure message means.
   *
   * @param id a stable identifier
   * @param pattern a regular expression found in the message
   * @param meaning what happened
   * @param action what to do
   */
  public record SubmitFailureMeaning(String id, String pattern, String meaning, String action) {

    boolean matches(String message) {
      return message != null && Pattern.compile(pattern).matcher(message).find();
    }
  }

  /**
   * The library that owns {@code className}, if vtscope knows it: of entries whose packages match,
   * the one with the longest matching prefix (a library's entry for one of its packages comes
   * before its general one).
   */
  public Optional<Library> library(String className) {
    Library best = null;
    int bestLength = -1;
    for (Library l : libraries) {
      for (String p : l.packages()) {
        if (className.startsWith(p) && p.length() > bestLength) {
          best = l;
          bestLength = p.length();
        }
      }
    }
    return Optional.ofNullable(best);
  }

  /** What a submit-failure message means, if vtscope knows. */
  public Optional<SubmitFailureMeaning> submitFailure(String message) {
    return submitFailures.stream().filter(m -> m.matches(message)).findFirst();
  }

  private static final Knowledge STANDARD = load();

  /** The knowledge shipped with vtscope. */
  public static Knowledge standard() {
    return STANDARD;
  }

  private static Knowledge load() {
    try (InputStream in = Knowledge.class.getResourceAsStream("knowledge.json")) {
      if (in == null) {
        throw new IllegalStateException("knowledge.json is missing from vtscope's jar");
      }
      return read(in);
    } catch (IOException e) {
      throw new UncheckedIOException("knowledge.json cannot be read", e);
    }
  }

  /**
   * Reads a knowledge document. Every field must be there (a library's releases may be null, as
   * {@link Library} says) and no other field may be: a misspelt name fails here rather than reading
   * as zero. jackson-core's parser rather than a databind mapper: building the mapper and its
   * record deserializers were a large share of a small recording's analysis.
   */
  static Knowledge read(InputStream in) throws IOException {
    try (JsonParser parser = new JsonFactory().createParser(in)) {
      parser.nextToken();
      Map<String, Object> root = object(parser, "the document");
      fields(
          root,
          "the document",
          "jdk",
          "thresholds",
          "libraries",
          "submitFailures",
          "scanDoesNotFollow",
          "scanNotRanked");
      Map<String, Object> jdk = map(root, "jdk");
      fields(
          jdk,
          "jdk",
          "virtualThreadsPreviewIn",
          "virtualThreadsFinalIn",
          "pinnedReasonRecordedIn",
          "monitorsStopPinningIn",
          "monitorsStopPinningSource",
          "foreignFunctionsFinalIn",
          "classInitWaitUnmountsIn",
          "classInitWaitUnmountsSource");
      Map<String, Object> t = map(root, "thresholds");
      fields(
          t,
          "thresholds",
          "highCapacityShare",
          "mediumCapacityShare",
          "lowCapacityShare",
          "starvationMinNanos",
          "resizeSaturatedShare",
          "contendedMonitorShare",
          "compensationHighShareOfMaxPool",
          "shortRecordingNanos",
          "nearThresholdFactor",
          "pinnedTimeQuantile",
          "maxRecommendedParallelism");
      List<Library> libraries = new ArrayList<>();
      for (Map<String, Object> l : maps(root, "libraries")) {
        fields(
            l,
            "a library",
            "name",
            "category",
            "packages",
            "artifact",
            "pins",
            "lastAffected",
            "fixedIn",
            "checkedUpTo",
            "change",
            "remedy",
            "asyncApi",
            "source");
        List<Pin> pins = new ArrayList<>();
        for (Map<String, Object> p : maps(l, "pins")) {
          fields(p, "a pin", "method", "blocksIn");
          pins.add(new Pin(text(p, "method"), text(p, "blocksIn")));
        }
        try {
          libraries.add(
              new Library(
                  text(l, "name"),
                  text(l, "category"),
                  texts(l, "packages"),
                  text(l, "artifact"),
                  pins,
                  optionalText(l, "lastAffected"),
                  optionalText(l, "fixedIn"),
                  optionalText(l, "checkedUpTo"),
                  text(l, "change"),
                  text(l, "remedy"),
                  optionalText(l, "asyncApi"),
                  text(l, "source")));
        } catch (IllegalArgumentException e) {
          throw new IOException(e.getMessage(), e);
        }
      }
      List<SubmitFailureMeaning> meanings = new ArrayList<>();
      for (Map<String, Object> m : maps(root, "submitFailures")) {
        fields(m, "a submit failure", "id", "pattern", "meaning", "action");
        meanings.add(
            new SubmitFailureMeaning(
                text(m, "id"), text(m, "pattern"), text(m, "meaning"), text(m, "action")));
      }
      List<UnfollowedCall> unfollowed = new ArrayList<>();
      for (Map<String, Object> m : maps(root, "scanDoesNotFollow")) {
        fields(m, "a call the scan does not follow", "method", "why");
        unfollowed.add(new UnfollowedCall(text(m, "method"), text(m, "why")));
      }
      List<UnrunPackage> unrun = new ArrayList<>();
      for (Map<String, Object> m : maps(root, "scanNotRanked")) {
        fields(m, "a package the scan does not rank", "packagePrefix", "artifact", "what", "why");
        unrun.add(
            new UnrunPackage(
                text(m, "packagePrefix"), text(m, "artifact"), text(m, "what"), text(m, "why")));
      }
      return new Knowledge(
          new JdkFacts(
              (int) whole(jdk, "virtualThreadsPreviewIn"),
              (int) whole(jdk, "virtualThreadsFinalIn"),
              (int) whole(jdk, "pinnedReasonRecordedIn"),
              (int) whole(jdk, "monitorsStopPinningIn"),
              text(jdk, "monitorsStopPinningSource"),
              (int) whole(jdk, "foreignFunctionsFinalIn"),
              (int) whole(jdk, "classInitWaitUnmountsIn"),
              text(jdk, "classInitWaitUnmountsSource")),
          new Thresholds(
              number(t, "highCapacityShare"),
              number(t, "mediumCapacityShare"),
              number(t, "lowCapacityShare"),
              whole(t, "starvationMinNanos"),
              number(t, "resizeSaturatedShare"),
              number(t, "contendedMonitorShare"),
              number(t, "compensationHighShareOfMaxPool"),
              whole(t, "shortRecordingNanos"),
              number(t, "nearThresholdFactor"),
              number(t, "pinnedTimeQuantile"),
              (int) whole(t, "maxRecommendedParallelism")),
          libraries,
          meanings,
          unfollowed,
          unrun);
    }
  }

  /** A JSON value as maps, lists, strings, numbers, booleans and nulls. */
  private static Object value(JsonParser parser, String where) throws IOException {
    JsonToken token = parser.currentToken();
    if (token == null) {
      throw new IOException(where + " ends early");
    }
    return switch (token) {
      case START_OBJECT -> object(parser, where);
      case START_ARRAY -> {
        List<Object> list = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
          list.add(value(parser, where));
        }
        yield list;
      }
      case VALUE_STRING -> parser.getText();
      case VALUE_NUMBER_INT -> parser.getLongValue();
      case VALUE_NUMBER_FLOAT -> parser.getDoubleValue();
      case VALUE_TRUE -> true;
      case VALUE_FALSE -> false;
      case VALUE_NULL -> null;
      default -> throw new IOException("unexpected " + token + " in " + where);
    };
  }

  private static Map<String, Object> object(JsonParser parser, String where) throws IOException {
    if (parser.currentToken() != JsonToken.START_OBJECT) {
      throw new IOException(where + " is not an object");
    }
    Map<String, Object> map = new HashMap<>();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String name = parser.currentName();
      parser.nextToken();
      if (map.containsKey(name)) {
        throw new IOException(where + " has \"" + name + "\" twice");
      }
      map.put(name, value(parser, name));
    }
    return map;
  }

  private static void fields(Map<String, Object> object, String where, String... names)
      throws IOException {
    Set<String> expected = Set.of(names);
    for (String name : object.keySet()) {
      if (!expected.contains(name)) {
        throw new IOException(where + " has an unknown field \"" + name + "\"");
      }
    }
    for (String name : names) {
      if (!object.containsKey(name)) {
        throw new IOException(where + " lacks the field \"" + name + "\"");
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static <T> T typed(Map<String, Object> object, String name, Class<T> type)
      throws IOException {
    Object value = object.get(name);
    if (!type.isInstance(value)) {
      throw new IOException("\"" + name + "\" is not " + type.getSimpleName());
    }
    return (T) value;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Map<String, Object> object, String name)
      throws IOException {
    return typed(object, name, Map.class);
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> maps(Map<String, Object> object, String name)
      throws IOException {
    List<Object> list = typed(object, name, List.class);
    for (Object item : list) {
      if (!(item instanceof Map)) {
        throw new IOException("\"" + name + "\" holds something other than objects");
      }
    }
    return (List<Map<String, Object>>) (List<?>) list;
  }

  private static String text(Map<String, Object> object, String name) throws IOException {
    return typed(object, name, String.class);
  }

  private static String optionalText(Map<String, Object> object, String name) throws IOException {
    return object.get(name) == null ? null : text(object, name);
  }

  private static List<String> texts(Map<String, Object> object, String name) throws IOException {
    List<?> list = typed(object, name, List.class);
    List<String> texts = new ArrayList<>();
    for (Object item : list) {
      if (!(item instanceof String text)) {
        throw new IOException("\"" + name + "\" holds something other than strings");
      }
      texts.add(text);
    }
    return texts;
  }

  private static long whole(Map<String, Object> object, String name) throws IOException {
    return typed(object, name, Long.class);
  }

  private static double number(Map<String, Object> object, String name) throws IOException {
    return typed(object, name, Number.class).doubleValue();
  }
}
